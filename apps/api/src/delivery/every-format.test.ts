import {
  answerEntries,
  BUILTIN_SURVEYS,
  hasChoiceFields,
  pruneHiddenAnswers,
  questionPath,
  setAnswer,
  type Answers,
  type EvalContext,
  type Question,
  type Survey,
} from "@core-care/survey-engine";
import { Hl7Message } from "@medplum/core";
import { describe, expect, test } from "vitest";
import { validateCda, validateFhir } from "../../test/peers/standards.js";
import { checkQuestionnaireResponse } from "../../test/peers/questionnaire.js";
import { buildCda } from "./cda.js";
import { codeAnswer } from "./coding.js";
import { buildFhirBundle, buildQuestionnaire, buildQuestionnaireResponse } from "./fhir.js";
import { buildOruR01 } from "./hl7-oru.js";
import type { DeliveryDocumentInput } from "./types.js";

/** An answer to every question, the way a runner stores it: last choice, every checkbox, typed values. */
function answerAll(questions: readonly Question[], prefix: string, answers: Answers): Answers {
  let next = answers;
  for (const q of questions) {
    const path = questionPath(q, prefix);
    const choices = (q.choices ?? []).filter((c) => c.value !== q.noneValue);
    switch (q.type) {
      case "group":
        next = answerAll(q.fields ?? [], path, next);
        break;
      case "html":
        break;
      case "checkbox":
        if (hasChoiceFields(q)) {
          for (const c of choices)
            next = setAnswer(next, questionPath({ ...q, fieldName: c.fieldName! }, prefix), c.value);
        } else {
          next = setAnswer(
            next,
            path,
            choices.map((c) => c.value),
          );
        }
        break;
      case "select":
      case "radio":
      case "yesno":
        next = setAnswer(next, path, q.choices?.at(-1)?.value);
        break;
      case "scale":
        next = setAnswer(next, path, String(q.max ?? 3));
        break;
      case "number":
        next = setAnswer(next, path, String((q.min ?? 0) + 1));
        break;
      case "date":
        next = setAnswer(next, path, "2026-01-15");
        break;
      case "textarea":
        next = setAnswer(next, path, "First line & <more>\nSecond | line ^ ~");
        break;
      case "phone":
        next = setAnswer(next, path, "5551234567");
        break;
      case "email":
        next = setAnswer(next, path, "pat@example.org");
        break;
      case "text":
        next = setAnswer(next, path, "Some text");
        break;
    }
  }
  return next;
}

const context: Omit<EvalContext, "answers"> = { sex: "F", age: 70, tenant: { id: "demo" } };

function fullAnswers(survey: Survey): Answers {
  let answers: Answers = {};
  for (const page of survey.pages) answers = answerAll(page.questions, "", answers);
  return pruneHiddenAnswers(survey, { ...context, answers });
}

