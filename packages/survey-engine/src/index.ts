export type {
  Answers,
  Choice,
  Condition,
  ConditionAction,
  EvalContext,
  EvalTenant,
  JoinType,
  MessageId,
  Page,
  Question,
  QuestionTexts,
  QuestionType,
  Section,
  Survey,
  Translations,
  ValidationCode,
  ValidationIssue,
} from "./types.js";
export {
  describeQuestion,
  FHIR_ANSWER_KEYS,
  HL7_VALUE_TYPES,
  isQuestionType,
  QUESTION_TYPE_DESCRIPTORS,
  QUESTION_TYPES,
  questionType,
} from "./question-types.js";
export type {
  AnswerKind,
  AnswerShape,
  DesignerField,
  FhirAnswerKey,
  FhirItemType,
  Hl7ValueType,
  QuestionTypeDescriptor,
} from "./question-types.js";
export { answersFromEntries, getAnswer, setAnswer, splitPath } from "./answers.js";
export { createIdGenerator, isObjectId, objectId, objectIdTime, objectIdTimestamp } from "./object-id.js";
export type { IdGenerator, IdGeneratorOptions } from "./object-id.js";
export {
  CONDITION_ACTIONS,
  compileConditions,
  evaluateCondition,
  evaluateConditions,
  hasResponse,
  normalizeAction,
} from "./conditions.js";
export {
  answerPaths,
  hasChoiceFields,
  isQuestionVisible,
  questionPath,
  selectedValues,
  setSelectedValues,
  visibleQuestions,
} from "./questions.js";
export { nextPageIndex, previousPageIndex, pruneHiddenAnswers, shouldDisplayPage } from "./navigation.js";
export { formatMessage, MESSAGES } from "./messages.js";
export { validatePage, validateSurvey } from "./validation.js";
export {
  answerEntries,
  findChoice,
  isChoiceQuestion,
  nestDottedKeys,
  questionAnswer,
} from "./answer-list.js";
export type { AnswerEntry } from "./answer-list.js";
export { checkAnswers } from "./check-answers.js";
export { fillRequiredAnswers } from "./fill-required.js";
export type { CheckAnswersOptions } from "./check-answers.js";
export { localizeSurvey, missingTranslations, SOURCE_LANGUAGE } from "./translations.js";
export { formatPhone } from "./phone.js";
export { formToJson, jsonToForm } from "./form-to-json.js";
export { PROTECTED_FIELD_NAMES, protectedFields, withoutFields } from "./protected-fields.js";
export { sortSurveys } from "./sort-surveys.js";
export { ageOn, patientGlobals } from "./patient-globals.js";
export { DURATION_FILTERS, durationStart } from "./duration.js";
export type { DurationFilter } from "./duration.js";
export { createCondition, createPage, createQuestion, createSurvey, DEFAULTS } from "./factories.js";
export {
  FALL_SCREEN_FIELDS,
  FUNCTIONAL_ACTIVITIES,
  PHQ2_FIELDS,
  PHQ9_FURTHER_FIELDS,
  PHQ_POINTS,
  STEADI_POINTS,
  scorePhq,
  summarizeAwv,
} from "./scoring.js";
export type { AwvSummary, DirectiveStatus, PhqScore, PhqSeverity } from "./scoring.js";
export { BUILTIN_SURVEYS } from "./surveys/index.js";
export {
  ALTERNATE_FALLS_TENANT_IDS,
  parseTeleAwvQuery,
  TELE_AWV_HIDDEN_FIELDS,
  TELE_AWV_SECTIONS,
  TELE_AWV_SURVEY_ID,
  teleAwvSurvey,
} from "./surveys/tele-awv.js";
export type { TeleAwvParams } from "./surveys/tele-awv.js";
export { CORE_CARE_WELLNESS_EXAM_ID, coreCareWellnessExam } from "./surveys/core-care-wellness-exam.js";
export { WELCOME_TO_MEDICARE_EXAM_ID, welcomeToMedicareExam } from "./surveys/welcome-to-medicare-exam.js";
