import { describe, expect, test } from "vitest";
import { answerRows } from "./answer-rows";

const survey = {
  pages: [
    {
      id: "p1",
      title: "Page",
      conditions: [],
      questions: [
        {
          id: "q1",
          type: "radio",
          fieldName: "smoker",
          title: "Do you smoke?",
          choices: [
            { value: "yes", label: "Yes, I do" },
            { value: "no", label: "No" },
          ],
        },
        {
          id: "q2",
          type: "group",
          fieldName: "address",
          title: "Address",
          fields: [{ id: "q3", type: "text", fieldName: "city", title: "City" }],
        },
      ],
    },
  ],
} as unknown as Parameters<typeof answerRows>[1];

describe("answerRows", () => {
  test("labels answers with question titles and choice labels in survey order", () => {
    expect(answerRows({ address: { city: "Austin" }, smoker: "yes", extra: 3 }, survey)).toEqual([
      { path: "smoker", question: "Do you smoke?", answer: "Yes, I do" },
      { path: "address.city", question: "City", answer: "Austin" },
      { path: "extra", question: "extra", answer: "3" },
    ]);
  });

  test("falls back to field names without a survey and joins lists", () => {
    expect(answerRows({ diets: ["a", "b"], ok: true, blank: "" }, null)).toEqual([
      { path: "diets", question: "diets", answer: "a, b" },
      { path: "ok", question: "ok", answer: "Yes" },
    ]);
  });
});

describe("answerRows of a checkbox group whose choices have fields of their own", () => {
  test("shows one row of the chosen labels under the question, never the raw field", () => {
    const pain = {
      pages: [
        {
          id: "p",
          title: "Pain",
          conditions: [],
          questions: [
            {
              id: "q",
              type: "checkbox",
              fieldName: "pain.locations",
              title: "Where do you hurt?",
              choices: [
                { value: "head", label: "Head", fieldName: "pain.locations0" },
                { value: "lowerBack", label: "Lower back", fieldName: "pain.locations7" },
              ],
            },
          ],
        },
      ],
    } as unknown as Parameters<typeof answerRows>[1];
    expect(answerRows({ pain: { locations7: "lowerBack" } }, pain)).toEqual([
      { path: "pain.locations", question: "Where do you hurt?", answer: "Lower back" },
    ]);
  });
});
