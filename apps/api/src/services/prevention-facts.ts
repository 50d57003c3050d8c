import {
  CORE_CARE_WELLNESS_EXAM_ID,
  getAnswer,
  scorePhq,
  STEADI_POINTS,
  FALL_SCREEN_FIELDS,
  TELE_AWV_SURVEY_ID,
  WELCOME_TO_MEDICARE_EXAM_ID,
} from "@core-care/survey-engine";
import type { HistoryKey, PreventionFacts, RiskFlag, SmokingStatus, VaccineKey } from "@core-care/prevention";

/**
 * From a result's answers and its patient's record to the facts of the prevention plan
 * (@core-care/prevention). Only what an answer says is taken: an answer that leaves a fact open (a
 * screening "in the last year" of an unnamed kind, "less than 30 pack-years") leaves the fact out, and
 * the fact is named in `unknown` so that the plan asks for it at the visit rather than guessing.
 *
 * The field names are those of the built-in questionnaires (packages/survey-engine/src/surveys): the
 * Tele-AWV, the Core Care Wellness Exam and the Welcome to Medicare Exam. A practice's own survey that
 * uses the same names is read the same way.
 */

/** The patient's record as the plan needs it. */
export interface PlanPatient {
  /** `YYYY-MM-DD`. */
  dob: string;
  sex: "F" | "M" | "U";
}

/** A fact the plan reads and the answers did not give: its path in the facts, and what to ask. */
export interface UnknownFact {
  fact: string;
  ask: string;
}

export interface FactsFromAnswers {
  facts: PreventionFacts;
  /** The facts left unknown, to be asked at the visit. */
  unknown: UnknownFact[];
  /** The answer fields each fact came from (`smoking.status` from `social.smokeYesNoQuit`). */
  from: Record<string, string[]>;
}

/** Screening and assessment records the plan reads, with the words for asking about each. */
export const HISTORY_ASKS: Readonly<Partial<Record<HistoryKey, string>>> = {
  colonoscopy: "the date of the last colonoscopy",
  stoolTest: "the date of the last stool test (FIT)",
  mammogram: "the date of the last mammogram",
  papTest: "the date of the last Pap or HPV test",
  lungCt: "the date of the last low-dose lung CT",
  boneDensity: "the date of the last bone density scan",
  aaaUltrasound: "whether an aortic (AAA) ultrasound was ever done",
  hepatitisCTest: "whether a hepatitis C test was ever done",
  hivTest: "whether an HIV test was ever done",
  diabetesTest: "the date of the last blood sugar test (glucose or HbA1c)",
  bloodPressure: "the last blood pressure reading",
  lipidPanel: "the date of the last cholesterol test",
  cognitiveAssessment: "a memory or thinking check (the questionnaire asks none)",
};

/** Vaccines the plan reads, with the words for asking about each. */
export const VACCINE_ASKS: Readonly<Record<VaccineKey, string>> = {
  influenza: "this season's flu shot",
  pneumococcal: "pneumococcal vaccines, with the product (PCV20, PCV21, PPSV23) and year",
  zoster: "shingles vaccine doses (Shingrix) and their dates",
  tdTdap: "the year of the last tetanus shot (Td or Tdap)",
  rsv: "whether an RSV vaccine was ever given",
  covid19: "the date of the last COVID-19 vaccine",
  hepatitisB: "hepatitis B vaccine doses",
};

const text = (answers: unknown, field: string): string | undefined => {
  const value = getAnswer(answers, field);
  if (typeof value === "string" && value.trim() !== "") return value.trim();
  if (typeof value === "number" && Number.isFinite(value)) return String(value);
  return undefined;
};

/** A date answer: `YYYY-MM-DD` (or the leading date of a timestamp); undefined otherwise. */
const dateAnswer = (answers: unknown, field: string): string | undefined => {
  const value = text(answers, field);
  const match = value === undefined ? null : /^(\d{4}-\d{2}-\d{2})/.exec(value);
  return match?.[1];
};

/** The values checked in a checkbox question stored as `field0`, `field1`, ... or as an array. */
function checked(answers: unknown, field: string): string[] {
  const whole = getAnswer(answers, field);
  if (Array.isArray(whole)) return whole.filter((v): v is string => typeof v === "string");
  const values: string[] = [];
  const dot = field.lastIndexOf(".");
  const parent = dot === -1 ? answers : getAnswer(answers, field.slice(0, dot));
  const name = field.slice(dot + 1);
  if (parent === null || typeof parent !== "object") return values;
  for (const [key, value] of Object.entries(parent as Record<string, unknown>))
    if (key.startsWith(name) && /^\d+$/.test(key.slice(name.length)) && typeof value === "string")
      values.push(value);
  return values;
}

