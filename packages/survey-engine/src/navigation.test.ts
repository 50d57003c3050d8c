import { describe, expect, test } from "vitest";
import { nextPageIndex, previousPageIndex, pruneHiddenAnswers, shouldDisplayPage } from "./navigation.js";
import { visibleQuestions } from "./questions.js";
import type { Condition, EvalContext, Page, Question, Survey } from "./types.js";

const page = (id: string, conditions: Condition[] = [], questions: Question[] = []): Page => ({
  id,
  title: id,
  conditions,
  questions,
});
const shows = (flag: string): Condition[] => [{ fieldName: flag, action: "Equals", fieldValue: "yes" }];
const survey = (pages: Page[]): Survey => ({
  id: "s",
  title: "s",
  description: "",
  canSubscribeTo: false,
  sections: [],
  pages,
  version: 1,
});

// Pages: 0 always, 1 when a, 2 when b, 3 always, 4 when c.
const fivePages = survey([
  page("p0"),
  page("p1", shows("a")),
  page("p2", shows("b")),
  page("p3"),
  page("p4", shows("c")),
]);
const context = (answers: Record<string, unknown>): EvalContext => ({ answers });

describe("shouldDisplayPage", () => {
  test("shows a page whose conditions all hold", () => {
    const conditions: Condition[] = [...shows("a"), ...shows("b")];
    expect(shouldDisplayPage(page("x", conditions), context({ a: "yes", b: "yes" }))).toBe(true);
    expect(shouldDisplayPage(page("x", conditions), context({ a: "yes", b: "no" }))).toBe(false);
    expect(shouldDisplayPage(page("x"), context({}))).toBe(true);
  });
});

describe("nextPageIndex", () => {
  test.each([
    [0, {}, 3],
    [0, { a: "yes" }, 1],
    [1, { a: "yes" }, 3],
    [0, { b: "yes" }, 2],
    [3, {}, -1],
    [3, { c: "yes" }, 4],
    [4, { c: "yes" }, -1],
    [-1, {}, 0],
  ])("from page %i with %j goes to %i", (index, answers, expected) => {
    expect(nextPageIndex(fivePages, index, context(answers))).toBe(expected);
  });

  test("returns -1 when no later page shows", () => {
    expect(nextPageIndex(survey([page("a"), page("b", shows("never"))]), 0, context({}))).toBe(-1);
  });
});

describe("previousPageIndex", () => {
  test.each([
    [3, {}, 0],
    [3, { b: "yes" }, 2],
    [3, { a: "yes" }, 1],
    [4, {}, 3],
    [0, {}, 0],
    [1, { a: "yes" }, 0],
  ])("from page %i with %j goes to %i", (index, answers, expected) => {
    expect(previousPageIndex(fivePages, index, context(answers))).toBe(expected);
  });

  test("stays put when no earlier page shows", () => {
    const pages = survey([page("a", shows("x")), page("b")]);
    expect(previousPageIndex(pages, 1, context({}))).toBe(1);
  });
});

const q = (fieldName: string, extra: Partial<Question> = {}): Question => ({
  id: fieldName,
  type: "text",
  fieldName,
  title: fieldName,
  ...extra,
});

describe("visibleQuestions", () => {
  const questions = [
    q("always"),
    q("follow", { visibleWhen: shows("trigger") }),
    q("group", {
      type: "group",
      fields: [q("inner"), q("innerHidden", { visibleWhen: shows("trigger") })],
    }),
  ];

  test("drops questions whose visibleWhen fails, also inside groups", () => {
    const visible = visibleQuestions(page("p", [], questions), context({}));
    expect(visible.map((question) => question.fieldName)).toEqual(["always", "group"]);
    expect(visible[1]?.fields?.map((field) => field.fieldName)).toEqual(["inner"]);
  });

  test("keeps them when their conditions hold", () => {
    const visible = visibleQuestions(page("p", [], questions), context({ trigger: "yes" }));
    expect(visible.map((question) => question.fieldName)).toEqual(["always", "follow", "group"]);
    expect(visible[2]).toBe(questions[2]);
  });
});

describe("pruneHiddenAnswers", () => {
  const chain = survey([
    page(
      "p0",
      [],
      [
        q("trigger"),
        q("followUp", { visibleWhen: shows("trigger") }),
        q("second", { visibleWhen: [{ fieldName: "followUp", action: "Equals", fieldValue: "yes" }] }),
        q("pick", {
          type: "checkbox",
          visibleWhen: shows("trigger"),
          choices: [
            { value: "a", label: "A", fieldName: "pick0" },
            { value: "b", label: "B", fieldName: "pick1" },
          ],
        }),
      ],
    ),
    page("p1", shows("trigger"), [q("onHiddenPage")]),
  ]);

  test("drops answers of hidden questions and hidden pages, repeating until stable", () => {
    const answers = {
      trigger: "no",
      followUp: "yes",
      second: "x",
      pick0: "a",
      onHiddenPage: "z",
      patientId: "p",
    };
    expect(pruneHiddenAnswers(chain, context(answers))).toEqual({ trigger: "no", patientId: "p" });
  });

  test("keeps every answer when all questions show", () => {
    const answers = { trigger: "yes", followUp: "yes", second: "x", pick1: "b", onHiddenPage: "z" };
    expect(pruneHiddenAnswers(chain, context(answers))).toBe(answers);
  });
});
