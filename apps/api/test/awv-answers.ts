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

/** `answers` completed with an allowed answer to every required question left unanswered (survey-engine). */
export { fillRequiredAnswers as withRequiredAnswers } from "@core-care/survey-engine";
