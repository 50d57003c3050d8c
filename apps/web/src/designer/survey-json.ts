import { SurveySchema } from "@core-care/schema";
import type { Survey } from "@core-care/survey-engine";
import { savedFields } from "./remote-save";

/** The outcome of reading a survey file. */
export type SurveyImport = { ok: true; survey: Survey } | { ok: false; problems: string[] };

/**
 * Reads survey JSON and checks it with the shared `SurveySchema`. The survey being edited keeps its
 * own id and version, so an import never overwrites another survey on save.
 */
export function importSurvey(text: string, into: Pick<Survey, "id" | "version">): SurveyImport {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    return {
      ok: false,
      problems: [`Not valid JSON: ${error instanceof Error ? error.message : String(error)}`],
    };
  }
  const candidate =
    typeof raw === "object" && raw !== null && !Array.isArray(raw)
      ? { ...raw, id: into.id, version: into.version }
      : raw;
  const parsed = SurveySchema.safeParse(candidate);
  if (!parsed.success) {
    return {
      ok: false,
      problems: parsed.error.issues.map((issue) =>
        issue.path.length > 0 ? `${issue.path.join(".")}: ${issue.message}` : issue.message,
      ),
    };
  }
  return { ok: true, survey: parsed.data };
}

/** The survey as a JSON file's text: the fields a save sends. */
export function exportSurvey(survey: Survey): string {
  return `${JSON.stringify(savedFields("survey", survey), null, 2)}\n`;
}

/** Offers `text` as a file download named `fileName`. */
export function downloadText(fileName: string, text: string, type: string): void {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const link = document.createElement("a");
  link.href = url;
  link.download = fileName;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/** A file name made of a title's letters and digits. */
export function fileNameOf(title: string, extension: string): string {
  const base = title
    .trim()
    .replace(/[^A-Za-z0-9]+/g, "-")
    .replace(/^-|-$/g, "")
    .toLowerCase();
  return `${base === "" ? "untitled" : base}.${extension}`;
}
