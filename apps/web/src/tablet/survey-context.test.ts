import { describe, expect, test } from "vitest";
import { createPage, createQuestion, createSurvey } from "@core-care/survey-engine";
import { ageOn, globalsFor, surveyNeedsGlobals } from "./survey-context";

describe("ageOn", () => {
  test.each([
    ["1950-02-03", "2026-02-02", 75],
    ["1950-02-03", "2026-02-03", 76],
    ["2000-02-29", "2026-02-28", 25],
    ["2000-02-29", "2026-03-01", 26],
  ])("gives whole years from %s to %s", (dob, today, age) => {
    expect(ageOn(dob, new Date(`${today}T12:00:00Z`))).toBe(age);
  });

  test("gives undefined for an unreadable or future birth date", () => {
    expect(ageOn("03/02/1950", new Date())).toBeUndefined();
    expect(ageOn("2100-01-01", new Date("2026-01-01T00:00:00Z"))).toBeUndefined();
  });
});

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

describe("globalsFor", () => {
  test("gives sex, age, tenant id, location and settings for conditions", () => {
    expect(
      globalsFor(
        { dob: "1950-02-03", sex: "F", locationId: "loc1" },
        { id: "demo", settings: { alternateFalls: true } },
        new Date("2026-11-21T00:00:00Z"),
      ),
    ).toEqual({
      sex: "F",
      age: 76,
      tenant: { id: "demo", location: { id: "loc1" }, settings: { alternateFalls: true } },
    });
  });
});
