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
