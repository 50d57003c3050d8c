import type { Question, Survey } from "../types.js";
import { choices, page, question, when, withTranslation } from "./build.js";
import { CORE_CARE_WELLNESS_EXAM_ES } from "./core-care-wellness-exam.es.js";

/** Fixed id of the Core Care Wellness Exam. */
export const CORE_CARE_WELLNESS_EXAM_ID = "64a1c0de0000000000000002";

const KEY = "core-care-wellness-exam";

const q = (
  type: Question["type"],
  fieldName: string,
  title: string,
  options: Partial<Question> = {},
): Question => question(KEY, type, fieldName, title, options);

const YES_NO = choices([
  ["yes", "Yes"],
  ["no", "No"],
]);

/** A yearly wellness intake for the tablet: health today, medicines, prevention, women's health, contact. */
export const coreCareWellnessExam: Survey = withTranslation(
  {
    id: CORE_CARE_WELLNESS_EXAM_ID,
    title: "Core Care Wellness Exam",
    description: "Tell us about your health before your wellness exam.",
    canSubscribeTo: true,
    version: 1,
    sections: [
      { id: "health", title: "Your health" },
      { id: "prevention", title: "Prevention" },
      { id: "contact", title: "Contact" },
    ],
    pages: [
      page(
        KEY,
        "today",
        "Your health today",
        [
          q("radio", "health.general", "How would you rate your health in general?", {
            required: true,
            choices: choices([
              ["excellent", "Excellent"],
              ["good", "Good"],
              ["fair", "Fair"],
              ["poor", "Poor"],
            ]),
          }),
          q("scale", "health.painScore", "On a scale of 0 to 10, how much pain do you have today?", {
            required: true,
            min: 0,
            max: 10,
          }),
          q("number", "health.weightLb", "What is your weight in pounds?", {
            min: 50,
            max: 800,
          }),
          q("textarea", "health.concerns", "What would you like to talk about at this visit?", {
            help: "For example a new symptom, a medicine question or a form you need.",
          }),
        ],
        { section: "health" },
      ),
      page(
        KEY,
        "medicines",
        "Medicines and allergies",
        [
          q("yesno", "medicines.takesAny", "Do you take any prescription medicines?", {
            required: true,
            choices: YES_NO,
          }),
          q("textarea", "medicines.list", "Please list your medicines and how often you take them.", {
            required: true,
            visibleWhen: [when("medicines.takesAny", "Equals", "yes")],
          }),
          q("checkbox", "medicines.allergies", "Are you allergic to any of these?", {
            required: true,
            noneValue: "none",
            choices: choices([
              ["none", "No known allergies"],
              ["penicillin", "Penicillin"],
              ["sulfa", "Sulfa drugs"],
              ["latex", "Latex"],
              ["food", "Foods"],
              ["other", "Something else"],
            ]),
          }),
          q("text", "medicines.otherAllergy", "Which other allergy do you have?", {
            required: true,
            visibleWhen: [when("medicines.allergies", "One Of", ["other", "food"])],
          }),
        ],
        { section: "health" },
      ),
      page(
        KEY,
        "prevention",
        "Prevention",
        [
          q("date", "prevention.lastPhysical", "When was your last physical exam?"),
          q("yesno", "prevention.fluShot", "Have you had a flu shot this season?", {
            required: true,
            choices: YES_NO,
          }),
          q("select", "prevention.colonScreening", "When did you last have a colon cancer screening?", {
            required: true,
            choices: choices([
              ["never", "Never"],
              ["under1", "Within the last year"],
              ["1to5", "1 to 5 years ago"],
              ["5to10", "5 to 10 years ago"],
              ["over10", "More than 10 years ago"],
            ]),
            visibleWhen: [when("age", "Greater Than", 44)],
          }),
        ],
        { section: "prevention" },
      ),
      page(
        KEY,
        "womens-health",
        "Women's health",
        [
          q("date", "womensHealth.lastMammogram", "When was your last mammogram?"),
          q("yesno", "womensHealth.papSmear", "Have you had a Pap test in the last 3 years?", {
            choices: YES_NO,
          }),
        ],
        { section: "prevention", conditions: [when("sex", "Equals", "F")] },
      ),
      page(
        KEY,
        "contact",
        "How to reach you",
        [
          q("phone", "phone", "Best phone number", { required: true, pii: true }),
          q("email", "email", "E-mail address", { pii: true }),
          q("radio", "contact.preferred", "How should we send your results?", {
            required: true,
            choices: choices([
              ["portal", "Patient portal"],
              ["phone", "Phone call"],
              ["mail", "Letter"],
            ]),
          }),
        ],
        { section: "contact" },
      ),
    ],
  },
  "es",
  CORE_CARE_WELLNESS_EXAM_ES,
);
