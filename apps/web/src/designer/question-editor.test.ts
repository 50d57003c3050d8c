import { describe, expect, test } from "vitest";
import { createQuestion } from "@core-care/survey-engine";
import { QUESTION_TYPES as SCHEMA_TYPES } from "@core-care/schema";
import { changeType, QUESTION_TYPES } from "./question-editor";

describe("QUESTION_TYPES", () => {
  test("offers every question type the schema and runner know", () => {
    expect(QUESTION_TYPES.map(([type]) => type).sort()).toEqual([...SCHEMA_TYPES].sort());
  });
});

describe("changeType", () => {
  test("keeps id, field name, title, flags and conditions and adds the new type's defaults", () => {
    const text = createQuestion("text", {
      title: "Smoker?",
      required: true,
      pii: true,
      visibleWhen: [{ fieldName: "age", action: "Greater Than", fieldValue: 17, joinType: "and" }],
    });
    const yesno = changeType(text, "yesno");
    expect(yesno).toMatchObject({
      id: text.id,
      fieldName: text.fieldName,
      title: "Smoker?",
      required: true,
      pii: true,
      visibleWhen: text.visibleWhen,
      type: "yesno",
      choices: [
        { value: "yes", label: "Yes" },
        { value: "no", label: "No" },
      ],
    });
    expect(changeType(yesno, "group").fields).toEqual([]);
  });

  test("carries choices between choice types and drops them for others", () => {
    const radio = createQuestion("radio", { choices: [{ value: "a", label: "A" }] });
    expect(changeType(radio, "checkbox").choices).toEqual([{ value: "a", label: "A" }]);
    expect(changeType(radio, "text").choices).toBeUndefined();
  });
});
