import { describe, expect, test } from "vitest";
import { sortSurveys } from "./sort-surveys.js";

const titled = (...titles: string[]) => titles.map((title, id) => ({ id, title }));

describe("sortSurveys", () => {
  test("puts 'Core Care Wellness Exam' first and 'Welcome to Medicare Exam' next", () => {
    const sorted = sortSurveys(
      titled("Zeta", "Welcome to Medicare Exam", "Alpha", "Core Care Wellness Exam", "Mid"),
    );
    expect(sorted.map((survey) => survey.title)).toEqual([
      "Core Care Wellness Exam",
      "Welcome to Medicare Exam",
      "Zeta",
      "Alpha",
      "Mid",
    ]);
  });

  test("keeps the order of the others and of duplicate titles", () => {
    const list = titled("B", "Core Care Wellness Exam", "A", "Core Care Wellness Exam");
    expect(sortSurveys(list).map((survey) => survey.id)).toEqual([1, 3, 0, 2]);
  });

  test("returns a new list and leaves the input alone", () => {
    const list = titled("B", "Welcome to Medicare Exam");
    const sorted = sortSurveys(list);
    expect(sorted).not.toBe(list);
    expect(list.map((survey) => survey.title)).toEqual(["B", "Welcome to Medicare Exam"]);
  });
});
