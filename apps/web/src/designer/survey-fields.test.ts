import { describe, expect, test } from "vitest";
import { createPage, createQuestion, createSurvey } from "@core-care/survey-engine";
import { conditionText, conditionValue, fieldOptions, moveItem, removeAt, replaceAt } from "./survey-fields";

describe("fieldOptions", () => {
  test("carries a question's choices for a condition's value, but not those of a checkbox answered per choice", () => {
    const survey = createSurvey({
      pages: [
        createPage({
          questions: [
            createQuestion("radio", {
              fieldName: "smoker",
              title: "Do you smoke?",
              choices: [
                { value: "yes", label: "Yes" },
                { value: "never", label: "Never" },
              ],
            }),
            createQuestion("checkbox", {
              fieldName: "diet",
              title: "Diet",
              choices: [{ value: "vegan", label: "Vegan", fieldName: "diets0" }],
            }),
            createQuestion("text", { fieldName: "note", title: "Note" }),
          ],
        }),
      ],
    });
    const options = fieldOptions(survey);
    expect(options.find((o) => o.path === "smoker")?.choices).toEqual([
      { value: "yes", label: "Yes" },
      { value: "never", label: "Never" },
    ]);
    expect(options.find((o) => o.path === "diets0")?.choices).toBeUndefined();
    expect(options.find((o) => o.path === "note")?.choices).toBeUndefined();
  });

  test("offers every answer path of the survey, nested group fields as parent.child, then the globals", () => {
    const survey = createSurvey({
      pages: [
        createPage({
          questions: [
            createQuestion("number", { fieldName: "weight", title: "Weight" }),
            createQuestion("html", { fieldName: "intro", title: "Welcome" }),
          ],
        }),
        createPage({
          questions: [
            createQuestion("group", {
              fieldName: "address",
              title: "Address",
              fields: [createQuestion("text", { fieldName: "city", title: "" })],
            }),
            createQuestion("checkbox", {
              fieldName: "diet",
              title: "Diet",
              choices: [
                { value: "vegan", label: "Vegan", fieldName: "diets0" },
                { value: "none", label: "None", fieldName: "diets1" },
              ],
            }),
          ],
        }),
      ],
    });

    expect(fieldOptions(survey).map((o) => [o.path, o.label, o.kind])).toEqual([
      ["weight", "weight (Weight)", "number"],
      ["address.city", "address.city", "text"],
      ["diets0", "diets0 (Diet)", "checkbox"],
      ["diets1", "diets1 (Diet)", "checkbox"],
      ["tenant.id", "tenant.id (global)", "global"],
      ["tenant.location.id", "tenant.location.id (global)", "global"],
      ["sex", "sex (global)", "global"],
      ["age", "age (global)", "global"],
    ]);
  });

  test("lists a field name used twice once", () => {
    const survey = createSurvey({
      pages: [
        createPage({ questions: [createQuestion("text", { fieldName: "a", title: "A" })] }),
        createPage({ questions: [createQuestion("text", { fieldName: "a", title: "Again" })] }),
      ],
    });
    expect(fieldOptions(survey).filter((o) => o.path === "a")).toHaveLength(1);
  });
});

describe("conditionValue", () => {
  test.each([
    ["3", "Equals", "number", 3],
    ["3", "Equals", "radio", "3"],
    ["65", "Greater Than", "global", 65],
    ["abc", "Less Than", "text", "abc"],
    ["", "Equals", "number", ""],
    ["yes, sometimes ,", "One Of", "radio", ["yes", "sometimes"]],
    ["no", "Not Equals", undefined, "no"],
  ] as const)("reads %j for %s on a %s field", (text, action, kind, expected) => {
    expect(conditionValue(text, action, kind)).toEqual(expected);
  });

  test("shows values back as text", () => {
    expect(conditionText(["a", "b"])).toBe("a, b");
    expect(conditionText(4)).toBe("4");
    expect(conditionText(undefined)).toBe("");
  });
});

describe("list helpers", () => {
  test("move, replace and remove return new lists", () => {
    const list = ["a", "b", "c"];
    expect(moveItem(list, 0, 1)).toEqual(["b", "a", "c"]);
    expect(moveItem(list, 2, -1)).toEqual(["a", "c", "b"]);
    expect(moveItem(list, 0, -1)).toEqual(["a", "b", "c"]);
    expect(replaceAt(list, 1, "x")).toEqual(["a", "x", "c"]);
    expect(removeAt(list, 1)).toEqual(["a", "c"]);
    expect(list).toEqual(["a", "b", "c"]);
  });
});
