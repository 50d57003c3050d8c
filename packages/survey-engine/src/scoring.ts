import { getAnswer } from "./answers.js";
import type { Answers } from "./types.js";

/** PHQ item answers and their points (Kroenke, Spitzer & Williams 2001). */
export const PHQ_POINTS: Readonly<Record<string, number>> = {
  "not at all": 0,
  "several days": 1,
  "more than half the days": 2,
  "nearly every day": 3,
};

/** The two PHQ-2 screening items, then the seven further PHQ-9 items; item 9 is `phq9SelfHarm`. */
export const PHQ2_FIELDS = ["depression.phq9LittleInterest", "depression.phq9Hopeless"] as const;
export const PHQ9_FURTHER_FIELDS = [
  "depression.phq9Sleep",
  "depression.phq9Tired",
  "depression.phq9Appetite",
  "depression.phq9Failure",
  "depression.phq9Concentration",
  "depression.phq9Movement",
  "depression.phq9SelfHarm",
] as const;

/** PHQ-9 severity bands: 0-4, 5-9, 10-14, 15-19, 20-27. */
export type PhqSeverity = "none-minimal" | "mild" | "moderate" | "moderately severe" | "severe";

/** PHQ-2 and PHQ-9 totals. */
export interface PhqScore {
  /** Sum of the two screening items (0-6); unanswered items count 0. */
  phq2: number;
  /** PHQ-2 of 3 or more screens positive (Kroenke 2003). */
  phq2Positive: boolean;
  /** Sum of all nine items (0-27), or null when none of the further items was answered. */
  phq9: number | null;
  /** The PHQ-9 band, or null when `phq9` is null. */
  severity: PhqSeverity | null;
}

function points(answers: Answers, field: string): number | undefined {
  const value = getAnswer(answers, field);
  return typeof value === "string" ? PHQ_POINTS[value.toLowerCase()] : undefined;
}

function severityOf(total: number): PhqSeverity {
  if (total >= 20) return "severe";
  if (total >= 15) return "moderately severe";
  if (total >= 10) return "moderate";
  if (total >= 5) return "mild";
  return "none-minimal";
}

/** Scores the `depression.phq9*` answers. */
export function scorePhq(answers: Answers): PhqScore {
  const phq2 = PHQ2_FIELDS.reduce((sum, field) => sum + (points(answers, field) ?? 0), 0);
  const further = PHQ9_FURTHER_FIELDS.map((field) => points(answers, field));
  const asked = further.some((value) => value !== undefined);
  const phq9 = asked ? further.reduce<number>((sum, value) => sum + (value ?? 0), phq2) : null;
  return { phq2, phq2Positive: phq2 >= 3, phq9, severity: phq9 === null ? null : severityOf(phq9) };
}

/** The functional.* activities of daily living asked by the wellness questionnaire. */
export const FUNCTIONAL_ACTIVITIES = [
  "eating",
  "bedToChair",
  "bathroom",
  "phone",
  "driving",
  "meds",
  "money",
  "chores",
  "shopping",
  "stairs",
] as const;

/** STEADI "Stay Independent" items and their points; 4 or more means at risk (CDC STEADI, 2017). */
export const STEADI_POINTS: Readonly<Record<string, number>> = {
  "fallRisk.steadiFallen": 2,
  "fallRisk.steadiCane": 2,
  "fallRisk.steadiUnsteady": 1,
  "fallRisk.steadiFurniture": 1,
  "fallRisk.steadiWorried": 1,
  "fallRisk.steadiPushUp": 1,
  "fallRisk.steadiCurb": 1,
  "fallRisk.steadiToilet": 1,
  "fallRisk.steadiFeet": 1,
  "fallRisk.steadiMedsDizzy": 1,
  "fallRisk.steadiMedsMood": 1,
  "fallRisk.steadiSad": 1,
};

/** The default falls questions; a "yes" to any is a positive screen (STEADI's key questions). */
export const FALL_SCREEN_FIELDS = [
  "fallen.pastYear",
  "fallen.loseBalanceWhileStanding",
  "fallen.dizzy",
  "fallen.useCane",
  "fallen.unsteady",
] as const;

/** Answers of the advance directives questions. */
export type DirectiveStatus = "yes" | "no" | "unknown" | null;

