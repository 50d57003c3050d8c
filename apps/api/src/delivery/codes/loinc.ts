/**
 * LOINC codes for the survey answers we deliver.
 *
 * Source: shared/standards/loinc-awv.csv (rows with status `confirmed`, each citing loinc.org or an
 * official HL7 artifact: HL7/C-CDA-Examples, HL7/US-Core, LHNCBC/lforms). Codes the CSV marks
 * UNCONFIRMED are deliberately absent; such answers travel under a local code. `loinc.test.ts`
 * checks every code and answer code here against the CSV.
 * LOINC content © Regenstrief Institute, Inc., used under the LOINC license.
 */

export const LOINC_OID = "2.16.840.1.113883.6.1";
export const LOINC_URI = "http://loinc.org";

export interface Coding {
  code: string;
  display: string;
}

export const LOINC = {
  phq2Panel: { code: "55757-9", display: "Patient Health Questionnaire 2 item (PHQ-2) [Reported]" },
  phq2Total: {
    code: "55758-7",
    display: "Patient Health Questionnaire 2 item (PHQ-2) total score [Reported]",
  },
  phq9Panel: { code: "44249-1", display: "PHQ-9 quick depression assessment panel [Reported.PHQ]" },
  phq9Total: {
    code: "44261-6",
    display: "Patient Health Questionnaire 9 item (PHQ-9) total score [Reported]",
  },
  phq9LittleInterest: {
    code: "44250-9",
    display: "Little interest or pleasure in doing things in last 2 weeks",
  },
  phq9FeelingDown: { code: "44255-8", display: "Feeling down, depressed, or hopeless in last 2 weeks" },
  phq9Sleep: {
    code: "44259-0",
    display: "Trouble falling or staying asleep, or sleeping too much in last 2 weeks [Reported.PHQ]",
  },
  phq9Tired: {
    code: "44254-1",
    display: "Feeling tired or having little energy in last 2 weeks [Reported.PHQ]",
  },
  phq9Appetite: { code: "44251-7", display: "Poor appetite or overeating in last 2 weeks [Reported.PHQ]" },
  phq9FeelingBad: {
    code: "44258-2",
    display:
      "Feeling bad about yourself - or that you are a failure or have let yourself or your family down in last 2 weeks [Reported.PHQ]",
  },
  phq9Concentrating: {
    code: "44252-5",
    display:
      "Trouble concentrating on things, such as reading the newspaper or watching television in last 2 weeks [Reported.PHQ]",
  },
  phq9MovingSlowly: {
    code: "44253-3",
    display:
      "Moving or speaking so slowly that other people could have noticed. Or the opposite - being so fidgety or restless that you have been moving around a lot more than usual in last 2 weeks [Reported.PHQ]",
  },
  phq9SelfHarm: {
    code: "44260-8",
    display:
      "Thoughts that you would be better off dead, or of hurting yourself in some way in last 2 weeks [Reported.PHQ]",
  },
  phq9Difficulty: {
    code: "69722-7",
    display:
      "How difficult have these made it for you to do your work, take care of things at home, or get along with other people [Reported.PHQ]",
  },
  smokingStatus: { code: "72166-2", display: "Tobacco smoking status" },
  alcoholTypicalDay: {
    code: "68519-8",
    display: "How many standard drinks containing alcohol do you have on a typical day",
  },
  alcoholSixOrMore: { code: "68520-6", display: "How often do you have 6 or more drinks on 1 occasion" },
  advanceDirectivesSection: { code: "42348-3", display: "Advance healthcare directives" },
  advanceDirectiveCompleted: { code: "45473-6", display: "Advance healthcare directive completed" },
  dnrInPlace: {
    code: "81351-9",
    display:
      "Do Not Resuscitate, Do Not Attempt Resuscitation, or Allow Natural Death order is in place [Reported]",
  },
  functionalStatusSection: { code: "47420-5", display: "Functional status assessment note" },
  mentalStatusSection: { code: "10190-7", display: "Mental status Narrative" },
  socialHistorySection: { code: "29762-2", display: "Social history" },
} as const satisfies Record<string, Coding>;

/** A LOINC answer (LA code) with the wordings and stored values that select it. */
export interface LoincAnswer extends Coding {
  score?: number;
  matches: readonly (string | number)[];
}

/** LL358-3, the PHQ frequency answer list; `score` is the item's points. */
export const PHQ_FREQUENCY_ANSWERS: readonly LoincAnswer[] = [
  { code: "LA6568-5", display: "Not at all", score: 0, matches: ["not at all", 0, "0"] },
  { code: "LA6569-3", display: "Several days", score: 1, matches: ["several days", 1, "1"] },
  {
    code: "LA6570-1",
    display: "More than half the days",
    score: 2,
    matches: ["more than half the days", 2, "2"],
  },
  { code: "LA6571-9", display: "Nearly every day", score: 3, matches: ["nearly every day", 3, "3"] },
];

/** PHQ-9 difficulty item answers (not scored). */
export const PHQ_DIFFICULTY_ANSWERS: readonly LoincAnswer[] = [
  { code: "LA6572-7", display: "Not difficult at all", matches: ["not difficult at all", 0, "0"] },
  { code: "LA6573-5", display: "Somewhat difficult", matches: ["somewhat difficult", 1, "1"] },
  { code: "LA6575-0", display: "Very difficult", matches: ["very difficult", 2, "2"] },
  { code: "LA6574-3", display: "Extremely difficult", matches: ["extremely difficult", 3, "3"] },
];

/** AUDIT-C Q2; the survey stores 1, 3, 5, 7, 10 for 1-2, 3-4, 5-6, 7-9, 10 or more (SPEC §9). */
export const ALCOHOL_TYPICAL_DAY_ANSWERS: readonly LoincAnswer[] = [
  { code: "LA15694-5", display: "1 or 2", score: 0, matches: [1, "1", "1 or 2", "1-2"] },
  { code: "LA15695-2", display: "3 or 4", score: 1, matches: [3, "3", "3 or 4", "3-4"] },
  { code: "LA18930-0", display: "5 or 6", score: 2, matches: [5, "5", "5 or 6", "5-6"] },
  { code: "LA18931-8", display: "7 to 9", score: 3, matches: [7, "7", "7 to 9", "7-9"] },
  { code: "LA18932-6", display: "10 or more", score: 4, matches: [10, "10", "10 or more"] },
];

/** AUDIT-C Q3. */
export const ALCOHOL_SIX_OR_MORE_ANSWERS: readonly LoincAnswer[] = [
  { code: "LA6270-8", display: "Never", score: 0, matches: ["never", 0, "0"] },
  { code: "LA18933-4", display: "Less than monthly", score: 1, matches: ["less than monthly", 1, "1"] },
  { code: "LA18876-5", display: "Monthly", score: 2, matches: ["monthly", 2, "2"] },
  { code: "LA18891-4", display: "Weekly", score: 3, matches: ["weekly", 3, "3"] },
  {
    code: "LA18934-2",
    display: "Daily or almost daily",
    score: 4,
    matches: ["daily or almost daily", "daily", 4, "4"],
  },
];
