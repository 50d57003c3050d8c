import type { AwvSummary, DirectiveStatus, FUNCTIONAL_ACTIVITIES } from "@core-care/survey-engine";

/** One line of the clinician's AWV summary; `flag` marks a finding that needs attention. */
export interface SummaryRow {
  label: string;
  value: string;
  flag: boolean;
}

const ACTIVITY_LABELS: Record<(typeof FUNCTIONAL_ACTIVITIES)[number], string> = {
  eating: "eating",
  bedToChair: "getting from bed to chair",
  bathroom: "getting to the bathroom",
  phone: "using the telephone",
  driving: "driving or getting to places",
  meds: "taking medicines",
  money: "managing money",
  chores: "housework and chores",
  shopping: "shopping",
  stairs: "climbing stairs",
};

const TOBACCO_LABELS: Record<AwvSummary["tobacco"]["status"], string> = {
  never: "Never smoked",
  former: "Former smoker",
  current: "Current smoker",
  unknown: "Not answered",
};

const ALCOHOL_FREQUENCY: Record<string, string> = {
  never: "Never",
  monthly: "Monthly or less",
  "2-4month": "2 to 4 times a month",
  "2-3week": "2 to 3 times a week",
  "4week": "4 or more times a week",
};

/** SPEC 9: drinks per day 1, 3, 5, 7, 10 mean 1-2, 3-4, 5-6, 7-9 and 10 or more. */
const DRINKS_PER_DAY: Record<number, string> = { 1: "1-2", 3: "3-4", 5: "5-6", 7: "7-9", 10: "10 or more" };

function directive(status: DirectiveStatus): string {
  switch (status) {
    case "yes":
      return "On file";
    case "no":
      return "None";
    case "unknown":
      return "Patient does not know";
    case null:
      return "Not answered";
  }
}

function alcoholText(alcohol: AwvSummary["alcohol"]): string {
  if (alcohol.frequency === null) return "Not answered";
  const parts = [ALCOHOL_FREQUENCY[alcohol.frequency] ?? alcohol.frequency];
  if (alcohol.drinksPerDay !== null) {
    parts.push(`${DRINKS_PER_DAY[alcohol.drinksPerDay] ?? alcohol.drinksPerDay} drinks a day`);
  }
  if (alcohol.binge) parts.push("six or more drinks on one occasion");
  return parts.join("; ");
}

/** The lines of the printable AWV summary, from the engine's `summarizeAwv`. */
export function summaryRows(summary: AwvSummary): SummaryRow[] {
  const { phq, tobacco, alcohol, advanceDirectives } = summary;
  return [
    {
      label: "PHQ-2",
      value: `${phq.phq2} of 6 (${phq.phq2Positive ? "positive screen" : "negative screen"})`,
      flag: phq.phq2Positive,
    },
    {
      label: "PHQ-9",
      value: phq.phq9 === null ? "Not asked" : `${phq.phq9} of 27 (${phq.severity})`,
      flag: phq.severity !== null && phq.severity !== "none-minimal",
    },
    {
      label: "PHQ-9 item 9 (self-harm)",
      value: summary.phq9Item9Positive ? "Positive: review today" : "Negative",
      flag: summary.phq9Item9Positive,
    },
    {
      label: "Fall risk",
      value: summary.fallRiskPositive ? "Positive" : "Negative",
      flag: summary.fallRiskPositive,
    },
    { label: "Tobacco", value: TOBACCO_LABELS[tobacco.status], flag: tobacco.status === "current" },
    { label: "30 pack-years or more", value: tobacco.packYears30 ? "Yes" : "No", flag: tobacco.packYears30 },
    {
      label: "Lung cancer screening",
      value: tobacco.lungCancerScreeningPrompt ? "Eligible: offer a low-dose CT" : "No prompt",
      flag: tobacco.lungCancerScreeningPrompt,
    },
    { label: "Alcohol", value: alcoholText(alcohol), flag: alcohol.binge },
    { label: "Living will", value: directive(advanceDirectives.livingWill), flag: false },
    { label: "Health care power of attorney", value: directive(advanceDirectives.poa), flag: false },
    { label: "DNR order", value: directive(advanceDirectives.dnr), flag: false },
    {
      label: "Needs help with",
      value:
        summary.functionalNeeds.length === 0
          ? "No daily activity"
          : summary.functionalNeeds
              .map((a) => ACTIVITY_LABELS[a as keyof typeof ACTIVITY_LABELS] ?? a)
              .join(", "),
      flag: summary.functionalNeeds.length > 0,
    },
  ];
}
