/**
 * Checks a FHIR R4 QuestionnaireResponse against its Questionnaire, as a receiver's validator would
 * (R4 §12.2.3 QuestionnaireResponse: "the response must conform to the Questionnaire"), written apart
 * from the builders: every item's linkId is a Questionnaire item at the same place in the nesting;
 * group items hold items and no answer; display items are never answered; answers have the value
 * type of the item's type; a choice answer is one of the item's answerOptions (system and code); an
 * item that does not repeat has one answer; an item whose enableWhen does not hold is absent; a
 * required item that is enabled is present (for a completed response). Returns the problems found.
 */

interface QItem {
  linkId: string;
  type: string;
  text?: string;
  required?: boolean;
  repeats?: boolean;
  readOnly?: boolean;
  item?: QItem[];
  answerOption?: { valueCoding?: { system?: string; code?: string } }[];
  enableWhen?: ({ question: string; operator: string } & Record<string, unknown>)[];
  enableBehavior?: "all" | "any";
}

interface RItem {
  linkId: string;
  text?: string;
  answer?: Record<string, unknown>[];
  item?: RItem[];
}

const VALUE_KEY: Record<string, string> = {
  boolean: "valueBoolean",
  decimal: "valueDecimal",
  integer: "valueInteger",
  date: "valueDate",
  dateTime: "valueDateTime",
  time: "valueTime",
  string: "valueString",
  text: "valueString",
  url: "valueUri",
  choice: "valueCoding",
  "open-choice": "valueCoding",
  quantity: "valueQuantity",
};

function answersByLinkId(
  items: readonly RItem[] | undefined,
  into = new Map<string, Record<string, unknown>[]>(),
) {
  for (const item of items ?? []) {
    if (item.answer) into.set(item.linkId, item.answer);
    answersByLinkId(item.item, into);
  }
  return into;
}

function valueOf(answer: Record<string, unknown>): unknown {
  const key = Object.keys(answer).find((k) => k.startsWith("value"));
  return key === undefined ? undefined : answer[key];
}

function sameValue(a: unknown, b: unknown): boolean {
  if (a !== null && typeof a === "object" && b !== null && typeof b === "object") {
    const x = a as { system?: string; code?: string };
    const y = b as { system?: string; code?: string };
    return x.system === y.system && x.code === y.code;
  }
  return a === b;
}

function holds(
  clause: NonNullable<QItem["enableWhen"]>[number],
  answers: Map<string, Record<string, unknown>[]>,
): boolean {
  const given = (answers.get(clause.question) ?? []).map(valueOf);
  const key = Object.keys(clause).find((k) => k.startsWith("answer"));
  const expected = key === undefined ? undefined : clause[key];
  switch (clause.operator) {
    case "exists":
      return given.length > 0 === expected;
    case "=":
      return given.some((v) => sameValue(v, expected));
    case "!=":
      return given.length === 0 || given.some((v) => !sameValue(v, expected));
    case ">":
      return given.some((v) => Number(v) > Number(expected));
    case "<":
      return given.some((v) => Number(v) < Number(expected));
    case ">=":
      return given.some((v) => Number(v) >= Number(expected));
    case "<=":
      return given.some((v) => Number(v) <= Number(expected));
    default:
      throw new Error(`unknown enableWhen operator ${clause.operator}`);
  }
}

function enabled(item: QItem, answers: Map<string, Record<string, unknown>[]>): boolean {
  if (!item.enableWhen || item.enableWhen.length === 0) return true;
  const results = item.enableWhen.map((c) => holds(c, answers));
  return item.enableBehavior === "any" ? results.some(Boolean) : results.every(Boolean);
}