function inputFor(survey: Survey, answers: Answers): DeliveryDocumentInput {
  return {
    tenant: {
      id: "every-format",
      name: "Every Format Clinic",
      address: { street: "1 Main St", city: "Springfield", state: "IL", zip: "62701" },
      phone: "217-555-0100",
    },
    patient: {
      id: "6560a1b2c3d4e5f600000099",
      mrn: "MRN-99",
      firstName: "Rosa",
      lastName: "Díaz",
      dob: "1951-03-02",
      sex: "F",
      phone: "217-555-0199",
      address: { street: "2 Oak Ave", city: "Springfield", state: "IL", zip: "62702" },
      race: "Filipino",
      ethnicity: "Hispanic or Latino",
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

/** [field, question, labels] as the staff result page shows them (it reads the same `answerEntries`). */
function expected(survey: Survey, answers: Answers) {
  return answerEntries(survey, answers).map((e) => ({
    field: e.field,
    question: e.question?.title ?? e.field,
    labels: e.values.map((v, i) => e.choices[i]?.label ?? String(v)),
  }));
}

const unescapeHl7 = (text: string) =>
  text.replace(
    /\\(F|S|T|R|E|X0A|X0D|\.br)\\/g,
    (_m, code: string) =>
      ({ F: "|", S: "^", T: "&", R: "~", E: "\\", X0A: "\n", X0D: "\r", ".br": "\n" })[code] ?? "",
  );

const SCORE_CODES = new Set(["55758-7", "44261-6"]);

function fromHl7(message: string, types: Map<string, string>) {
  const parsed = Hl7Message.parse(message);
  return parsed
    .getAllSegments("OBX")
    .filter((obx) => !SCORE_CODES.has(obx.getComponent(3, 1)))
    .map((obx) => {
      const id = obx.getField(3).components[0]!;
      const local = id[2] === "L" ? id : id.slice(3);
      const field = local[0]!;
      const type = obx.getField(2).toString();
      types.set(field, type);
      const labels = obx.getField(5).components.map((value) => {
        if (type === "CWE") return unescapeHl7(value[5] === "L" ? value[4]! : value[1]!);
        if (type === "DT")
          return `${value[0]!.slice(0, 4)}-${value[0]!.slice(4, 6)}-${value[0]!.slice(6, 8)}`;
        return unescapeHl7(value[0]!);
      });
      return { field, question: unescapeHl7(local[1]!), labels };
    });
}

const unescapeXml = (text: string) =>
  text
    .replaceAll("&lt;", "<")
    .replaceAll("&gt;", ">")
    .replaceAll("&quot;", '"')
    .replaceAll("&apos;", "'")
    .replaceAll("&amp;", "&");

function fromCda(xml: string) {
  const rows = [...xml.matchAll(/<tr ID="answer\d+">\s*<td>([^<]*)<\/td>\s*<td>([^<]*)<\/td>/g)];
  return rows.map((row) => ({ question: unescapeXml(row[1]!), answer: unescapeXml(row[2]!) }));
}

interface RItem {
  linkId: string;
  text?: string;
  answer?: Record<string, unknown>[];
  item?: RItem[];
}

function fromFhir(
  items: readonly RItem[] | undefined,
  into: { field: string; question: string; labels: string[] }[] = [],
) {
  for (const item of items ?? []) {
    if (item.answer && !item.linkId.endsWith("Total")) {
      into.push({
        field: item.linkId,
        question: item.text ?? "",
        labels: item.answer.map((a) => {
          if (a.valueCoding) return (a.valueCoding as { display: string }).display;
          const value = Object.entries(a).find(([k]) => k.startsWith("value"))?.[1];
          return String(value);
        }),
      });
    }
    fromFhir(item.item, into);
  }
  return into;
}

describe.each(BUILTIN_SURVEYS.map((s) => [s.title, s] as const))("every format of %s", (_title, survey) => {
  const answers = fullAnswers(survey);
  const input = inputFor(survey, answers);
  const want = expected(survey, answers);

  test("the answers cover every kind of question, checkbox groups included", () => {
    expect(want.length).toBeGreaterThan(5);
    expect(want.some((w) => w.labels.length > 1)).toBe(true);
  });

  test("HL7 carries every answer under its question, with its label, typed by the question", () => {
    const types = new Map<string, string>();
    expect(fromHl7(buildOruR01(input), types)).toEqual(want);
    const questions = new Map(answerEntries(survey, answers).map((e) => [e.field, e.question?.type]));
    for (const [field, type] of types) {
      const byType: Record<string, string> = {
        radio: "CWE",
        select: "CWE",
        yesno: "CWE",
        checkbox: "CWE",
        scale: "NM",
        number: "NM",
        date: "DT",
        textarea: "FT",
      };
      const expectedType = byType[questions.get(field) ?? ""];
      expect(type, field).toBe(expectedType ?? "ST");
    }
  });

  test("CDA carries every answer under its question, with its label, and validates", async () => {
    const cda = buildCda(input);
    expect(fromCda(cda)).toEqual(want.map((w) => ({ question: w.question, answer: w.labels.join("; ") })));
    const result = await validateCda(cda);
    expect(result.errors).toBe("");
  });

  test("FHIR carries every answer under its question, with its label, and conforms to its Questionnaire", () => {
    const response = buildQuestionnaireResponse(input) as { item: RItem[] };
    // A LOINC or SNOMED CT coding shows its code system's display, as FHIR requires; other choices their label.
    const entries = answerEntries(survey, answers);
    const standard = want.map((w, n) => ({
      ...w,
      labels: w.labels.map((label, i) => {
        const value = entries[n]!.values[i];
        return (codeAnswer(w.field, value) ?? codeAnswer(w.field, label))?.display ?? label;
      }),
    }));
    expect(fromFhir(response.item)).toEqual(standard);
    const questionnaire = buildQuestionnaire(input);
    expect(checkQuestionnaireResponse(questionnaire, response)).toEqual([]);
    expect(validateFhir(buildFhirBundle(input))).toEqual({ valid: true, errors: "" });
  });

  test("the Questionnaire carries required and enableWhen, and never answers a display item", () => {
    const text = JSON.stringify(buildQuestionnaire(input));
    expect(text).toContain('"required":true');
    if (survey.pages.some((p) => p.conditions.length > 0 || p.questions.some((q) => q.visibleWhen))) {
      expect(text).toContain('"enableWhen"');
    }
  });
});

describe("checkQuestionnaireResponse", () => {
  const survey = BUILTIN_SURVEYS[0]!;
  const input = inputFor(survey, fullAnswers(survey));
  const questionnaire = buildQuestionnaire(input);

  test.each([
    [
      "a flat item that the Questionnaire nests",
      (r: { item: RItem[] }) => ({
        ...r,
        item: [{ linkId: r.item[0]!.item![0]!.linkId, answer: [{ valueString: "x" }] }],
      }),
    ],
    [
      "a string answer to a choice item",
      (r: { item: RItem[] }) => ({
        ...r,
        item: [{ ...r.item[0]!, item: [{ ...r.item[0]!.item![0]!, answer: [{ valueString: "x" }] }] }],
      }),
    ],
    [
      "a code that is no answerOption",
      (r: { item: RItem[] }) => ({
        ...r,
        item: [
          {
            ...r.item[0]!,
            item: [
              { ...r.item[0]!.item![0]!, answer: [{ valueCoding: { system: "urn:x", code: "superb" } }] },
            ],
          },
        ],
      }),
    ],
  ])("finds %s", (_name, spoil) => {
    const response = buildQuestionnaireResponse(input) as { item: RItem[] };
    expect(checkQuestionnaireResponse(questionnaire, spoil(response))).not.toEqual([]);
  });
});
