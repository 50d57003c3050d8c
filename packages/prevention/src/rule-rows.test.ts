import { describe, expect, test } from "vitest";
import { buildPlan } from "./plan.js";
import { RULES } from "./rules.js";
import { man, person, woman } from "./test/people.js";
import type { PreventionFacts } from "./facts.js";
import type { ItemStatus } from "./vocabulary.js";

/**
 * One set of cases per row of the rules table, written from the recommendation's own criteria (its ages
 * at each edge, sex and risk), not from the table: a case says whether the row decides the patient's item
 * and, when it does, the status the recommendation's grade calls for (A/B: due; C/I: discuss; D: not
 * recommended). Someone a year short of a row's first age has it scheduled on that birthday.
 */
type Case = [rowId: string, name: string, facts: PreventionFacts, status: ItemStatus | null, due?: string];

const smokes = (packYears: number) => ({ smoking: { status: "current" as const, packYears } });
const quit = (yearsSinceQuit: number, packYears = 30) => ({
  smoking: { status: "former" as const, packYears, yearsSinceQuit },
});

const CASES: Case[] = [
  // USPSTF colorectal cancer, 2021: B 45-49, A 50-75, C 76-85; average risk only.
  [
    "colorectal-surveillance",
    "a personal history of adenomas follows surveillance",
    person(60, { flags: ["colorectal-high-risk"] }),
    "not-recommended",
  ],
  ["colorectal-surveillance", "average risk at 60 is screened instead", person(60), null],
  ["colorectal-45-49", "45", person(45), "due"],
  ["colorectal-45-49", "49", person(49), "due"],
  ["colorectal-45-49", "44: from the 45th birthday", person(44), "scheduled", "2027-12-02"],
  ["colorectal-45-49", "50 moves to the A row", person(50), null],
  ["colorectal-50-75", "50", person(50), "due"],
  ["colorectal-50-75", "75", person(75), "due"],
  ["colorectal-50-75", "76 moves to the C row", person(76), null],
  ["colorectal-76-85", "76", person(76), "discuss"],
  ["colorectal-76-85", "85", person(85), "discuss"],
  ["colorectal-76-85", "86 is past the range", person(86), null],
  ["colorectal-86-plus", "86", person(86), "not-recommended"],
  ["colorectal-86-plus", "85 is still in range", person(85), null],
  // USPSTF breast cancer, 2024: B biennial 40-74; I 75 and older.
  [
    "breast-high-risk",
    "a BRCA carrier follows a high-risk plan",
    woman(50, { flags: ["breast-high-risk"] }),
    "not-recommended",
  ],
  ["breast-high-risk", "average risk", woman(50), null],
  ["breast-40-74", "a woman of 40", woman(40), "due"],
  ["breast-40-74", "a woman of 74", woman(74), "due"],
  ["breast-40-74", "a woman of 39: from her 40th birthday", woman(39), "scheduled", "2027-12-02"],
  ["breast-40-74", "a woman of 75", woman(75), null],
  ["breast-40-74", "a man of 60", man(60), null],
  ["breast-75-plus", "a woman of 75", woman(75), "discuss"],
  ["breast-75-plus", "a woman of 90", woman(90), "discuss"],
  ["breast-75-plus", "a man of 80", man(80), null],
  // USPSTF cervical cancer, 2018: A 21-65 (cytology 3 y; 30-65 also HPV or co-test 5 y); D after 65 with adequate screening, D after hysterectomy.
  [
    "cervical-removed",
    "hysterectomy with the cervix removed",
    woman(40, { flags: ["cervix-removed"] }),
    "not-recommended",
  ],
  ["cervical-removed", "cervix present", woman(40), null],
  ["cervical-21-29", "21", woman(21), "due"],
  ["cervical-21-29", "29", woman(29), "due"],
  ["cervical-21-29", "20: from the 21st birthday", woman(20), "scheduled", "2027-12-02"],
  ["cervical-21-29", "30 moves to the 30-65 row", woman(30), null],
  ["cervical-30-65", "30", woman(30), "due"],
  ["cervical-30-65", "65", woman(65), "due"],
  ["cervical-30-65", "66", woman(66), null],
  ["cervical-30-65", "a man of 40", man(40), null],
  [
    "cervical-66-high-risk",
    "66 with prior high-grade precancer",
    woman(66, { flags: ["cervical-high-risk"] }),
    "discuss",
  ],
  ["cervical-66-high-risk", "66 without high risk", woman(66), null],
  [
    "cervical-66-adequate",
    "70 with adequate prior screening",
    woman(70, { flags: ["cervical-screening-adequate"] }),
    "not-recommended",
  ],
  [
    "cervical-66-adequate",
    "65 with adequate prior screening is still screened",
    woman(65, { flags: ["cervical-screening-adequate"] }),
    null,
  ],
  ["cervical-66-not-documented", "66, prior screening not documented", woman(66), "discuss"],
  ["cervical-66-not-documented", "65", woman(65), null],
  // USPSTF lung cancer, 2021: B yearly LDCT 50-80, 20 pack-years, smoking or quit within 15 years.
  ["lung-ldct", "50, smokes, 20 pack-years", person(50, smokes(20)), "due"],
  ["lung-ldct", "80, smokes, 20 pack-years", person(80, smokes(20)), "due"],
  ["lung-ldct", "quit 14 years ago", person(65, quit(14)), "due"],
  ["lung-ldct", "49: from the 50th birthday", person(49, smokes(30)), "scheduled", "2027-12-02"],
  ["lung-ldct", "81", person(81, smokes(30)), null],
  ["lung-ldct", "19 pack-years", person(60, smokes(19)), null],
  ["lung-ldct", "quit 15 years ago", person(65, quit(15)), null],
  ["lung-ldct", "never smoked", person(65), null],
  [
    "lung-ldct",
    "a health problem limits life expectancy",
    person(65, { ...smokes(30), flags: ["limited-life-expectancy"] }),
    null,
  ],
  ["lung-quit-15-years", "quit 15 years ago", person(70, quit(15, 25)), "not-recommended"],
  ["lung-quit-15-years", "quit 14 years ago", person(70, quit(14, 25)), null],
  [
    "lung-limited-life-expectancy",
    "limited life expectancy",
    person(60, { ...smokes(30), flags: ["limited-life-expectancy"] }),
    "not-recommended",
  ],
  ["lung-limited-life-expectancy", "no such problem", person(60, smokes(30)), null],
  ["lung-81-plus", "81, quit 5 years ago", person(81, quit(5, 40)), "not-recommended"],
  ["lung-81-plus", "81, never smoked", person(81), null],
  // USPSTF osteoporosis, 2025: B women 65+; B postmenopausal under 65 at increased risk; I men.
  [
    "osteoporosis-known",
    "osteoporosis on treatment",
    woman(70, { flags: ["osteoporosis"] }),
    "not-recommended",
  ],
  ["osteoporosis-known", "no diagnosis", woman(70), null],
  ["osteoporosis-women-65", "a woman of 65", woman(65), "due"],
  ["osteoporosis-women-65", "a woman of 64: from her 65th birthday", woman(64), "scheduled", "2027-12-02"],
  ["osteoporosis-women-65", "a man of 70", man(70), null],
  [
    "osteoporosis-postmenopausal-under-65",
    "postmenopausal at increased risk",
    woman(55, { flags: ["postmenopausal", "osteoporosis-risk"] }),
    "due",
  ],
  [
    "osteoporosis-postmenopausal-under-65",
    "postmenopausal, no increased risk",
    woman(55, { flags: ["postmenopausal"] }),
    null,
  ],
  [
    "osteoporosis-postmenopausal-under-65",
    "at risk but not postmenopausal",
    woman(45, { flags: ["osteoporosis-risk"] }),
    null,
  ],
  [
    "osteoporosis-men-at-risk",
    "a man at increased risk",
    man(70, { flags: ["osteoporosis-risk"] }),
    "discuss",
  ],
  ["osteoporosis-men-at-risk", "a man without risk factors", man(70), null],
  // USPSTF AAA, 2019: B men 65-75 ever smoked; C men never smoked; D women never smoked; I women ever smoked or family history.
  ["aaa-men-ever-smoked", "a man of 65 who quit", man(65, quit(30)), "due"],
  ["aaa-men-ever-smoked", "a man of 75 who smokes", man(75, smokes(10)), "due"],
  [
    "aaa-men-ever-smoked",
    "100 cigarettes, though he calls himself a never smoker",
    man(70, { smoking: { status: "never", smoked100: true } }),
    "due",
  ],
  [
    "aaa-men-ever-smoked",
    "a man of 64 who smokes: from his 65th birthday",
    man(64, smokes(10)),
    "scheduled",
    "2027-12-02",
  ],
  ["aaa-men-ever-smoked", "a man of 76 who smokes", man(76, smokes(10)), null],
  ["aaa-men-ever-smoked", "a man who never smoked", man(70), null],
  ["aaa-men-never-smoked", "a man of 70 who never smoked", man(70), "discuss"],
  ["aaa-men-never-smoked", "a man who quit", man(70, quit(20)), null],
  ["aaa-women-never-smoked", "a woman of 70 who never smoked", woman(70), "not-recommended"],
  ["aaa-women-never-smoked", "with a family history", woman(70, { flags: ["aaa-family-history"] }), null],
  ["aaa-women-ever-smoked-or-family", "a woman who quit", woman(70, quit(20)), "discuss"],
  [
    "aaa-women-ever-smoked-or-family",
    "a never smoker with a family history",
    woman(70, { flags: ["aaa-family-history"] }),
    "discuss",
  ],
  ["aaa-women-ever-smoked-or-family", "a never smoker without", woman(70), null],
  ["aaa-over-75", "a man of 76", man(76, smokes(10)), "not-recommended"],
  ["aaa-over-75", "a man of 75", man(75, smokes(10)), null],
  // USPSTF hepatitis C, 2020: B 18-79 once; periodically with continued risk.
  ["hepatitis-c-ongoing-risk", "40 who injects drugs", person(40, { flags: ["hepatitis-c-risk"] }), "due"],
  ["hepatitis-c-ongoing-risk", "79 with continued risk", person(79, { flags: ["hepatitis-c-risk"] }), "due"],
  ["hepatitis-c-ongoing-risk", "no continued risk", person(40), null],
  ["hepatitis-c-once", "18", person(18), "due"],
  ["hepatitis-c-once", "79", person(79), "due"],
  ["hepatitis-c-once", "17: from the 18th birthday", person(17), "scheduled", "2027-12-02"],
  ["hepatitis-c-once", "80", person(80), null],
  ["hepatitis-c-80-plus-risk", "80 at high risk", person(80, { flags: ["hepatitis-c-risk"] }), "discuss"],
  ["hepatitis-c-80-plus-risk", "80 without risk", person(80), null],
  // USPSTF hepatitis B, 2020: B adults at increased risk.
  ["hepatitis-b-screening-risk", "at increased risk", person(50, { flags: ["hepatitis-b-risk"] }), "due"],
  [
    "hepatitis-b-screening-risk",
    "at risk but immune",
    person(50, { flags: ["hepatitis-b-risk", "hepatitis-b-immune"] }),
    null,
  ],
  ["hepatitis-b-screening-risk", "no risk", person(50), null],
  // USPSTF HIV, 2019: A 15-65; older at increased risk.
  ["hiv-increased-risk", "70 at increased risk", person(70, { flags: ["hiv-risk"] }), "due"],
  ["hiv-increased-risk", "70 without", person(70), null],
  ["hiv-15-65", "15", person(15), "due"],
  ["hiv-15-65", "65", person(65), "due"],
  ["hiv-15-65", "66", person(66), null],
  // USPSTF prediabetes and type 2 diabetes, 2021: B 35-70 with BMI 25+ (23+ Asian American).
  [
    "diabetes-known",
    "diagnosed diabetes",
    person(50, { flags: ["diabetes"], measures: { bmi: 30 } }),
    "not-recommended",
  ],
  ["diabetes-known", "no diagnosis", person(50, { measures: { bmi: 30 } }), null],
  ["diabetes-35-70-overweight", "35 with BMI 25", person(35, { measures: { bmi: 25 } }), "due"],
  ["diabetes-35-70-overweight", "70 with BMI 25", person(70, { measures: { bmi: 25 } }), "due"],
  [
    "diabetes-35-70-overweight",
    "Asian American with BMI 23",
    person(50, { flags: ["asian-american"], measures: { bmi: 23 } }),
    "due",
  ],
  [
    "diabetes-35-70-overweight",
    "34 with BMI 30: from the 35th birthday",
    person(34, { measures: { bmi: 30 } }),
    "scheduled",
    "2027-12-02",
  ],
  ["diabetes-35-70-overweight", "71 with BMI 30", person(71, { measures: { bmi: 30 } }), null],
  ["diabetes-35-70-overweight", "BMI 24.9", person(50, { measures: { bmi: 24.9 } }), null],
  [
    "diabetes-35-70-overweight",
    "Asian American with BMI 22.9",
    person(50, { flags: ["asian-american"], measures: { bmi: 22.9 } }),
    null,
  ],
  // USPSTF hypertension, 2021: A adults 18+, yearly from 40.
  [
    "hypertension-known",
    "diagnosed hypertension",
    person(50, { flags: ["hypertension"] }),
    "not-recommended",
  ],
  ["hypertension-known", "no diagnosis", person(50), null],
  ["hypertension-40-plus", "40", person(40), "due"],
  ["hypertension-40-plus", "39", person(39), null],
  ["hypertension-18-39", "18", person(18), "due"],
  ["hypertension-18-39", "39", person(39), "due"],
  ["hypertension-18-39", "40 moves to the yearly row", person(40), null],
  ["hypertension-18-39", "17: from the 18th birthday", person(17), "scheduled", "2027-12-02"],
  // USPSTF statins, 2022: B 40-75 with a risk factor and 10-year risk 10%+; C 7.5-<10%; I 76+.
  [
    "statin-known-cvd",
    "known cardiovascular disease",
    person(60, { flags: ["cardiovascular-disease", "hypertension"], measures: { cvdRisk10y: 20 } }),
    "not-recommended",
  ],
  ["statin-known-cvd", "none", person(60, { flags: ["hypertension"], measures: { cvdRisk10y: 20 } }), null],
  [
    "statin-already-taking",
    "on a statin",
    person(60, { flags: ["on-statin", "dyslipidemia"], measures: { cvdRisk10y: 15 } }),
    "not-recommended",
  ],
  [
    "statin-already-taking",
    "not on one",
    person(60, { flags: ["dyslipidemia"], measures: { cvdRisk10y: 15 } }),
    null,
  ],
  [
    "statin-40-75-risk-10",
    "40 with hypertension, risk 10%",
    person(40, { flags: ["hypertension"], measures: { cvdRisk10y: 10 } }),
    "due",
  ],
  [
    "statin-40-75-risk-10",
    "75 with dyslipidaemia, risk 10%",
    person(75, { flags: ["dyslipidemia"], measures: { cvdRisk10y: 10 } }),
    "due",
  ],
  [
    "statin-40-75-risk-10",
    "a smoker, risk 12%",
    person(60, { ...smokes(10), measures: { cvdRisk10y: 12 } }),
    "due",
  ],
  [
    "statin-40-75-risk-10",
    "risk 9.9%",
    person(60, { flags: ["hypertension"], measures: { cvdRisk10y: 9.9 } }),
    null,
  ],
  ["statin-40-75-risk-10", "no risk factor", person(60, { measures: { cvdRisk10y: 15 } }), null],
  ["statin-40-75-risk-10", "76", person(76, { flags: ["hypertension"], measures: { cvdRisk10y: 12 } }), null],
  [
    "statin-40-75-risk-7-5",
    "risk 7.5%",
    person(60, { flags: ["hypertension"], measures: { cvdRisk10y: 7.5 } }),
    "discuss",
  ],
  [
    "statin-40-75-risk-7-5",
    "risk 7.4%",
    person(60, { flags: ["hypertension"], measures: { cvdRisk10y: 7.4 } }),
    null,
  ],
  [
    "statin-40-75-risk-7-5",
    "risk 10%",
    person(60, { flags: ["hypertension"], measures: { cvdRisk10y: 10 } }),
    null,
  ],
  ["statin-76-plus", "76 with hypertension", person(76, { flags: ["hypertension"] }), "discuss"],
  ["statin-76-plus", "76 without risk factors", person(76), null],
  // USPSTF obesity, 2018: B BMI 30+.
  ["obesity-behavioral", "BMI 30", person(50, { measures: { bmi: 30 } }), "due"],
  ["obesity-behavioral", "BMI 29.9", person(50, { measures: { bmi: 29.9 } }), null],
  // USPSTF healthy diet and activity with CVD risk factors, 2020: B.
  ["cardiovascular-behavioral-counseling", "hypertension", person(50, { flags: ["hypertension"] }), "due"],
  [
    "cardiovascular-behavioral-counseling",
    "10-year risk 7.5%",
    person(50, { measures: { cvdRisk10y: 7.5 } }),
    "due",
  ],
  [
    "cardiovascular-behavioral-counseling",
    "10-year risk 7%",
    person(50, { measures: { cvdRisk10y: 7 } }),
    null,
  ],
  [
    "cardiovascular-behavioral-counseling",
    "85: the risk equations stop at 79",
    person(85, { measures: { cvdRisk10y: 30 } }),
    null,
  ],
  // CMS AWV: fall risk at each AWV; USPSTF falls, 2024: B exercise 65+ at increased risk.
  ["falls-review", "every AWV patient", person(70), "due"],
  ["falls-exercise", "65 at increased risk", person(65, { flags: ["falls-risk"] }), "due"],
  [
    "falls-exercise",
    "64 at increased risk: from the 65th birthday",
    person(64, { flags: ["falls-risk"] }),
    "scheduled",
    "2027-12-02",
  ],
  ["falls-exercise", "70 without increased risk", person(70), null],
  // USPSTF depression, 2023: B adults.
  ["depression-screening", "18", person(18), "due"],
  ["depression-screening", "17: from the 18th birthday", person(17), "scheduled", "2027-12-02"],
  // USPSTF unhealthy alcohol use, 2018: B adults 18+.
  ["alcohol-screening", "18", person(18), "due"],
  ["alcohol-screening", "17: from the 18th birthday", person(17), "scheduled", "2027-12-02"],
  // USPSTF tobacco, 2021: A adults who smoke.
  ["tobacco-cessation", "smokes", person(60, smokes(10)), "due"],
  ["tobacco-cessation", "quit", person(60, quit(3)), null],
  // CMS AWV elements: cognition and hearing at each AWV; advance care planning at the patient's choice.
  ["cognition-awv", "every AWV patient", person(70), "due"],
  ["hearing-awv", "every AWV patient", person(70), "due"],
  [
    "advance-care-planning-review",
    "a directive on file",
    person(70, { flags: ["advance-directive-on-file"] }),
    "due",
  ],
  ["advance-care-planning-review", "none on file", person(70), null],
  ["advance-care-planning-offer", "none on file", person(70), "due"],
  [
    "advance-care-planning-offer",
    "a directive on file",
    person(70, { flags: ["advance-directive-on-file"] }),
    null,
  ],
  // USPSTF prostate cancer, 2018: C men 55-69; D 70+.
  ["prostate-55-69", "a man of 55", man(55), "discuss"],
  ["prostate-55-69", "a man of 69", man(69), "discuss"],
  ["prostate-55-69", "a man of 54: decide together from his 55th birthday", man(54), "discuss", "2027-12-02"],
  ["prostate-55-69", "a woman of 60", woman(60), null],
  ["prostate-70-plus", "a man of 70", man(70), "not-recommended"],
  ["prostate-70-plus", "a man of 69", man(69), null],
  // ACIP influenza: every adult every season; from 65 a preferred vaccine.
  ["influenza-65-plus", "65", person(65), "due"],
  ["influenza-65-plus", "64", person(64), null],
  ["influenza-18-64", "18", person(18), "due"],
  ["influenza-18-64", "64", person(64), "due"],
  ["influenza-18-64", "65", person(65), null],
  // ACIP pneumococcal, October 2024: every adult 50+; 19-49 with a risk condition.
  ["pneumococcal-50-plus", "50", person(50), "due"],
  ["pneumococcal-50-plus", "49: from the 50th birthday", person(49), "scheduled", "2027-12-02"],
  [
    "pneumococcal-19-49-risk",
    "19 with a risk condition",
    person(19, { flags: ["pneumococcal-risk"] }),
    "due",
  ],
  [
    "pneumococcal-19-49-risk",
    "49 with a risk condition",
    person(49, { flags: ["pneumococcal-risk"] }),
    "due",
  ],
  ["pneumococcal-19-49-risk", "49 without", person(49), null],
  [
    "pneumococcal-19-49-risk",
    "18 with a risk condition: from the 19th birthday",
    person(18, { flags: ["pneumococcal-risk"] }),
    "scheduled",
    "2027-12-02",
  ],
  // ACIP zoster, 2018: RZV from 50.
  ["zoster-50-plus", "50", person(50), "due"],
  ["zoster-50-plus", "49: from the 50th birthday", person(49), "scheduled", "2027-12-02"],
  // ACIP Td/Tdap, 2019: adults.
  ["td-tdap-adult", "19", person(19), "due"],
  ["td-tdap-adult", "18: from the 19th birthday", person(18), "scheduled", "2027-12-02"],
  // ACIP RSV, June 2024 and April 2025: all 75+; 50-74 at increased risk; not 60-74 without.
  ["rsv-75-plus", "75", person(75), "due"],
  ["rsv-75-plus", "74", person(74), null],
  ["rsv-60-74-increased-risk", "60 at increased risk", person(60, { flags: ["rsv-risk"] }), "due"],
  ["rsv-60-74-increased-risk", "74 at increased risk", person(74, { flags: ["rsv-risk"] }), "due"],
  ["rsv-60-74-increased-risk", "59 at increased risk", person(59, { flags: ["rsv-risk"] }), null],
  ["rsv-60-74-increased-risk", "70 without", person(70), null],
  ["rsv-50-59-increased-risk", "50 at increased risk", person(50, { flags: ["rsv-risk"] }), "due"],
  ["rsv-50-59-increased-risk", "59 at increased risk", person(59, { flags: ["rsv-risk"] }), "due"],
  [
    "rsv-50-59-increased-risk",
    "49 at increased risk: from the 50th birthday",
    person(49, { flags: ["rsv-risk"] }),
    "scheduled",
    "2027-12-02",
  ],
  ["rsv-60-74-not-at-risk", "60 without increased risk", person(60), "not-recommended"],
  ["rsv-60-74-not-at-risk", "74 without increased risk", person(74), "not-recommended"],
  ["rsv-60-74-not-at-risk", "75", person(75), null],
  // ACIP COVID-19, September 2025: individual-based decision-making for every age.
  ["covid-19-65-plus", "65", person(65), "discuss"],
  ["covid-19-65-plus", "64", person(64), null],
  ["covid-19-18-64", "18", person(18), "discuss"],
  ["covid-19-18-64", "64", person(64), "discuss"],
  ["covid-19-18-64", "65", person(65), null],
  // ACIP hepatitis B vaccine, 2021: universal 19-59; 60+ with risk factors; 60+ without may receive.
  ["hepatitis-b-vaccine-immune", "immune", person(40, { flags: ["hepatitis-b-immune"] }), "not-recommended"],
  ["hepatitis-b-vaccine-immune", "not immune", person(40), null],
  ["hepatitis-b-vaccine-19-59", "19", person(19), "due"],
  ["hepatitis-b-vaccine-19-59", "59", person(59), "due"],
  ["hepatitis-b-vaccine-19-59", "60", person(60), null],
  [
    "hepatitis-b-vaccine-60-plus-risk",
    "60 with risk factors",
    person(60, { flags: ["hepatitis-b-risk"] }),
    "due",
  ],
  ["hepatitis-b-vaccine-60-plus-risk", "60 without", person(60), null],
  ["hepatitis-b-vaccine-60-plus", "60 without risk factors", person(60), "discuss"],
  ["hepatitis-b-vaccine-60-plus", "60 with risk factors", person(60, { flags: ["hepatitis-b-risk"] }), null],
];

