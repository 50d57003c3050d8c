import {
  questionPath,
  selectedValues,
  setAnswer,
  setSelectedValues,
  type Answers,
  type Question,
  type Survey,
} from "@core-care/survey-engine";

/** Answers to every required question of the Tele-AWV questionnaire, none raising a concern. */
export const NEGATIVE_ANSWERS = {
  functional: Object.fromEntries(
    [
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
    ].map((name) => [name, "0"]),
  ),
  pain: { hadPain: "0", activities: "0" },
  hearing: Object.fromEntries(
    ["aid", "restaurant", "mumbling", "repeat", "phone", "ringing"].map((name) => [name, "no"]),
  ),
  social: {
    alcoholfrequency: "never",
    smokeYesNoQuit: "never",
    smokeless: "no",
    oralHealth: "good",
    dentist: "yes",
    diets0: "none",
    exerciseYesNo: "no",
    maritalStatus: "married",
    householdMembers1: "spouse",
    occupation: "retired",
    generalHealth: "good",
    sexualHealth: "no",
    stress: "sometimes",
    seatbelt: "always",
    smokeDetectors: "yes",
    tripHazards: "no",
    grabBars: "yes",
    feelSafe: "yes",
  },
  depression: { phq9LittleInterest: "not at all", phq9Hopeless: "not at all" },
  fallen: {
    pastYear: "no",
    loseBalanceWhileStanding: "no",
    dizzy: "no",
    useCane: "no",
    unsteady: "no",
    recentVisionLoss: "no",
    stroke: "no",
  },
  directives: { livingWill: "yes", poa: "no", dnr: "unknown" },
};

/**
 * `answers` completed with an allowed answer (the first choice, the lowest number, a date, some text)
 * to every required question of `survey` they leave unanswered, so a test can submit them: the server
 * refuses a submission without the required questions that show.
 */
export function withRequiredAnswers(survey: Survey, answers: Answers = {}): Answers {
  let next = answers;
  const fill = (questions: readonly Question[], prefix: string) => {
    for (const q of questions) {
      const path = questionPath(q, prefix);
      if (q.type === "group") {
        fill(q.fields ?? [], path);
        continue;
      }
      if (!q.required || q.type === "html" || selectedOrValue(q, next, prefix)) continue;
      const first = q.choices?.find((c) => c.value !== q.noneValue) ?? q.choices?.[0];
      if (q.type === "checkbox" && first !== undefined) {
        next = setSelectedValues(q, next, [first.value], prefix);
      } else if (first !== undefined) {
        next = setAnswer(next, path, first.value);
      } else {
        const typed: Partial<Record<Question["type"], unknown>> = {
          number: String(q.min ?? 0),
          scale: String(q.min ?? 0),
          date: "2000-01-01",
          email: "patient@example.org",
          phone: "5551234567",
        };
        next = setAnswer(next, path, typed[q.type] ?? "Answered");
      }
    }
  };
  for (const page of survey.pages) fill(page.questions, "");
  return next;
}

function selectedOrValue(q: Question, answers: Answers, prefix: string): boolean {
  return selectedValues(q, answers, prefix).length > 0;
}
