import {
  ALCOHOL_SIX_OR_MORE_ANSWERS,
  ALCOHOL_TYPICAL_DAY_ANSWERS,
  LOINC,
  PHQ_DIFFICULTY_ANSWERS,
  PHQ_FREQUENCY_ANSWERS,
  type Coding,
  type LoincAnswer,
} from "./codes/loinc.js";
import { SMOKING_STATUS, YES_NO_UNKNOWN, type SnomedAnswer } from "./codes/snomed.js";

export type CodeSystem = "LN" | "SCT";

/** A coded answer value in a named code system. */
export interface CodedValue extends Coding {
  system: CodeSystem;
  score?: number;
}

/** How one survey field is coded: its question code and, where the standard has one, its answer list. */
export interface FieldCoding {
  question?: Coding;
  answers?: { system: CodeSystem; list: readonly (LoincAnswer | SnomedAnswer)[]; fallback?: SnomedAnswer };
}

const phqItem = (question: Coding): FieldCoding => ({
  question,
  answers: { system: "LN", list: PHQ_FREQUENCY_ANSWERS },
});
const yesNoUnknown = { system: "SCT", list: YES_NO_UNKNOWN } as const;

/**
 * The PHQ-9 items in questionnaire order, under the field names of the survey-engine's built-in
 * questionnaire (SPEC §3 names `phq9Hopeless`) and, second, the names hinted by the LOINC list.
 */
export const PHQ9_ITEMS: readonly { fields: readonly string[]; coding: Coding }[] = [
  { fields: ["depression.phq9LittleInterest"], coding: LOINC.phq9LittleInterest },
  { fields: ["depression.phq9Hopeless", "depression.phq9FeelingDown"], coding: LOINC.phq9FeelingDown },
  { fields: ["depression.phq9Sleep"], coding: LOINC.phq9Sleep },
  { fields: ["depression.phq9Tired"], coding: LOINC.phq9Tired },
  { fields: ["depression.phq9Appetite"], coding: LOINC.phq9Appetite },
  { fields: ["depression.phq9Failure", "depression.phq9FeelingBad"], coding: LOINC.phq9FeelingBad },
  {
    fields: ["depression.phq9Concentration", "depression.phq9Concentrating"],
    coding: LOINC.phq9Concentrating,
  },
  { fields: ["depression.phq9Movement", "depression.phq9MovingSlowly"], coding: LOINC.phq9MovingSlowly },
  { fields: ["depression.phq9SelfHarm"], coding: LOINC.phq9SelfHarm },
];

/** The PHQ-9 difficulty item: `depression.difficulty` in the built-in questionnaire. */
export const PHQ9_DIFFICULTY_FIELDS = ["depression.difficulty", "depression.phq9Difficulty"] as const;
export const SMOKING_STATUS_FIELD = "social.smokeYesNoQuit";
export const DIRECTIVE_FIELDS = ["directives.livingWill", "directives.poa", "directives.dnr"] as const;

const FIELD_CODINGS: Record<string, FieldCoding> = {
  ...Object.fromEntries(PHQ9_ITEMS.flatMap((item) => item.fields.map((f) => [f, phqItem(item.coding)]))),
  ...Object.fromEntries(
    PHQ9_DIFFICULTY_FIELDS.map((f) => [
      f,
      { question: LOINC.phq9Difficulty, answers: { system: "LN", list: PHQ_DIFFICULTY_ANSWERS } },
    ]),
  ),
  [SMOKING_STATUS_FIELD]: {
    question: LOINC.smokingStatus,
    answers: {
      system: "SCT",
      list: Object.values(SMOKING_STATUS),
      fallback: SMOKING_STATUS.currentUnknown,
    },
  },
  "social.drinksPerDay": {
    question: LOINC.alcoholTypicalDay,
    answers: { system: "LN", list: ALCOHOL_TYPICAL_DAY_ANSWERS },
  },
  "social.sixDrinks": {
    question: LOINC.alcoholSixOrMore,
    answers: { system: "LN", list: ALCOHOL_SIX_OR_MORE_ANSWERS },
  },
  "directives.livingWill": { answers: yesNoUnknown },
  "directives.poa": { answers: yesNoUnknown },
  "directives.dnr": { question: LOINC.dnrInPlace, answers: yesNoUnknown },
};

/** The coding of a field, or an empty coding when no confirmed code exists for it. */
export function fieldCoding(fieldName: string): FieldCoding {
  return FIELD_CODINGS[fieldName] ?? {};
}

const normalise = (v: unknown): unknown => (typeof v === "string" ? v.trim().toLowerCase() : v);

/** The coded form of an answer value, when the field has an answer list that contains it. */
export function codeAnswer(fieldName: string, value: unknown): CodedValue | undefined {
  const answers = fieldCoding(fieldName).answers;
  if (!answers || value === undefined || value === null || value === "") return undefined;
  const wanted = normalise(value);
  const hit = answers.list.find((a) => a.matches.some((m) => normalise(m) === wanted)) ?? answers.fallback;
  if (!hit) return undefined;
  const coded: CodedValue = { system: answers.system, code: hit.code, display: hit.display };
  const score: unknown = "score" in hit ? hit.score : undefined;
  if (typeof score === "number") coded.score = score;
  return coded;
}
