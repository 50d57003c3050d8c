import { describe, expect, expectTypeOf, test } from "vitest";
import type { z } from "zod";
import {
  BUILTIN_SURVEYS,
  type Condition as EngineCondition,
  type Survey as EngineSurvey,
} from "@core-care/survey-engine";
import { ConditionSchema, SurveySchema } from "./survey.js";

describe("SurveySchema and the engine's Survey type", () => {
  test("the parsed survey type is assignable to the engine's Survey", () => {
    expectTypeOf<z.infer<typeof SurveySchema>>().toExtend<EngineSurvey>();
    expectTypeOf<z.infer<typeof ConditionSchema>>().toExtend<EngineCondition>();
  });

  test.each(BUILTIN_SURVEYS.map((s) => [s.title, s] as const))(
    "parses the built-in survey %s unchanged",
    (_t, survey) => {
      expect(SurveySchema.parse(survey)).toEqual(survey);
    },
  );
});

describe("ConditionSchema action", () => {
  test.each([
    ["Greater than", "Greater Than"],
    ["has response", "Has Response"],
    ["NOT_EQUALS", "Not Equals"],
    ["Less Than", "Less Than"],
  ])("stores %j as %j", (input, canonical) => {
    expect(ConditionSchema.parse({ fieldName: "a", action: input }).action).toBe(canonical);
  });

  test("rejects an action the engine does not know", () => {
    const result = ConditionSchema.safeParse({ fieldName: "a", action: "Contains" });
    expect(result.error?.issues[0]?.path).toEqual(["action"]);
  });
});
