import { objectId } from "./object-id.js";
import { questionType } from "./question-types.js";
import type { Condition, Page, Question, QuestionType, Survey } from "./types.js";

/** The defaults of SPEC 9. */
export const DEFAULTS = {
  surveyTitle: "Unnamed Survey",
  surveyDescription: "Unnamed Description",
  pageTitle: "Unnamed page",
  reportTitle: "Unnamed Report",
  joinType: "and",
} as const;

/** A new empty survey with a fresh id, version 0 (never saved) and the spec's default texts. */
export function createSurvey(overrides: Partial<Survey> = {}): Survey {
  return {
    id: objectId(),
    title: DEFAULTS.surveyTitle,
    description: DEFAULTS.surveyDescription,
    canSubscribeTo: false,
    sections: [],
    pages: [],
    version: 0,
    ...overrides,
  };
}

/** A new page titled 'Unnamed page' with no conditions and no questions. */
export function createPage(overrides: Partial<Page> = {}): Page {
  return { id: objectId(), title: DEFAULTS.pageTitle, conditions: [], questions: [], ...overrides };
}

/** A new question of the given type; its field name is 'field' followed by its id. */
export function createQuestion(type: QuestionType, overrides: Partial<Question> = {}): Question {
  const id = overrides.id ?? objectId();
  const question: Question = { id, type, fieldName: `field${id}`, title: "", ...overrides };
  // The type's defaults (its descriptor's) fill what the overrides leave out.
  const defaults = questionType(type).designer.defaults();
  if (question.choices === undefined && defaults.choices !== undefined) question.choices = defaults.choices;
  if (question.fields === undefined && defaults.fields !== undefined) question.fields = defaults.fields;
  return question;
}

/** A new condition; its join type defaults to 'and'. */
export function createCondition(overrides: Partial<Condition> = {}): Condition {
  return { fieldName: "", fieldValue: "", action: "Equals", joinType: DEFAULTS.joinType, ...overrides };
}