function checkValue(item: QItem, answer: Record<string, unknown>, where: string, problems: string[]) {
  const keys = Object.keys(answer).filter((k) => k.startsWith("value"));
  const wanted = VALUE_KEY[item.type];
  if (wanted === undefined || keys.length !== 1 || keys[0] !== wanted) {
    problems.push(`${where}: answer ${keys.join(",")} for an item of type ${item.type}`);
    return;
  }
  const value = answer[wanted];
  if (item.type === "integer" && !Number.isInteger(value))
    problems.push(`${where}: ${String(value)} is no integer`);
  if (item.type === "decimal" && typeof value !== "number")
    problems.push(`${where}: ${String(value)} is no decimal`);
  if (item.type === "date" && !(typeof value === "string" && /^\d{4}(-\d{2}(-\d{2})?)?$/.test(value))) {
    problems.push(`${where}: ${String(value)} is no date`);
  }
  if (item.type === "choice") {
    const coding = value as { system?: string; code?: string };
    const allowed = (item.answerOption ?? []).some(
      (o) => o.valueCoding?.system === coding.system && o.valueCoding?.code === coding.code,
    );
    if (!allowed) problems.push(`${where}: ${coding.system ?? ""}|${coding.code ?? ""} is no answerOption`);
  }
}

function checkLevel(
  qItems: readonly QItem[],
  rItems: readonly RItem[],
  answers: Map<string, Record<string, unknown>[]>,
  path: string,
  problems: string[],
) {
  const byLinkId = new Map(qItems.map((q) => [q.linkId, q]));
  for (const r of rItems) {
    const where = `${path}/${r.linkId}`;
    const q = byLinkId.get(r.linkId);
    if (q === undefined) {
      problems.push(`${where}: no Questionnaire item at this place`);
      continue;
    }
    if (q.text !== undefined && r.text !== undefined && q.text !== r.text) {
      problems.push(`${where}: text "${r.text}" is not the item's "${q.text}"`);
    }
    if (!enabled(q, answers)) problems.push(`${where}: present though its enableWhen does not hold`);
    if (q.type === "display") {
      problems.push(`${where}: a display item is answered`);
      continue;
    }
    if (q.type === "group") {
      if (r.answer) problems.push(`${where}: a group has answers`);
      if (!r.item || r.item.length === 0) problems.push(`${where}: an empty group`);
      checkLevel(q.item ?? [], r.item ?? [], answers, where, problems);
      continue;
    }
    if (r.item) problems.push(`${where}: a question item holds items`);
    if (!r.answer || r.answer.length === 0) problems.push(`${where}: an item without answer`);
    if (!q.repeats && (r.answer?.length ?? 0) > 1)
      problems.push(`${where}: several answers to an item that does not repeat`);
    for (const a of r.answer ?? []) checkValue(q, a, where, problems);
  }
  const present = new Set(rItems.map((r) => r.linkId));
  for (const q of qItems) {
    if (present.has(q.linkId) || !enabled(q, answers)) continue;
    if (q.required) problems.push(`${path}/${q.linkId}: required, enabled and missing`);
    else if (q.type === "group") checkLevel(q.item ?? [], [], answers, `${path}/${q.linkId}`, problems);
  }
}

/** The problems of `response` against `questionnaire`; empty when it conforms. */
export function checkQuestionnaireResponse(
  questionnaire: { item?: QItem[] },
  response: { status?: string; item?: RItem[] },
): string[] {
  const problems: string[] = [];
  const linkIds = new Set<string>();
  const visit = (items: readonly QItem[] | undefined) => {
    for (const item of items ?? []) {
      if (linkIds.has(item.linkId)) problems.push(`Questionnaire: linkId ${item.linkId} twice`);
      linkIds.add(item.linkId);
      if (item.type === "group" && (item.item ?? []).length === 0)
        problems.push(`Questionnaire: empty group ${item.linkId}`);
      if (item.type === "display" && item.required)
        problems.push(`Questionnaire: required display ${item.linkId}`);
      for (const clause of item.enableWhen ?? []) {
        if (
          !linkIds.has(clause.question) &&
          !JSON.stringify(questionnaire).includes(`"linkId":"${clause.question}"`)
        ) {
          problems.push(`Questionnaire: ${item.linkId} enableWhen names unknown ${clause.question}`);
        }
      }
      visit(item.item);
    }
  };
  visit(questionnaire.item);
  const answers = answersByLinkId(response.item);
  checkLevel(questionnaire.item ?? [], response.item ?? [], answers, "", problems);
  return problems;
}