// AUDIT-C (Bush et al. 1998): the three items' points, as the Tele-AWV's choices are stored.
const AUDIT_FREQUENCY: Readonly<Record<string, number>> = {
  never: 0,
  monthly: 1,
  "2-4month": 2,
  "2-3week": 3,
  "4week": 4,
};
const AUDIT_DRINKS: Readonly<Record<string, number>> = { "1": 0, "3": 1, "5": 2, "7": 3, "10": 4 };
const AUDIT_SIX: Readonly<Record<string, number>> = {
  never: 0,
  lessMonthly: 1,
  monthly: 2,
  weekly: 3,
  daily: 4,
};

// The Tele-AWV's exercise bands, as the least minutes a week each allows, where that decides the plan's
// 150-minute line: 30-60 minutes a day is 210 or more; under an hour a week, 1-2 hours and 3-4 hours are
// under 150 (their upper bounds). "0-30 minutes a day" (0 to 210) does not decide it and is asked.
const EXERCISE_MINUTES: Readonly<Record<string, number>> = { "60": 210, "1": 0, "2": 60, "4": 180 };

const HEARING_CONCERN_FIELDS = ["hearing.restaurant", "hearing.mumbling", "hearing.repeat", "hearing.phone"];

/** The day part of an ISO timestamp. */
export const dayOf = (iso: string): string => iso.slice(0, 10);

/**
 * The prevention facts of one result: the patient's birth date and sex from the record, the rest from
 * the answers. `asOf` is the plan's date (the day the result was last saved).
 */