const groupOf = (id: string) => {
  const row = RULES.rows.find((r) => r.id === id);
  if (!row) throw new Error(`no row ${id}`);
  const group = row.group ?? row.topic;
  return new Set(RULES.rows.filter((r) => (r.group ?? r.topic) === group).map((r) => r.id));
};

describe("rules table rows", () => {
  test("every row has cases that apply it and cases at its edges that do not", () => {
    const always = new Set(["falls-review", "cognition-awv", "hearing-awv"]);
    for (const row of RULES.rows) {
      const cases = CASES.filter(([id]) => id === row.id);
      expect(
        cases.some(([, , , status]) => status !== null),
        row.id,
      ).toBe(true);
      if (!always.has(row.id))
        expect(
          cases.some(([, , , status, due]) => status === null || due !== undefined),
          row.id,
        ).toBe(true);
    }
  });

  test.each(CASES)("%s: %s", (rowId, _name, facts, status, due) => {
    const plan = buildPlan(facts);
    const group = groupOf(rowId);
    const item = plan.items.find((i) => group.has(i.ruleId));
    if (status === null) expect(item?.ruleId).not.toBe(rowId);
    else {
      expect(item?.ruleId).toBe(rowId);
      expect(item?.status).toBe(status);
      expect(item?.due).toBe(due ?? (status === "not-recommended" ? "not-recommended" : "now"));
    }
    expect(plan.issues).toEqual([]);
  });
});
