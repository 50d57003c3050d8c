import { answerItems, leafQuestions, phqScores, type AnswerItem } from "./answers.js";
import { fieldCoding } from "./coding.js";
import { CORE_CARE_URN, SYSTEM_URI, type QuestionnaireItemType } from "./codes/fhir.js";
import { LOINC, LOINC_URI, type Coding } from "./codes/loinc.js";
import type { DeliveryDocumentInput, DeliveryQuestion } from "./types.js";

type Json = Record<string, unknown>;

const FIELD_TYPES: Record<string, QuestionnaireItemType> = {
  radio: "choice",
  radiogroup: "choice",
  yesno: "choice",
  scale: "integer",
  dropdown: "choice",
  select: "choice",
  checkbox: "choice",
  number: "decimal",
  range: "decimal",
  rating: "integer",
  textarea: "text",
  comment: "text",
  boolean: "boolean",
  date: "date",
};

const SCORE_ITEMS = { phq2: LOINC.phq2Total, phq9: LOINC.phq9Total } as const;

const loincCoding = (c: Coding) => ({ system: LOINC_URI, code: c.code, display: c.display });

/** A FHIR id: [A-Za-z0-9\-.]{1,64}. */
const fhirId = (text: string) => text.replace(/[^A-Za-z0-9\-.]/g, "-").slice(0, 64);

function questionnaireItem(q: DeliveryQuestion): Json {
  const type = q.choices && q.choices.length > 0 ? "choice" : (FIELD_TYPES[q.type] ?? "string");
  const question = fieldCoding(q.fieldName).question;
  const item: Json = { linkId: q.fieldName, text: q.title ?? q.fieldName, type };
  if (question) item.code = [loincCoding(question)];
  if (q.type === "checkbox") item.repeats = true;
  if (type === "choice") {
    item.answerOption = (q.choices ?? []).map((c) => ({
      valueCoding: { code: String(c.value), display: c.label ?? String(c.value) },
    }));
  }
  return item;
}

/** The Questionnaire of a survey version: one item per answerable question, plus PHQ totals. */
export function buildQuestionnaire(input: DeliveryDocumentInput): Json {
  const { survey } = input;
  return {
    resourceType: "Questionnaire",
    id: fhirId(`${survey.id}-${survey.version}`),
    url: CORE_CARE_URN.survey(survey.id),
    version: String(survey.version),
    title: survey.title,
    status: "active",
    subjectType: ["Patient"],
    item: [
      ...survey.pages.flatMap((p) => leafQuestions(p.questions)).map(questionnaireItem),
      ...Object.entries(SCORE_ITEMS).map(([linkId, code]) => ({
        linkId: `${linkId}Total`,
        code: [loincCoding(code)],
        text: code.display,
        type: "integer",
        readOnly: true,
      })),
    ],
  };
}

function answersOf(item: AnswerItem, question: DeliveryQuestion | undefined): Json[] {
  if (item.coded) {
    return [
      {
        valueCoding: {
          system: SYSTEM_URI[item.coded.system],
          code: item.coded.code,
          display: item.coded.display,
        },
      },
    ];
  }
  if (item.kind === "number" && item.number !== undefined) {
    return [question?.type === "rating" ? { valueInteger: item.number } : { valueDecimal: item.number }];
  }
  if (question?.choices && question.choices.length > 0) {
    return item.display.map((display) => {
      const choice = question.choices?.find((c) => (c.label ?? String(c.value)) === display);
      return { valueCoding: { code: choice ? String(choice.value) : display, display } };
    });
  }
  return item.display.map((valueString) => ({ valueString }));
}

/** The QuestionnaireResponse of a survey result; answers that no question names are left out. */
export function buildQuestionnaireResponse(input: DeliveryDocumentInput): Json {
  const { tenant, patient, survey, result } = input;
  const questions = new Map(
    survey.pages.flatMap((p) => leafQuestions(p.questions)).map((q) => [q.fieldName, q]),
  );
  const items = answerItems(survey, result.answers)
    .filter((i) => i.inSurvey)
    .map((i) => ({ linkId: i.fieldName, text: i.title, answer: answersOf(i, questions.get(i.fieldName)) }));
  const scores = phqScores(result.answers);
  for (const key of ["phq2", "phq9"] as const) {
    const score = scores[key];
    if (score !== undefined) {
      items.push({
        linkId: `${key}Total`,
        text: SCORE_ITEMS[key].display,
        answer: [{ valueInteger: score }],
      });
    }
  }
  return {
    resourceType: "QuestionnaireResponse",
    id: fhirId(result.id),
    identifier: { system: CORE_CARE_URN.result(tenant.id), value: result.id },
    questionnaire: `${CORE_CARE_URN.survey(survey.id)}|${survey.version}`,
    status: "completed",
    subject: {
      identifier: { system: CORE_CARE_URN.patient(tenant.id), value: patient.mrn || patient.id },
      display: `${patient.firstName} ${patient.lastName}`,
    },
    authored: new Date(result.submittedAt).toISOString(),
    item: items,
  };
}

/**
 * A FHIR R4 transaction Bundle carrying the Questionnaire of the survey version and the
 * QuestionnaireResponse. Both entries are PUTs to fixed ids, so a repeated delivery updates the
 * same resources instead of creating copies.
 */
export function buildFhirBundle(input: DeliveryDocumentInput): Json {
  const questionnaire = buildQuestionnaire(input);
  const response = buildQuestionnaireResponse(input);
  return {
    resourceType: "Bundle",
    id: fhirId(input.controlId),
    type: "transaction",
    timestamp: new Date(input.createdAt).toISOString(),
    entry: [questionnaire, response].map((resource) => ({
      resource,
      request: { method: "PUT", url: `${String(resource.resourceType)}/${String(resource.id)}` },
    })),
  };
}
