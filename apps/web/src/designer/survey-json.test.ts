import { describe, expect, test } from "vitest";
import { createPage, createQuestion, createSurvey } from "@core-care/survey-engine";
import { exportSurvey, fileNameOf, importSurvey } from "./survey-json";

describe("importSurvey", () => {
  test("keeps the open survey's id and version and normalises legacy action spellings", () => {
    const source = createSurvey({
      title: "Imported",
      pages: [
        createPage({
          conditions: [{ fieldName: "age", fieldValue: 65, action: "Greater than", joinType: "and" }],
          questions: [createQuestion("yesno", { fieldName: "smokes", title: "Do you smoke?" })],
        }),
      ],
    });
    const result = importSurvey(exportSurvey({ ...source, version: 7 }), {
      id: "aaaaaaaaaaaaaaaaaaaaaaaa",
      version: 2,
    });

    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.survey.id).toBe("aaaaaaaaaaaaaaaaaaaaaaaa");
    expect(result.survey.version).toBe(2);
    expect(result.survey.title).toBe("Imported");
    expect(result.survey.pages[0]?.conditions[0]?.action).toBe("Greater Than");
  });

  test("lists the schema's problems with their paths", () => {
    const bad = JSON.stringify({
      title: "x",
      pages: [{ id: "p", questions: [{ id: "q", type: "slider", fieldName: "" }] }],
    });
    const result = importSurvey(bad, { id: "aaaaaaaaaaaaaaaaaaaaaaaa", version: 0 });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.problems.some((p) => p.startsWith("pages.0.questions.0.type"))).toBe(true);
    expect(result.problems.some((p) => p.startsWith("pages.0.questions.0.fieldName"))).toBe(true);
  });

  test("rejects text that is not JSON", () => {
    const result = importSurvey("{", { id: "aaaaaaaaaaaaaaaaaaaaaaaa", version: 0 });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.problems[0]).toMatch(/^Not valid JSON: /);
  });
});

describe("exportSurvey", () => {
  test("writes only the fields a save sends", () => {
    const text = exportSurvey({ ...createSurvey(), submitLabel: "Go" });
    expect(Object.keys(JSON.parse(text) as object).sort()).toEqual(
      ["canSubscribeTo", "description", "id", "pages", "sections", "title", "version"].sort(),
    );
  });

  test("names files after the title", () => {
    expect(fileNameOf("Intake: Adults 2026", "json")).toBe("intake-adults-2026.json");
    expect(fileNameOf("  ", "html")).toBe("untitled.html");
  });
});
