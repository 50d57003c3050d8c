import { describe, expect, test } from "vitest";
import { createCondition, createPage, createQuestion, createSurvey } from "./factories.js";
import { isObjectId } from "./object-id.js";

describe("createSurvey", () => {
  test("uses the spec's defaults and a fresh id", () => {
    const survey = createSurvey();
    expect(survey).toMatchObject({
      title: "Unnamed Survey",
      description: "Unnamed Description",
      canSubscribeTo: false,
      sections: [],
      pages: [],
      version: 0,
    });
    expect(isObjectId(survey.id)).toBe(true);
    expect(createSurvey().id).not.toBe(survey.id);
  });
});

describe("createPage", () => {
  test("is titled 'Unnamed page' with no conditions or questions", () => {
    const page = createPage();
    expect(page).toMatchObject({ title: "Unnamed page", conditions: [], questions: [] });
    expect(isObjectId(page.id)).toBe(true);
  });
});

describe("createQuestion", () => {
  test("names the field 'field' plus the id", () => {
    const question = createQuestion("text");
    expect(isObjectId(question.id)).toBe(true);
    expect(question.fieldName).toBe(`field${question.id}`);
    expect(question.type).toBe("text");
  });

  test("gives choice questions a choice list, yes/no questions their two values and groups a field list", () => {
    expect(createQuestion("radio").choices).toEqual([]);
    expect(createQuestion("yesno").choices?.map((choice) => choice.value)).toEqual(["yes", "no"]);
    expect(createQuestion("group").fields).toEqual([]);
    expect(createQuestion("text").choices).toBeUndefined();
  });
});

describe("createCondition", () => {
  test("joins with 'and' by default", () => {
    expect(createCondition({ fieldName: "a" })).toEqual({
      fieldName: "a",
      fieldValue: "",
      action: "Equals",
      joinType: "and",
    });
  });
});
