import { writeFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import {
  answerPaths,
  BUILTIN_SURVEYS,
  getAnswer,
  hasChoiceFields,
  pruneHiddenAnswers,
  questionPath,
  setAnswer,
  type Answers,
  type EvalContext,
  type Question,
  type Survey,
} from "@core-care/survey-engine";
import { csvRow } from "../services/csv.js";
import { answerItems } from "./answers.js";
import { buildCda } from "./cda.js";
import { buildFhirBundle } from "./fhir.js";
import { buildOruR01 } from "./hl7-oru.js";
import type { DeliveryDocumentInput } from "./types.js";

/**
 * The exports of every built-in survey, fully answered, as one JSON file: the outputs of each question
 * type held still while the code that writes them changes (builtin-exports.test.ts compares).
 */
export const BUILTIN_EXPORTS_FILE = resolve(
  dirname(fileURLToPath(import.meta.url)),
  "../../testdata/builtin-exports.json",
);

/** How the answers are written: as the tablet stores them (numbers as numbers) or as a CSV upload (text). */
type Source = "runner" | "upload";

/** A value of every answerable question, the way `source` stores it. */
function answerAll(
  questions: readonly Question[],
  prefix: string,
  answers: Answers,
  source: Source,
): Answers {
  const number = (n: number) => (source === "runner" ? n : String(n));
  let next = answers;
  for (const q of questions) {
    const path = questionPath(q, prefix);
    const choices = (q.choices ?? []).filter((c) => c.value !== q.noneValue);
    if (q.fields !== undefined) {
      next = answerAll(q.fields, path, next, source);
    } else if (q.type === "checkbox" && hasChoiceFields(q)) {
      for (const c of choices)
        next = setAnswer(next, questionPath({ ...q, fieldName: c.fieldName! }, prefix), c.value);
    } else if (q.type === "checkbox") {
      next = setAnswer(
        next,
        path,
        choices.map((c) => c.value),
      );
    } else if (choices.length > 0) {
      next = setAnswer(next, path, choices.at(-1)!.value);
    } else {
      const typed: Partial<Record<string, unknown>> = {
        scale: number(q.max ?? 3),
        number: number((q.min ?? 0) + 1.5),
        date: "2026-01-15",
        textarea: "First line & <more>\nSecond | line ^ ~",
        phone: "5551234567",
        email: "pat@example.org",
        text: "Some text",
      };
      if (typed[q.type] !== undefined) next = setAnswer(next, path, typed[q.type]);
    }
  }
  return next;
}

/** A survey of every question type, in the shapes the built-in surveys do not use. */
export const EVERY_TYPE_SURVEY: Survey = {
  id: "every-type",
  title: "Every question type",
  description: "",
  canSubscribeTo: false,
  sections: [],
  version: 1,
  pages: [
    {
      id: "p1",
      title: "All",
      conditions: [],
      questions: [
        { id: "h", type: "html", fieldName: "", title: "Read this." },
        { id: "t", type: "text", fieldName: "t", title: "Text", required: true },
        { id: "ta", type: "textarea", fieldName: "ta", title: "Long text" },
        { id: "n", type: "number", fieldName: "n", title: "Number", min: 0, max: 10 },
        { id: "d", type: "date", fieldName: "d", title: "Date" },
        { id: "ph", type: "phone", fieldName: "ph", title: "Phone" },
        { id: "e", type: "email", fieldName: "e", title: "E-mail" },
        {
          id: "s",
          type: "select",
          fieldName: "s",
          title: "Select",
          choices: [
            { value: "a", label: "A" },
            { value: "b", label: "B" },
          ],
        },
        {
          id: "r",
          type: "radio",
          fieldName: "r",
          title: "Radio",
          choices: [
            { value: "1", label: "One" },
            { value: "2", label: "Two" },
          ],
          visibleWhen: [{ fieldName: "s", action: "Equals", fieldValue: "b" }],
        },
        {
          id: "y",
          type: "yesno",
          fieldName: "y",
          title: "Yes or no",
          choices: [{ value: "yes", label: "Yes" }],
        },
        {
          id: "c",
          type: "checkbox",
          fieldName: "c",
          title: "Checkbox",
          choices: [
            { value: "x", label: "X" },
            { value: "z", label: "Z" },
          ],
        },
        {
          id: "cf",
          type: "checkbox",
          fieldName: "cf",
          title: "Checkbox with fields",
          choices: [
            { value: "p", label: "P", fieldName: "cf0" },
            { value: "q", label: "Q", fieldName: "cf1" },
          ],
        },
        { id: "sc", type: "scale", fieldName: "sc", title: "Scale", min: 1, max: 5 },
        {
          id: "scc",
          type: "scale",
          fieldName: "scc",
          title: "Scale of choices",
          choices: [
            { value: "0", label: "Never" },
            { value: "1", label: "Often" },
          ],
        },
        {
          id: "nc",
          type: "number",
          fieldName: "nc",
          title: "Number of choices",
          choices: [{ value: "7", label: "Seven" }],
        },
        {
          id: "tc",
          type: "text",
          fieldName: "tc",
          title: "Text with choices",
          choices: [{ value: "free", label: "Free" }],
        },
        { id: "ec", type: "select", fieldName: "ec", title: "Select without choices" },
        {
          id: "g",
          type: "group",
          fieldName: "g",
          title: "Group",
          fields: [
            { id: "g1", type: "text", fieldName: "street", title: "Street" },
            { id: "g2", type: "number", fieldName: "units", title: "Units" },
          ],
        },
      ],
    },
  ],
};

function inputFor(survey: Survey, answers: Answers): DeliveryDocumentInput {
  return {
    tenant: { id: "builtin-exports", name: "Every Format Clinic" },
    patient: {
      id: "6560a1b2c3d4e5f600000099",
      mrn: "MRN-99",
      firstName: "Rosa",
      lastName: "Díaz",
      dob: "1951-03-02",
      sex: "F",
    },
    survey: { id: survey.id, title: survey.title, version: survey.version, pages: survey.pages },
    result: { id: "6560a1b2c3d4e5f6000000ee", answers, submittedAt: "2026-11-20T15:04:05.000Z" },
    parties: {
      sendingApplication: "CORECARE",
      sendingFacility: "2.16.840.1.113883.3.9999",
      receivingApplication: "EHR",
      receivingFacility: "EHRHOSP",
    },
    controlId: "6560a1b2c3d4e5f6000000ef",
    createdAt: "2026-11-21T09:30:00.000Z",
  };
}

/** A CSV upload's header and row for the result: one column per answer path, the stored value as text. */
function csvOf(survey: Survey, answers: Answers): string {
  const columns = survey.pages.flatMap((page) => page.questions.flatMap((q) => answerPaths(q)));
  const cell = (value: unknown) =>
    value === undefined ? "" : typeof value === "string" ? value : JSON.stringify(value);
  return csvRow(columns) + csvRow(columns.map((column) => cell(getAnswer(answers, column))));
}

export interface BuiltinExport {
  case: string;
  hl7: string;
  cda: string;
  fhir: unknown;
  csv: string;
  /** Each answer's question and its words, as every export shows them. */
  summary: string[];
}

const CONTEXTS: Record<string, Omit<EvalContext, "answers">> = {
  default: { sex: "F", age: 70, tenant: { id: "demo" } },
  alternateFalls: { sex: "M", age: 80, tenant: { id: "alt", settings: { alternateFalls: true } } },
};

/** Every built-in survey (and one of every type), answered in each context and from each source. */
export function builtinExports(): BuiltinExport[] {
  const out: BuiltinExport[] = [];
  for (const survey of [...BUILTIN_SURVEYS, EVERY_TYPE_SURVEY]) {
    for (const [name, context] of Object.entries(CONTEXTS)) {
      for (const source of ["runner", "upload"] as const) {
        let answers: Answers = {};
        for (const page of survey.pages) answers = answerAll(page.questions, "", answers, source);
        answers = pruneHiddenAnswers(survey, { ...context, answers });
        const input = inputFor(survey, answers);
        out.push({
          case: `${survey.id} ${name} ${source}`,
          hl7: buildOruR01(input),
          cda: buildCda(input),
          fhir: buildFhirBundle(input),
          csv: csvOf(survey, answers),
          summary: answerItems(input.survey, answers).map(
            (item) => `${item.fieldName} [${item.kind}] ${item.title}: ${item.display.join("; ")}`,
          ),
        });
      }
    }
  }
  return out;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  writeFileSync(
    BUILTIN_EXPORTS_FILE,
    `[\n${builtinExports()
      .map((c) => JSON.stringify(c))
      .join(",\n")}\n]\n`,
  );
  console.log(`wrote ${BUILTIN_EXPORTS_FILE}`);
}