/** The clinician's view of a submitted wellness questionnaire: data only, no display text. */
export interface AwvSummary {
  phq: PhqScore;
  /** PHQ-9 item 9 (thoughts of self-harm) answered above 'not at all': a safety alert. */
  phq9Item9Positive: boolean;
  fallRiskPositive: boolean;
  tobacco: {
    status: "never" | "former" | "current" | "unknown";
    packYears30: boolean;
    lungCancerScreeningPrompt: boolean;
  };
  alcohol: { frequency: string | null; drinksPerDay: number | null; binge: boolean };
  advanceDirectives: { livingWill: DirectiveStatus; poa: DirectiveStatus; dnr: DirectiveStatus };
  /** The functional.* activities the patient needs help with, always or sometimes. */
  functionalNeeds: string[];
}

function text(answers: Answers, field: string): string | null {
  const value = getAnswer(answers, field);
  return typeof value === "string" && value.trim() !== "" ? value : null;
}

function directive(answers: Answers, field: string): DirectiveStatus {
  const value = text(answers, field);
  return value === "yes" || value === "no" || value === "unknown" ? value : null;
}

// Fall risk: with STEADI "Stay Independent" answers (the alternate question set), a score of 4 or more;
// otherwise a "yes" to any default falls question, as with STEADI's three key questions (fallen in the
// past year, unsteady when standing or walking, worried about falling): one "yes" screens positive.
function fallRisk(answers: Answers): boolean {
  const steadi = Object.entries(STEADI_POINTS).filter(([field]) => text(answers, field) !== null);
  if (steadi.length > 0) {
    const score = steadi.reduce(
      (sum, [field, value]) => sum + (text(answers, field) === "yes" ? value : 0),
      0,
    );
    return score >= 4;
  }
  return FALL_SCREEN_FIELDS.some((field) => text(answers, field) === "yes");
}

// Tobacco: `social.smokeYesNoQuit` is 'never', 'quit' (more than 15 years ago), 'quitRecent' (within the
// last 15 years) or 'yes'. The lung cancer screening prompt follows USPSTF 2013 (a 30 pack-year history and
// smoking now or within the last 15 years; 2021 lowered it to 20, which the 30 pack-year question still
// satisfies) and holds unless `social.lungCancer` says a screening was done in the past year.
function tobacco(answers: Answers): AwvSummary["tobacco"] {
  const answer = text(answers, "social.smokeYesNoQuit");
  const status =
    answer === null
      ? "unknown"
      : answer === "never"
        ? "never"
        : answer.startsWith("quit")
          ? "former"
          : "current";
  const packYears30 = text(answers, "social.packYears") === "yes";
  const eligible = answer !== null && answer !== "never" && answer !== "quit" && packYears30;
  return {
    status,
    packYears30,
    lungCancerScreeningPrompt: eligible && text(answers, "social.lungCancer") !== "yes",
  };
}

// Alcohol (AUDIT-C items): frequency as answered, drinks per day as the lower bound of the chosen band
// (1, 3, 5, 7, 10), binge when six or more drinks on one occasion happens at all.
function alcohol(answers: Answers): AwvSummary["alcohol"] {
  const frequency = text(answers, "social.alcoholfrequency");
  const drinks = text(answers, "social.drinksPerDay");
  const six = text(answers, "social.sixDrinks");
  return {
    frequency,
    drinksPerDay: drinks === null || Number.isNaN(Number(drinks)) ? null : Number(drinks),
    binge: six !== null && six !== "never",
  };
}

/** Summarises a wellness questionnaire's answers for the clinician. */
export function summarizeAwv(answers: Answers): AwvSummary {
  const item9 = points(answers, "depression.phq9SelfHarm");
  return {
    phq: scorePhq(answers),
    phq9Item9Positive: item9 !== undefined && item9 > 0,
    fallRiskPositive: fallRisk(answers),
    tobacco: tobacco(answers),
    alcohol: alcohol(answers),
    advanceDirectives: {
      livingWill: directive(answers, "directives.livingWill"),
      poa: directive(answers, "directives.poa"),
      dnr: directive(answers, "directives.dnr"),
    },
    functionalNeeds: FUNCTIONAL_ACTIVITIES.filter((activity) => {
      const value = text(answers, `functional.${activity}`);
      return value === "1" || value === "2";
    }),
  };
}
