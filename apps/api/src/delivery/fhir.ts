import {
  describeQuestion,
  FHIR_ANSWER_KEYS,
  normalizeAction,
  questionPath,
  type Choice,
  type Condition,
} from "@core-care/survey-engine";
import { answerItems, phqScores, type AnswerItem, type AnswerValue } from "./answers.js";
import { codeAnswer, fieldCoding } from "./coding.js";
import { CORE_CARE_URN, SYSTEM_URI, type QuestionnaireItemType } from "./codes/fhir.js";
import { LOINC, LOINC_URI, type Coding } from "./codes/loinc.js";
import { mrnAuthority } from "./authority.js";
import type { DeliveryDocumentInput, DeliveryQuestion, DeliverySurvey } from "./types.js";

type Json = Record<string, unknown>;

const SCORE_ITEMS = { phq2: LOINC.phq2Total, phq9: LOINC.phq9Total } as const;

const loincCoding = (c: Coding) => ({ system: LOINC_URI, code: c.code, display: c.display });

/** A FHIR id: [A-Za-z0-9\-.]{1,64}. */
const fhirId = (text: string) => text.replace(/[^A-Za-z0-9\-.]/g, "-").slice(0, 64);

/** The Questionnaire item type of a question, from its definition alone: its type descriptor's. */
function itemType(q: DeliveryQuestion): QuestionnaireItemType | "display" {
  return describeQuestion(q).fhir.itemType(q);
}

/** The system of a survey's own choice codes: one per question, since values repeat across questions. */
const choiceSystem = (survey: DeliverySurvey, field: string) =>
  `${CORE_CARE_URN.survey(survey.id)}:choices:${field}`;

/**
 * The Coding of a choice, the same in the Questionnaire's answerOption and the response's answer: the
 * standard code when the field's confirmed answer list has the choice, else the survey's own value.
 */
function choiceCoding(survey: DeliverySurvey, field: string, value: string, label: string) {
  const coded = codeAnswer(field, value) ?? codeAnswer(field, label);
  if (coded) return { system: SYSTEM_URI[coded.system], code: coded.code, display: coded.display };
  return { system: choiceSystem(survey, field), code: value, display: label };
}

interface Target {
  question: DeliveryQuestion;
  path: string;
  /** A checkbox choice with a field of its own, when the condition names that field. */
  choice?: Choice;
}

/** Every question (and choice field) a condition may name, by path. */
function targets(survey: DeliverySurvey): Map<string, Target> {
  const found = new Map<string, Target>();
  const visit = (questions: readonly DeliveryQuestion[], prefix: string) => {
    for (const question of questions) {
      const path = questionPath(question, prefix);
      if (describeQuestion(question).answer === "fields") visit(question.fields ?? [], path);
      else found.set(path, { question, path });
      for (const choice of question.choices ?? []) {
        if (choice.fieldName !== undefined) {
          found.set(prefix ? `${prefix}.${choice.fieldName}` : choice.fieldName, { question, path, choice });
        }
      }
    }
  };
  for (const page of survey.pages) visit(page.questions, "");
  return found;
}

type EnableWhen = Json & { question: string; operator: string };

/**
 * A condition as FHIR enableWhen clauses: one, or several alternatives (`expanded`) that hold together
 * only under enableBehavior "any". Undefined when FHIR cannot say it (a global such as age or the
 * tenant, a field no question writes, an operator the item type has no counterpart for).
 */
