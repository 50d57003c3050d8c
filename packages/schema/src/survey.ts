import { z } from "zod";
import {
  normalizeAction,
  QUESTION_TYPES as ENGINE_QUESTION_TYPES,
  type ConditionAction,
} from "@core-care/survey-engine";
import { DocumentIdSchema, TimestampSchema, TenantIdSchema } from "./common.js";

/** How a condition joins the one before it (SPEC 3: default 'and'). */
export const JoinTypeSchema = z.enum(["and", "or"]);

/**
 * A condition's action in any spelling the engine's `normalizeAction` accepts (SPEC 4 lists 'Greater than'
 * and 'Has response' while its evaluator expects capitals), stored in the canonical spelling.
 */
export const ConditionActionSchema = z
  .string()
  .max(40)
  .transform((action, ctx): ConditionAction => {
    const canonical = normalizeAction(action);
    if (canonical === undefined) {
      ctx.addIssue({
        code: "custom",
        message: "Must be one of Equals, Not Equals, Greater Than, Less Than, Has Response, One Of.",
      });
      return z.NEVER;
    }
    return canonical;
  });

const PrimitiveValueSchema = z.union([z.string().max(2000), z.number(), z.boolean(), z.null()]);

/** A compared value: strings, numbers and booleans compare strictly (SPEC 5); a list for 'One Of'. */
export const FieldValueSchema = z.union([PrimitiveValueSchema, z.array(PrimitiveValueSchema).max(500)]);

/** A page or question condition (SPEC 3). */
export const ConditionSchema = z.object({
  fieldName: z.string().trim().min(1, "This field is required.").max(200),
  fieldValue: FieldValueSchema.optional(),
  action: ConditionActionSchema,
  joinType: JoinTypeSchema.default("and"),
});
export type Condition = z.infer<typeof ConditionSchema>;

/** A language code of a translation: `es`, `es-MX`, `fr`. */
export const LanguageCodeSchema = z
  .string()
  .regex(/^[a-z]{2,3}(-[A-Z]{2})?$/, "Must be a language code such as es.");

/**
 * The texts of one survey element in other languages, keyed by language code. Texts only: values, field
 * names and conditions are shared by every language, so the answers stored are the same whichever one
 * the patient read. A missing or blank text falls back to the element's own.
 */
function translationsOf<T extends z.ZodRawShape>(texts: T) {
  return z.record(LanguageCodeSchema, z.object(texts).partial()).optional();
}

const text = (max: number) => z.string().max(max);

/** Choice values travel as text; numeric values of older definitions are read as their text. */
const ChoiceValueSchema = z.union([z.string().max(500), z.number().transform(String)]);

/** A choice of a select, radio or checkbox question (SPEC 3: each with a value). */
export const ChoiceSchema = z.object({
  value: ChoiceValueSchema,
  label: z.string().max(2000),
  fieldName: z.string().max(200).optional(),
  translations: translationsOf({ label: text(2000) }),
});
export type Choice = z.infer<typeof ChoiceSchema>;

/** The question types, as the survey engine describes them (one descriptor each, question-types.ts). */
export const QUESTION_TYPES = ENGINE_QUESTION_TYPES;
export const QuestionTypeSchema = z.enum(QUESTION_TYPES);
export type QuestionType = z.infer<typeof QuestionTypeSchema>;

const ElementIdSchema = z.string().trim().min(1).max(64);

/** A survey question; `group` questions nest their `fields` (SPEC 3). */
export interface Question {
  id: string;
  type: QuestionType;
  fieldName: string;
  title: string;
  required?: boolean | undefined;
  choices?: Choice[] | undefined;
  fields?: Question[] | undefined;
  pii?: boolean | undefined;
  visibleWhen?: Condition[] | undefined;
  placeholder?: string | undefined;
  help?: string | undefined;
  min?: number | undefined;
  max?: number | undefined;
  noneValue?: string | undefined;
  requiredMessage?: string | undefined;
  translations?: Record<string, QuestionTexts> | undefined;
}

/** The texts of a question that a translation gives. */
export interface QuestionTexts {
  title?: string | undefined;
  help?: string | undefined;
  placeholder?: string | undefined;
  requiredMessage?: string | undefined;
}

