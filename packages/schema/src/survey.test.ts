import { describe, expect, test } from "vitest";
import { ConditionSchema, PageSchema, QuestionSchema, SurveySchema } from "./survey.js";

describe("SurveySchema", () => {
  test("fills the spec defaults when a new survey has only an id", () => {
    const survey = SurveySchema.parse({ id: "65a1b2c3d4e5f60718293a4b" });
    expect(survey).toEqual({
      id: "65a1b2c3d4e5f60718293a4b",
      title: "Unnamed Survey",
      description: "Unnamed Description",
      canSubscribeTo: false,
      sections: [],
      pages: [],
      version: 0,
    });
  });

  test("strips keys that are not part of a survey", () => {
    const survey = SurveySchema.parse({ id: "abc", tenantId: "other", readOnly: true, version: 3 });
    expect(survey).not.toHaveProperty("tenantId");
    expect(survey).not.toHaveProperty("readOnly");
    expect(survey.version).toBe(3);
  });

  test("rejects an id with characters outside the id alphabet", () => {
    const result = SurveySchema.safeParse({ id: "../etc" });
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.path).toEqual(["id"]);
  });

  test("rejects a negative version", () => {
    expect(SurveySchema.safeParse({ id: "a", version: -1 }).success).toBe(false);
  });
});

describe("PageSchema", () => {
  test("defaults the title to 'Unnamed page' and lists to empty", () => {
    expect(PageSchema.parse({ id: "p1" })).toEqual({
      id: "p1",
      title: "Unnamed page",
      conditions: [],
      questions: [],
    });
  });
});

describe("ConditionSchema", () => {
  test("defaults joinType to 'and'", () => {
    expect(
      ConditionSchema.parse({ fieldName: "pain.hadPain", fieldValue: 0, action: "Greater than" }),
    ).toEqual({
      fieldName: "pain.hadPain",
      fieldValue: 0,
      action: "Greater Than",
      joinType: "and",
    });
  });

  test("rejects a join type other than and/or", () => {
    const result = ConditionSchema.safeParse({ fieldName: "a", action: "Equals", joinType: "xor" });
    expect(result.error?.issues[0]?.path).toEqual(["joinType"]);
  });
});

describe("QuestionSchema", () => {
  test("parses nested group fields and keeps the pii flag", () => {
    const q = QuestionSchema.parse({
      id: "q1",
      type: "group",
      fieldName: "address",
      title: "Address",
      fields: [{ id: "q2", type: "text", fieldName: "street", title: "Street", pii: true, extra: 1 }],
    });
    expect(q.fields?.[0]).toEqual({
      id: "q2",
      type: "text",
      fieldName: "street",
      title: "Street",
      pii: true,
    });
  });

  test("rejects an unknown question type", () => {
    const result = QuestionSchema.safeParse({ id: "q1", type: "slider", fieldName: "a", title: "" });
    expect(result.error?.issues[0]?.path).toEqual(["type"]);
  });
});

describe("translations", () => {
  test("keep the texts of each language and drop anything but texts", () => {
    const q = QuestionSchema.parse({
      id: "q1",
      type: "radio",
      fieldName: "smoker",
      title: "Do you smoke?",
      translations: { es: { title: "¿Fuma?", fieldName: "fuma" } },
      choices: [{ value: "yes", label: "Yes", translations: { es: { label: "Sí", value: "si" } } }],
    });
    expect(q.translations).toEqual({ es: { title: "¿Fuma?" } });
    expect(q.choices?.[0]).toEqual({ value: "yes", label: "Yes", translations: { es: { label: "Sí" } } });
  });

  test("refuse a key that is not a language code", () => {
    const result = SurveySchema.safeParse({
      id: "64a1c0de00000000000000ff",
      translations: { "<script>": { title: "x" } },
    });
    expect(result.success).toBe(false);
  });
});