function enableWhenOf(
  survey: DeliverySurvey,
  condition: Condition,
  all: Map<string, Target>,
): { clauses: EnableWhen[]; expanded: boolean } | undefined {
  const target = all.get(condition.fieldName);
  const action = normalizeAction(condition.action);
  if (target === undefined || action === undefined) return undefined;
  const { question, path } = target;
  const linkId = path;
  const coding = (c: Choice) => choiceCoding(survey, path, c.value, c.label);
  if (target.choice !== undefined) {
    // A choice's own field: it holds that choice's value when the choice is ticked.
    const ticked = { question: linkId, operator: "=", answerCoding: coding(target.choice) };
    if (action === "Has Response") return { clauses: [ticked], expanded: false };
    if (action === "Equals" && String(condition.fieldValue) === target.choice.value) {
      return { clauses: [ticked], expanded: false };
    }
    return undefined;
  }
  if (action === "Has Response") {
    return { clauses: [{ question: linkId, operator: "exists", answerBoolean: true }], expanded: false };
  }
  const type = itemType(question);
  const values =
    action === "One Of"
      ? Array.isArray(condition.fieldValue)
        ? condition.fieldValue
        : []
      : [condition.fieldValue];
  if (type === "choice") {
    const choices = question.choices ?? [];
    const pick = (test: (c: Choice) => boolean) => choices.filter(test);
    let chosen: Choice[];
    switch (action) {
      case "Equals":
      case "One Of":
        chosen = pick((c) => values.some((v) => String(v) === c.value));
        if (chosen.length !== values.length) return undefined;
        break;
      case "Not Equals": {
        const other = choices.find((c) => c.value === String(condition.fieldValue));
        if (other === undefined) return undefined;
        return {
          clauses: [{ question: linkId, operator: "!=", answerCoding: coding(other) }],
          expanded: false,
        };
      }
      case "Greater Than":
      case "Less Than": {
        // The engine compares numbers numerically: the choices whose values pass, any of them.
        const bound = Number(condition.fieldValue);
        if (!Number.isFinite(bound) || choices.some((c) => !Number.isFinite(Number(c.value))))
          return undefined;
        chosen = pick((c) => (action === "Greater Than" ? Number(c.value) > bound : Number(c.value) < bound));
        break;
      }
    }
    if (chosen.length === 0) return undefined;
    return {
      clauses: chosen.map((c) => ({ question: linkId, operator: "=", answerCoding: coding(c) })),
      expanded: chosen.length > 1,
    };
  }
  const answerKey = { integer: "answerInteger", decimal: "answerDecimal", date: "answerDate" }[
    type as "integer" | "decimal" | "date"
  ];
  const typed = (v: unknown): Json | undefined => {
    if (answerKey === undefined) return typeof v === "string" ? { answerString: v } : undefined;
    if (answerKey === "answerDate") return typeof v === "string" ? { answerDate: v } : undefined;
    const n = Number(v);
    if (!Number.isFinite(n) || (answerKey === "answerInteger" && !Number.isInteger(n))) return undefined;
    return { [answerKey]: n };
  };
  const operator = { Equals: "=", "Not Equals": "!=", "Greater Than": ">", "Less Than": "<", "One Of": "=" }[
    action
  ];
  if ((operator === ">" || operator === "<") && answerKey === undefined) return undefined;
  const clauses: EnableWhen[] = [];
  for (const v of values) {
    const answer = typed(v);
    if (answer === undefined) return undefined;
    clauses.push({ question: linkId, operator, ...answer });
  }
  return clauses.length === 0 ? undefined : { clauses, expanded: clauses.length > 1 };
}

/**
 * enableWhen and enableBehavior of a page's or question's conditions, when FHIR can say all of them;
 * otherwise none, so the item is always enabled and an answer to it never breaks conformance.
 */
function enableWhen(
  survey: DeliverySurvey,
  conditions: readonly Condition[] | undefined,
  all: Map<string, Target>,
): Json {
  if (conditions === undefined || conditions.length === 0) return {};
  const joins = new Set(conditions.slice(1).map((c) => c.joinType ?? "and"));
  if (joins.size > 1) return {};
  const behavior = joins.has("or") ? "any" : "all";
  const clauses: EnableWhen[] = [];
  for (const condition of conditions) {
    const found = enableWhenOf(survey, condition, all);
    if (found === undefined) return {};
    if (found.expanded && behavior === "all" && conditions.length > 1) return {};
    clauses.push(...found.clauses);
  }
  const anyOf = behavior === "any" || conditions.length === 1;
  return clauses.length > 1
    ? { enableWhen: clauses, enableBehavior: anyOf ? "any" : "all" }
    : { enableWhen: clauses };
}

/** True when every condition of the list is said by its enableWhen (or there is none). */
const expressed = (conditions: readonly Condition[] | undefined, conditional: Json) =>
  conditions === undefined || conditions.length === 0 || conditional.enableWhen !== undefined;

/**
 * A question's item. `exact` is false under a page or group whose conditions FHIR cannot say: such
 * an item is always enabled, so it is never marked required (the survey requires it only when shown).
 */
