import { describe, expect, test } from "vitest";
import { answerEntries } from "./answer-list.js";
import { checkAnswers } from "./check-answers.js";
import { createPage, createQuestion, createSurvey } from "./factories.js";
import { fillRequiredAnswers } from "./fill-required.js";
import { BUILTIN_SURVEYS } from "./surveys/index.js";
import { teleAwvSurvey } from "./surveys/tele-awv.js";
import { welcomeToMedicareExam } from "./surveys/welcome-to-medicare-exam.js";
import type { Survey } from "./types.js";

const survey: Survey = {
  ...createSurvey({ title: "Check" }),
  pages: [
    {
      ...createPage({ title: "One" }),
      questions: [
        createQuestion("radio", {
          fieldName: "mood",
          title: "Mood",
          required: true,
          choices: [
            { value: "good", label: "Good" },
            { value: "bad", label: "Bad" },
          ],
        }),
        createQuestion("scale", {
          fieldName: "pain",
          title: "Pain",
          min: 0,
          max: 10,
        }),
        createQuestion("date", {
          fieldName: "seen",
          title: "Seen",
        }),
        createQuestion("checkbox", {
          fieldName: "where",
          title: "Where",
          choices: [
            { value: "head", label: "Head", fieldName: "where0" },
            { value: "back", label: "Back", fieldName: "where1" },
          ],
        }),
        createQuestion("checkbox", {
          fieldName: "diets",
          title: "Diets",
          choices: [
            { value: "vegan", label: "Vegan" },
            { value: "keto", label: "Keto" },
          ],
        }),
        createQuestion("text", {
          fieldName: "why",
          title: "Why",
          required: true,
          visibleWhen: [{ fieldName: "mood", action: "Equals", fieldValue: "bad" }],
        }),
      ],
    },
  ],
};

describe("checkAnswers", () => {
  test("accepts a partial draft of allowed answers", () => {
    expect(checkAnswers(survey, { pain: "3", where1: "back", diets: ["keto"] })).toEqual([]);
  });

  test.each([
    [{ mood: "superb" }, "mood"],
    [{ mood: ["good", "bad"] }, "mood"],
    [{ pain: "eleven" }, "pain"],
    [{ pain: 11 }, "pain"],
    [{ seen: "2026-02-30" }, "seen"],
    [{ where0: "back" }, "where0"],
    [{ diets: ["keto", "paleo"] }, "diets"],
  ])("names the field of %j", (answers, field) => {
    const issues = checkAnswers(survey, answers);
    expect(issues.map((i) => i.field)).toEqual([field]);
    expect(issues[0]?.message).not.toBe("");
  });

  test("reads flat dotted keys as the nested answer", () => {
    const nested = { ...survey, pages: [{ ...survey.pages[0]!, questions: [] }] };
    expect(checkAnswers(nested, { "a.b": "x" })).toEqual([]);
    expect(checkAnswers(teleAwvSurvey, { "pain.hadPain": "7" }).map((i) => i.field)).toEqual([
      "pain.hadPain",
    ]);
  });

  test("requires the required questions that show only on submit", () => {
    expect(checkAnswers(survey, {}, { submit: false })).toEqual([]);
    expect(checkAnswers(survey, {}, { submit: true }).map((i) => i.field)).toEqual(["mood"]);
    expect(checkAnswers(survey, { mood: "good" }, { submit: true })).toEqual([]);
    expect(checkAnswers(survey, { mood: "bad" }, { submit: true }).map((i) => i.code)).toEqual(["required"]);
  });

  test("refuses a partial Annual Wellness Visit as submitted", () => {
    const issues = checkAnswers(teleAwvSurvey, { pain: { hadPain: "0" } }, { submit: true });
    expect(issues.length).toBeGreaterThan(5);
    expect(issues.every((i) => i.code === "required" || i.code === "groupRequired")).toBe(true);
  });
});

describe("answerEntries", () => {
  test("gives a checkbox group whose choices have fields of their own as one entry of labels", () => {
    const entries = answerEntries(teleAwvSurvey, {
      pain: { hadPain: "2", locations7: "lowerBack", locations0: "head" },
      extra: { note: "kept" },
    });
    expect(entries.map((e) => [e.field, e.values, e.choices.map((c) => c?.label)])).toEqual([
      ["pain.hadPain", ["2"], ["Most days"]],
      ["pain.locations", ["head", "lowerBack"], ["Head", "Lower back"]],
      ["extra.note", ["kept"], [undefined]],
    ]);
    expect(entries[1]?.question?.title).toBe("Where do you hurt? Check all that apply.");
  });

  test("walks groups and keeps list answers as their values", () => {
    const family = welcomeToMedicareExam.pages.flatMap((p) => p.questions).find((q) => q.type === "group");
    expect(family).toBeDefined();
    const field = family!.fields![0]!;
    const entries = answerEntries(welcomeToMedicareExam, {
      [family!.fieldName]: { [field.fieldName]: field.choices?.[0]?.value ?? "x" },
    });
    expect(entries.map((e) => e.field)).toEqual([`${family!.fieldName}.${field.fieldName}`]);
  });
});

describe("fillRequiredAnswers", () => {
  test.each(BUILTIN_SURVEYS.map((s) => [s.title, s] as const))(
    "completes answers %s accepts as a submission, keeping the given ones",
    (_title, builtin) => {
      for (const context of [
        { sex: "F", age: 70 },
        { sex: "M", age: 30, tenant: { id: "t", settings: { alternateFalls: true } } },
      ]) {
        const answers = fillRequiredAnswers(builtin, { extra: "kept" });
        expect(checkAnswers(builtin, answers, { submit: true, context })).toEqual([]);
        expect(answers.extra).toBe("kept");
      }
    },
  );
});
