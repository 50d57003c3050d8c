import type { Question, Survey } from "../types.js";
import { choices, page, question, when, withTranslation } from "./build.js";
import { WELCOME_TO_MEDICARE_EXAM_ES } from "./welcome-to-medicare-exam.es.js";

/** Fixed id of the Welcome to Medicare Exam. */
export const WELCOME_TO_MEDICARE_EXAM_ID = "64a1c0de0000000000000003";

const KEY = "welcome-to-medicare-exam";

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

/**
 * The intake for the Initial Preventive Physical Examination ("Welcome to Medicare" visit): medical and
 * family history, hospital stays (only when there were any), vision and hearing, and advance care planning.
 */
export const welcomeToMedicareExam: Survey = withTranslation(
  {
    id: WELCOME_TO_MEDICARE_EXAM_ID,
    title: "Welcome to Medicare Exam",
    description: "Please complete this history before your Welcome to Medicare preventive visit.",
    canSubscribeTo: true,
    version: 1,
    sections: [
      { id: "history", title: "Your history" },
      { id: "screening", title: "Screening" },
      { id: "planning", title: "Planning ahead" },
    ],
    pages: [
      page(
        KEY,
        "medical-history",
        "Medical history",
        [
          q("checkbox", "history.conditions", "Have you ever been told you have any of these conditions?", {
            required: true,
            noneValue: "none",
            choices: choices([
              ["none", "None of these"],
              ["hypertension", "High blood pressure"],
              ["diabetes", "Diabetes"],
              ["heart", "Heart disease"],
              ["copd", "COPD or asthma"],
              ["cancer", "Cancer"],
              ["depression", "Depression"],
            ]),
          }),
          q("textarea", "history.surgeries", "List any surgeries you have had, with the year."),
          q(
            "yesno",
            "history.hospitalized",
            "Have you stayed overnight in a hospital in the last 12 months?",
            {
              required: true,
              choices: YES_NO,
            },
          ),
        ],
        { section: "history" },
      ),
      page(
        KEY,
        "hospital-stays",
        "Hospital stays",
        [
          q("number", "hospital.count", "How many times were you in the hospital in the last 12 months?", {
            required: true,
            min: 1,
            max: 50,
          }),
          q("textarea", "hospital.reasons", "What were the reasons for these stays?", { required: true }),
        ],
        { section: "history", conditions: [when("history.hospitalized", "Equals", "yes")] },
      ),
      page(
        KEY,
        "family-history",
        "Family history",
        [
          q("group", "family", "Has a parent, brother or sister had any of these?", {
            fields: [
              q("yesno", "heartDisease", "Heart disease before age 60", { required: true, choices: YES_NO }),
              q("yesno", "diabetes", "Diabetes", { required: true, choices: YES_NO }),
              q("yesno", "cancer", "Cancer", { required: true, choices: YES_NO }),
              q("text", "cancerType", "Which cancer?", {
                required: true,
                visibleWhen: [when("family.cancer", "Equals", "yes")],
              }),
            ],
          }),
        ],
        { section: "history" },
      ),
      page(
        KEY,
        "vision-hearing",
        "Vision and hearing",
        [
          q("radio", "screening.vision", "Do you have trouble seeing, even with glasses?", {
            required: true,
            choices: choices([
              ["no", "No"],
              ["some", "Some trouble"],
              ["a lot", "A lot of trouble"],
            ]),
          }),
          q("radio", "screening.hearing", "Do you have trouble hearing?", {
            required: true,
            choices: choices([
              ["no", "No"],
              ["some", "Some trouble"],
              ["a lot", "A lot of trouble"],
            ]),
          }),
          q("yesno", "screening.eyeExam", "Have you had an eye exam in the last 2 years?", {
            choices: YES_NO,
          }),
        ],
        { section: "screening" },
      ),
      page(
        KEY,
        "advance-care",
        "Advance care planning",
        [
          q(
            "yesno",
            "planning.advanceDirective",
            "Do you have a living will or health care power of attorney?",
            {
              required: true,
              choices: YES_NO,
            },
          ),
          q("yesno", "planning.wantsInformation", "Would you like information about advance directives?", {
            required: true,
            choices: YES_NO,
            visibleWhen: [when("planning.advanceDirective", "Equals", "no")],
          }),
        ],
        { section: "planning" },
      ),
    ],
  },
  "es",
  WELCOME_TO_MEDICARE_EXAM_ES,
);
