import { describe, expect, test } from "vitest";
import { answerPaths, questionPath, selectedValues, setSelectedValues } from "./questions.js";
import type { Question } from "./types.js";

const perChoice: Question = {
  id: "1",
  type: "checkbox",
  fieldName: "social.householdMembers",
  title: "Who lives with you?",
  choices: [
    { value: "alone", label: "I live alone", fieldName: "social.householdMembers0" },
    { value: "spouse", label: "Spouse", fieldName: "social.householdMembers1" },
    { value: "children", label: "Children", fieldName: "social.householdMembers2" },
  ],
};
const listGroup: Question = {
  id: "2",
  type: "checkbox",
  fieldName: "colors",
  title: "Colors",
  choices: [
    { value: "red", label: "Red" },
    { value: "blue", label: "Blue" },
  ],
};

describe("selectedValues", () => {
  test("reads per-choice fields; an unchecked choice is absent", () => {
    expect(
      selectedValues(perChoice, { social: { householdMembers1: "spouse", householdMembers2: "children" } }),
    ).toEqual(["spouse", "children"]);
    expect(selectedValues(perChoice, {})).toEqual([]);
  });

  test("reads a list at the question's field", () => {
    expect(selectedValues(listGroup, { colors: ["blue"] })).toEqual(["blue"]);
    expect(selectedValues(listGroup, { colors: [] })).toEqual([]);
  });

  test("reads a radio's single value", () => {
    const radio: Question = { ...listGroup, type: "radio" };
    expect(selectedValues(radio, { colors: "red" })).toEqual(["red"]);
    expect(selectedValues(radio, { colors: "" })).toEqual([]);
  });
});

describe("setSelectedValues", () => {
  test("writes checked choices to their fields and removes unchecked ones", () => {
    const start = { social: { householdMembers0: "alone", other: 1 } };
    const next = setSelectedValues(perChoice, start, ["spouse"]);
    expect(next).toEqual({ social: { householdMembers1: "spouse", other: 1 } });
    expect(selectedValues(perChoice, next)).toEqual(["spouse"]);
  });

  test("writes a list for a plain checkbox group and one value for a radio", () => {
    expect(setSelectedValues(listGroup, {}, ["red", "blue"])).toEqual({ colors: ["red", "blue"] });
    expect(setSelectedValues(listGroup, { colors: ["red"] }, [])).toEqual({});
    expect(setSelectedValues({ ...listGroup, type: "radio" }, {}, ["blue"])).toEqual({ colors: "blue" });
  });
});

describe("answerPaths", () => {
  test("lists per-choice fields, nested fields and nothing for html", () => {
    expect(answerPaths(perChoice)).toEqual([
      "social.householdMembers0",
      "social.householdMembers1",
      "social.householdMembers2",
    ]);
    const group: Question = {
      id: "g",
      type: "group",
      fieldName: "address",
      title: "",
      fields: [
        { id: "s", type: "text", fieldName: "street", title: "" },
        { id: "h", type: "html", fieldName: "note", title: "" },
      ],
    };
    expect(answerPaths(group)).toEqual(["address.street"]);
    expect(questionPath({ id: "s", type: "text", fieldName: "street", title: "" }, "address")).toBe(
      "address.street",
    );
  });
});