export const QuestionSchema: z.ZodType<Question, unknown> = z.lazy(() =>
  z.object({
    id: ElementIdSchema,
    type: QuestionTypeSchema,
    fieldName: z.string().trim().min(1, "This field is required.").max(200),
    title: z.string().max(10_000).default(""),
    required: z.boolean().optional(),
    choices: z.array(ChoiceSchema).max(500).optional(),
    fields: z.array(QuestionSchema).max(500).optional(),
    pii: z.boolean().optional(),
    visibleWhen: z.array(ConditionSchema).max(100).optional(),
    placeholder: z.string().max(500).optional(),
    help: z.string().max(10_000).optional(),
    min: z.number().optional(),
    max: z.number().optional(),
    noneValue: ChoiceValueSchema.optional(),
    requiredMessage: z.string().max(500).optional(),
    translations: translationsOf({
      title: text(10_000),
      help: text(10_000),
      placeholder: text(500),
      requiredMessage: text(500),
    }),
  }),
);

/** A survey section (SPEC 3: id and title). */
export const SectionSchema = z.object({
  id: ElementIdSchema,
  title: z.string().max(500).default(""),
  translations: translationsOf({ title: text(500) }),
});
export type Section = z.infer<typeof SectionSchema>;

/** A survey page (SPEC 3: title defaults to 'Unnamed page'). */
export const PageSchema = z.object({
  id: ElementIdSchema,
  title: z.string().max(500).default("Unnamed page"),
  section: z.string().max(64).optional(),
  conditions: z.array(ConditionSchema).max(100).default([]),
  questions: z.array(QuestionSchema).max(500).default([]),
  translations: translationsOf({ title: text(500) }),
});
export type Page = z.infer<typeof PageSchema>;

/** Survey version: 0 for a survey never saved, then +1 per save. */
export const VersionSchema = z.number().int().min(0).max(2_147_483_647);

/** A survey definition (SPEC 3; only these fields are sent on save). */
export const SurveySchema = z.object({
  id: DocumentIdSchema,
  title: z.string().trim().max(500).default("Unnamed Survey"),
  description: z.string().max(10_000).default("Unnamed Description"),
  canSubscribeTo: z.boolean().default(false),
  sections: z.array(SectionSchema).max(200).default([]),
  pages: z.array(PageSchema).max(500).default([]),
  version: VersionSchema.default(0),
  submitLabel: z.string().max(100).optional(),
  translations: translationsOf({ title: text(500), description: text(10_000), submitLabel: text(100) }),
});
export type Survey = z.infer<typeof SurveySchema>;

/** A survey as GET /api/surveys/{id} answers it: `readOnly` for another tenant's subscribed survey. */
export const SurveyResponseSchema = SurveySchema.extend({ readOnly: z.boolean() });
export type SurveyResponse = z.infer<typeof SurveyResponseSchema>;

/** An item of GET /api/surveys. */
export const SurveySummarySchema = z.object({
  id: DocumentIdSchema,
  title: z.string(),
  version: VersionSchema,
  canSubscribeTo: z.boolean(),
  tenantId: TenantIdSchema,
  readOnly: z.boolean(),
});
export type SurveySummary = z.infer<typeof SurveySummarySchema>;

/** An item of GET /api/surveys/{id}/versions. */
export const DocumentVersionSchema = z.object({
  version: VersionSchema,
  savedAt: TimestampSchema,
  /** Who saved it, by name; null when unknown (a built-in version) or saved by another practice. */
  savedBy: z.string().nullable(),
});
export type DocumentVersion = z.infer<typeof DocumentVersionSchema>;

/** `?newerThan=v` of GET /api/surveys/{id} and /api/reports/{id}. */
export const NewerThanQuerySchema = z.object({ newerThan: z.coerce.number().int().min(0).optional() });

/** Answer of a versioned save: the stored version (the sent one + 1). */
export const VersionedSaveResponseSchema = z.object({ id: DocumentIdSchema, version: VersionSchema });
export type VersionedSaveResponse = z.infer<typeof VersionedSaveResponseSchema>;
