import { describe, expect, test } from "vitest";
import { createPage, createQuestion, createSurvey } from "@core-care/survey-engine";
import { surveyNeedsGlobals } from "./survey-context";

describe("surveyNeedsGlobals", () => {
  test("is false when no condition reads sex, age or the tenant", () => {
    const survey = createSurvey({
      pages: [
        createPage({
          conditions: [{ fieldName: "smoker", action: "Equals", fieldValue: "yes" }],
          questions: [
            createQuestion("text", { visibleWhen: [{ fieldName: "tenantName", action: "Has Response" }] }),
          ],
        }),
      ],
    });

    expect(surveyNeedsGlobals(survey)).toBe(false);
  });

  test.each([
    ["a page condition on age", { pageField: "age" }],
    ["a nested question condition on the tenant", { nestedField: "tenant.location.id" }],
    ["a question condition on sex", { questionField: "sex" }],
  ])(
    "is true for %s",
    (_name, where: { pageField?: string; questionField?: string; nestedField?: string }) => {
      const condition = (fieldName: string | undefined) =>
        fieldName ? [{ fieldName, action: "Has Response" }] : [];
      const survey = createSurvey({
        pages: [
          createPage(),
          createPage({
            conditions: condition(where.pageField),
            questions: [
              createQuestion("group", {
                visibleWhen: condition(where.questionField),
                fields: [createQuestion("text", { visibleWhen: condition(where.nestedField) })],
              }),
            ],
          }),
        ],
      });

      expect(surveyNeedsGlobals(survey)).toBe(true);
    },
  );
});
