import { describe, expect, test } from "vitest";
import { preselected, surveyChoices } from "./tablet-picker";

describe("surveyChoices", () => {
  test("puts assigned surveys first and orders each part with the wellness exams on top", () => {
    const all = [
      { id: "a", title: "Annual Wellness Visit" },
      { id: "b", title: "Welcome to Medicare Exam" },
      { id: "c", title: "Depression follow-up" },
      { id: "d", title: "Core Care Wellness Exam" },
      { id: "e", title: "Falls check" },
    ];
    const assigned = [
      { surveyId: "e", title: "Falls check" },
      { surveyId: "b", title: "Welcome to Medicare Exam" },
    ];

    expect(surveyChoices(assigned, all)).toEqual({
      assigned: [
        { id: "b", title: "Welcome to Medicare Exam" },
        { id: "e", title: "Falls check" },
      ],
      others: [
        { id: "d", title: "Core Care Wellness Exam" },
        { id: "a", title: "Annual Wellness Visit" },
        { id: "c", title: "Depression follow-up" },
      ],
    });
  });
});

describe("preselected", () => {
  const choices = {
    assigned: [{ id: "b", title: "Welcome to Medicare Exam" }],
    others: [{ id: "d", title: "Core Care Wellness Exam" }],
  };

  test("chooses the survey the URL asks for, assigned or not", () => {
    expect(preselected(choices, "d")).toBe("d");
    expect(preselected(choices, "b")).toBe("b");
  });

  test("falls back to the first assigned survey for an unknown one or none", () => {
    expect(preselected(choices, "no-such-survey")).toBe("b");
    expect(preselected(choices, null)).toBe("b");
    expect(preselected({ assigned: [], others: choices.others }, null)).toBeNull();
  });
});