function questionnaireItem(
  survey: DeliverySurvey,
  q: DeliveryQuestion,
  prefix: string,
  all: Map<string, Target>,
  exact: boolean,
): Json | undefined {
  const linkId = questionPath(q, prefix);
  const type = itemType(q);
  const conditional = enableWhen(survey, q.visibleWhen, all);
  const alwaysExact = exact && expressed(q.visibleWhen, conditional);
  if (type === "display") {
    return { linkId: `${linkId || "display"}-${q.id}`, text: q.title, type, ...conditional };
  }
  if (type === "group") {
    const items = (q.fields ?? [])
      .map((f) => questionnaireItem(survey, f, linkId, all, alwaysExact))
      .filter((i) => i !== undefined);
    return items.length === 0 ? undefined : { linkId, text: q.title, type, ...conditional, item: items };
  }
  const question = fieldCoding(linkId).question;
  const item: Json = { linkId, text: q.title || linkId, type };
  if (question) item.code = [loincCoding(question)];
  Object.assign(item, conditional);
  if (q.required === true && alwaysExact) item.required = true;
  if (describeQuestion(q).fhir.repeats) item.repeats = true;
  if (type === "choice") {
    item.answerOption = (q.choices ?? []).map((c) => ({
      valueCoding: choiceCoding(survey, linkId, c.value, c.label),
    }));
  }
  return item;
}

const pageLinkId = (pageId: string) => `page-${pageId}`;

/**
 * The Questionnaire of a survey version: a group per page (enabled by the page's conditions), each
 * question an item of the type its answers take, groups of fields nested, static text as display
 * items, required and enableWhen where the survey says them; then the PHQ totals.
 */
export function buildQuestionnaire(input: DeliveryDocumentInput): Json {
  const { survey } = input;
  const all = targets(survey);
  const pages = survey.pages.flatMap((page) => {
    const conditional = enableWhen(survey, page.conditions, all);
    const exact = expressed(page.conditions, conditional);
    const items = page.questions
      .map((q) => questionnaireItem(survey, q, "", all, exact))
      .filter((i) => i !== undefined);
    if (items.length === 0) return [];
    return [
      {
        linkId: pageLinkId(page.id),
        text: page.title || survey.title,
        type: "group",
        ...conditional,
        item: items,
      },
    ];
  });
  return {
    resourceType: "Questionnaire",
    id: fhirId(`${survey.id}-${survey.version}`),
    url: CORE_CARE_URN.survey(survey.id),
    version: String(survey.version),
    title: survey.title,
    status: "active",
    subjectType: ["Patient"],
    item: [
      ...pages,
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

function answerOf(survey: DeliverySurvey, q: DeliveryQuestion, item: AnswerItem, v: AnswerValue): Json {
  const key = FHIR_ANSWER_KEYS[describeQuestion(q).fhir.itemType(q)];
  switch (key) {
    case "valueCoding":
      return { valueCoding: choiceCoding(survey, item.fieldName, v.value, v.label) };
    case "valueInteger":
    case "valueDecimal":
      return { [key]: v.number ?? Number(v.value) };
    case "valueDate":
    case "valueString":
      return { [key]: v.value };
  }
}

function responseItem(
  survey: DeliverySurvey,
  q: DeliveryQuestion,
  prefix: string,
  answered: Map<string, AnswerItem>,
): Json | undefined {
  const linkId = questionPath(q, prefix);
  const { answer } = describeQuestion(q);
  if (answer === "none") return undefined;
  if (answer === "fields") {
    const items = (q.fields ?? [])
      .map((f) => responseItem(survey, f, linkId, answered))
      .filter((i) => i !== undefined);
    return items.length === 0 ? undefined : { linkId, text: q.title, item: items };
  }
  const item = answered.get(linkId);
  if (item === undefined) return undefined;
  return { linkId, text: q.title || linkId, answer: item.values.map((v) => answerOf(survey, q, item, v)) };
}

/**
 * The QuestionnaireResponse of a survey result, shaped as its Questionnaire: page groups, nested
 * groups, one item per answered question with answers of the item's type. Display items are never
 * answered; answers that no question names are left out (they have no Questionnaire item).
 */
export function buildQuestionnaireResponse(input: DeliveryDocumentInput): Json {
  const authority = mrnAuthority(input);
  const { tenant, patient, survey, result } = input;
  const answered = new Map(
    answerItems(survey, result.answers)
      .filter((i) => i.inSurvey)
      .map((i) => [i.fieldName, i]),
  );
  const items: Json[] = survey.pages.flatMap((page) => {
    const inner = page.questions
      .map((q) => responseItem(survey, q, "", answered))
      .filter((i) => i !== undefined);
    return inner.length === 0
      ? []
      : [{ linkId: pageLinkId(page.id), text: page.title || survey.title, item: inner }];
  });
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
      // One authority per MRN, the same as HL7 PID-3.4 and the CDA patientRole id name (authority.ts).
      identifier: {
        system: authority.system,
        value: patient.mrn || patient.id,
        assigner: { display: authority.name },
      },
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
