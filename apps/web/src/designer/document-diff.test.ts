import { describe, expect, test } from "vitest";
import { createPage, createSurvey } from "@core-care/survey-engine";
import { diffDocuments } from "./document-diff";

describe("diffDocuments", () => {
  test("reports nothing for equal versions apart from the version number", () => {
    const survey = createSurvey({ pages: [createPage()] });
    expect(diffDocuments(survey, { ...survey, version: 9 })).toEqual([]);
  });

  test("names changed, added and removed leaves by path with pages matched by id", () => {
    const first = createPage({ id: "p1", title: "One" });
    const second = createPage({ id: "p2", title: "Two" });
    const before = createSurvey({ title: "Intake", pages: [first, second] });
    const after = {
      ...before,
      title: "Intake v2",
      pages: [{ ...second, title: "Second" }, first, createPage({ id: "p3", title: "New" })],
    };

    expect(diffDocuments(before, after)).toEqual([
      { path: "title", change: "changed", before: "Intake", after: "Intake v2" },
      { path: "pages (order)", change: "changed", before: "p1, p2", after: "p2, p1" },
      { path: "pages[p2].title", change: "changed", before: "Two", after: "Second" },
      {
        path: "pages[p3]",
        change: "added",
        after: JSON.stringify(after.pages[2]),
      },
    ]);
  });

  test("lists a removed field and compares plain lists by position", () => {
    const before = { id: "r", mock: [1, 2], clinical: true };
    const after = { id: "r", mock: [1, 3] };
    expect(diffDocuments(before, after)).toEqual([
      { path: "mock[1]", change: "changed", before: "2", after: "3" },
      { path: "clinical", change: "removed", before: "true" },
    ]);
  });
});