export function factsFromAnswers(answers: unknown, patient: PlanPatient, asOf: string): FactsFromAnswers {
  const from: Record<string, string[]> = {};
  const note = (fact: string, ...fields: string[]) => {
    from[fact] = [...(from[fact] ?? []), ...fields];
  };
  const history: Partial<Record<HistoryKey, string>> = {};
  const vaccines: Partial<Record<VaccineKey, string>> = {};
  const flags = new Set<RiskFlag>();
  const measures: NonNullable<PreventionFacts["measures"]> = {};
  const unknown: UnknownFact[] = [];
  const ask = (fact: string, words: string) => unknown.push({ fact, ask: words });

  const facts: PreventionFacts = {
    asOf,
    birthDate: patient.dob,
    sex: patient.sex === "F" ? "female" : patient.sex === "M" ? "male" : "unknown",
  };
  if (patient.sex === "U") ask("sex", "the sex the screening criteria name (the record says unknown)");

  // Tobacco (Tele-AWV, SPEC 3): the status, a yes/no to 30 pack-years, 100 cigarettes, a CT in 12 months.
  const status = text(answers, "social.smokeYesNoQuit");
  if (status !== undefined) {
    const smoking: NonNullable<PreventionFacts["smoking"]> = {
      status: ((): SmokingStatus => {
        if (status === "never") return "never";
        if (status === "quit" || status === "quitRecent") return "former";
        return "current";
      })(),
    };
    note("smoking.status", "social.smokeYesNoQuit");
    // "I quit more than 15 years ago": 15 whole years or more, enough for the lung row's "below 15".
    if (status === "quit") {
      smoking.yearsSinceQuit = 15;
      note("smoking.yearsSinceQuit", "social.smokeYesNoQuit");
    } else if (status === "quitRecent")
      ask("smoking.quitDate", "the year the patient quit smoking (within the last 15 years, not which)");
    const packYears = text(answers, "social.packYears");
    if (packYears === "yes") {
      // "30 pack-years or more": 30 is the least it can be.
      smoking.packYears = 30;
      note("smoking.packYears", "social.packYears");
    } else if (smoking.status !== "never")
      ask(
        "smoking.packYears",
        packYears === "no"
          ? "pack-years smoked (under 30 by the questionnaire; 20 or more qualifies for lung CT)"
          : "pack-years smoked",
      );
    const smoke100 = text(answers, "social.smoke100");
    if (smoke100 === "yes" || smoke100 === "no") {
      smoking.smoked100 = smoke100 === "yes";
      note("smoking.smoked100", "social.smoke100");
    }
    facts.smoking = smoking;
    // "No CT in the last 12 months": whenever the last was, a yearly CT is due now.
    const lungCt = text(answers, "social.lungCancer");
    if (lungCt === "no") {
      history.lungCt = "unknown";
      note("history.lungCt", "social.lungCancer");
    }
  } else ask("smoking.status", "whether the patient smokes or has smoked, and pack-years");

  // Alcohol: the AUDIT-C total when the three items are answered (frequency "never" scores 0 alone).
  const frequency = text(answers, "social.alcoholfrequency");
  if (frequency !== undefined && frequency in AUDIT_FREQUENCY) {
    const drinks = text(answers, "social.drinksPerDay");
    const six = text(answers, "social.sixDrinks");
    if (frequency === "never" || (drinks !== undefined && six !== undefined)) {
      measures.auditC =
        (AUDIT_FREQUENCY[frequency] ?? 0) +
        (frequency === "never" ? 0 : (AUDIT_DRINKS[drinks ?? ""] ?? 0) + (AUDIT_SIX[six ?? ""] ?? 0));
      history.alcoholScreen = asOf;
      note("measures.auditC", "social.alcoholfrequency", "social.drinksPerDay", "social.sixDrinks");
    }
  }

  // Depression: the PHQ-2 (and PHQ-9 when its further items showed) done with this questionnaire.
  if (text(answers, "depression.phq9LittleInterest") !== undefined) {
    const phq = scorePhq(answers as Record<string, unknown>);
    measures.phq2 = phq.phq2;
    if (phq.phq9 !== null) measures.phq9 = phq.phq9;
    const item9 = text(answers, "depression.phq9SelfHarm");
    if (item9 !== undefined) {
      const points = ["not at all", "several days", "more than half the days", "nearly every day"].indexOf(
        item9.toLowerCase(),
      );
      if (points >= 0) measures.phq9Item9 = points;
    }
    history.depressionScreen = asOf;
    note("measures.phq2", "depression.phq9LittleInterest", "depression.phq9Hopeless");
  }

  // Falls: the STEADI checklist where the practice asks it, otherwise the default questions.
  const steadiAnswered = Object.keys(STEADI_POINTS).filter((field) => text(answers, field) !== undefined);
  if (steadiAnswered.length > 0) {
    measures.steadi = steadiAnswered.reduce(
      (sum, field) => sum + (text(answers, field) === "yes" ? (STEADI_POINTS[field] ?? 0) : 0),
      0,
    );
    const fallen = text(answers, "fallRisk.steadiFallen");
    if (fallen === "yes") flags.add("falls-risk");
    history.fallsAssessment = asOf;
    note("measures.steadi", ...steadiAnswered);
  } else {
    const answered = FALL_SCREEN_FIELDS.filter((field) => text(answers, field) !== undefined);
    if (answered.length > 0) {
      if (answered.some((field) => text(answers, field) === "yes")) flags.add("falls-risk");
      if (text(answers, "fallen.pastYear") === "no") measures.fallsPastYear = 0;
      history.fallsAssessment = asOf;
      note("flags.falls-risk", ...answered);
    }
  }

  // Hearing: trouble in a crowd, mumbling, asking to repeat or on the phone, yes or sometimes (Tele-AWV);
  // some or a lot of trouble (Welcome to Medicare).
  const hearingAnswered = HEARING_CONCERN_FIELDS.filter((field) => text(answers, field) !== undefined);
  const wtmHearing = text(answers, "screening.hearing");
  if (hearingAnswered.length > 0 || wtmHearing !== undefined) {
    if (
      hearingAnswered.some((field) => ["yes", "sometimes"].includes(text(answers, field) ?? "")) ||
      wtmHearing === "some" ||
      wtmHearing === "a lot"
    )
      flags.add("hearing-concern");
    history.hearingAssessment = asOf;
    note("history.hearingAssessment", ...hearingAnswered, ...(wtmHearing ? ["screening.hearing"] : []));
  }

  // Home safety (Tele-AWV): no working smoke detectors, trip hazards, no grab bars, not feeling safe.
  const unsafe = [
    text(answers, "social.smokeDetectors") === "no",
    text(answers, "social.tripHazards") === "yes",
    text(answers, "social.grabBars") === "no",
    text(answers, "social.feelSafe") === "no",
  ];
  if (unsafe.some(Boolean)) {
    flags.add("home-safety-concern");
    note("flags.home-safety-concern", "social.smokeDetectors", "social.tripHazards", "social.grabBars");
  }

  // Activity (Tele-AWV): no regular exercise is under 150 minutes a week; the bands as above.
  const exercise = text(answers, "social.exerciseYesNo");
  if (exercise === "no") {
    measures.activityMinutesPerWeek = 0;
    note("measures.activityMinutesPerWeek", "social.exerciseYesNo");
  } else if (exercise === "yes") {
    const band = text(answers, "social.exerciseFrequency");
    const minutes = band === undefined ? undefined : EXERCISE_MINUTES[band];
    if (minutes !== undefined) {
      measures.activityMinutesPerWeek = minutes;
      note("measures.activityMinutesPerWeek", "social.exerciseFrequency");
    } else ask("measures.activityMinutesPerWeek", "minutes of moderate activity in a usual week");
  }

  // Advance directives: the patient says they have a living will or a health care power of attorney.
  if (text(answers, "directives.livingWill") === "yes" || text(answers, "directives.poa") === "yes") {
    flags.add("advance-directive-on-file");
    note("flags.advance-directive-on-file", "directives.livingWill", "directives.poa");
  }

  // Conditions (Welcome to Medicare): the ones a row reads.
  const conditions = checked(answers, "history.conditions");
  for (const [value, flag] of [
    ["hypertension", "hypertension"],
    ["diabetes", "diabetes"],
    ["heart", "cardiovascular-disease"],
    ["copd", "rsv-risk"],
  ] as const)
    if (conditions.includes(value)) {
      flags.add(flag);
      note(`flags.${flag}`, "history.conditions");
    }
  // Chronic lung disease is also an ACIP pneumococcal risk condition before 50.
  if (conditions.includes("copd")) flags.add("pneumococcal-risk");
  if (conditions.includes("heart")) flags.add("rsv-risk");

  // Colorectal screening (Wellness Exam): "never" is never for every test; "more than 10 years ago" is
  // past every test's interval whatever the test was. The other bands depend on the test, so are asked.
  const colon = text(answers, "prevention.colonScreening");
  if (colon === "never") {
    history.colonoscopy = "never";
    history.stoolTest = "never";
    note("history.colonoscopy", "prevention.colonScreening");
  } else if (colon !== undefined && colon !== "over10")
    ask("history.colonoscopy", "which colorectal screening test was done, and when");

  // Mammogram (Wellness Exam): the date, as answered.
  const mammogram = dateAnswer(answers, "womensHealth.lastMammogram");
  if (mammogram !== undefined && mammogram <= asOf) {
    history.mammogram = mammogram;
    note("history.mammogram", "womensHealth.lastMammogram");
  }
  // "No Pap test in the last 3 years": whenever the last was, the 3-yearly test is due now.
  if (text(answers, "womensHealth.papSmear") === "no") {
    history.papTest = "unknown";
    note("history.papTest", "womensHealth.papSmear");
  }

  // Flu shot this season (Wellness Exam): yes is a dose in the current month or before it this season;
  // the month is not asked, so "yes" is left for the visit; "no" means this season's dose is due.
  const flu = text(answers, "prevention.fluShot");
  if (flu === "no") {
    vaccines.influenza = "unknown";
    note("vaccines.influenza", "prevention.fluShot");
  } else if (flu === "yes") ask("vaccines.influenza", "the month of this season's flu shot");

  // Whatever a row reads that is still unknown is asked at the visit.
  for (const [key, words] of Object.entries(HISTORY_ASKS) as [HistoryKey, string][])
    if (history[key] === undefined && !unknown.some((u) => u.fact === `history.${key}`))
      ask(`history.${key}`, words);
  for (const [key, words] of Object.entries(VACCINE_ASKS) as [VaccineKey, string][])
    if (vaccines[key] === undefined && !unknown.some((u) => u.fact === `vaccines.${key}`))
      ask(`vaccines.${key}`, words);
  if (measures.bmi === undefined) ask("measures.bmi", "height and weight (BMI)");

  if (Object.keys(history).length > 0) facts.history = history;
  if (Object.keys(vaccines).length > 0) facts.vaccines = vaccines;
  if (flags.size > 0) facts.flags = [...flags];
  if (Object.keys(measures).length > 0) facts.measures = measures;
  return { facts, unknown, from };
}

/** Whether a result's survey is an Annual Wellness Visit questionnaire (its date is an AWV's). */
export const isAwvSurvey = (surveyId: string): boolean => surveyId === TELE_AWV_SURVEY_ID;
/** Whether a result's survey is the Welcome to Medicare (IPPE) intake. */
export const isIppeSurvey = (surveyId: string): boolean => surveyId === WELCOME_TO_MEDICARE_EXAM_ID;
/** The built-in surveys whose answers the mapping reads. */
export const PLAN_SURVEYS = [TELE_AWV_SURVEY_ID, CORE_CARE_WELLNESS_EXAM_ID, WELCOME_TO_MEDICARE_EXAM_ID];
