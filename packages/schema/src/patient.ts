import { z } from "zod";
import { ETHNICITIES, RACES, US_STATES } from "./lists.js";
import {
  CursorSchema,
  DocumentIdSchema,
  EmailSchema,
  NameSchema,
  ObjectIdSchema,
  TimestampSchema,
} from "./common.js";

export const SexSchema = z.enum(["F", "M", "U"]);

/**
 * The languages patients can read the patient screens, the built-in surveys and the invitation e-mail
 * in. Staff screens stay in English.
 */
export const PATIENT_LANGUAGES = ["en", "es"] as const;
export const PatientLanguageSchema = z.enum(PATIENT_LANGUAGES);
export type PatientLanguage = z.infer<typeof PatientLanguageSchema>;

const optionalText = (max: number) =>
  z.preprocess((v) => (v === "" || v === null ? undefined : v), z.string().trim().max(max).optional());

export const AddressSchema = z.object({
  street: z.string().trim().max(200).default(""),
  city: z.string().trim().max(100).default(""),
  state: z.union([z.enum(US_STATES), z.literal("")]).default(""),
  zip: z.union([z.string().regex(/^\d{5}(-\d{4})?$/, "Must be a ZIP code."), z.literal("")]).default(""),
});
export type Address = z.infer<typeof AddressSchema>;

/** A patient as created or updated (body of POST /api/patients and PUT /api/patients/{id}). */
export const PatientInputSchema = z.object({
  mrn: z.string().trim().min(1, "This field is required.").max(64),
  firstName: NameSchema,
  lastName: NameSchema,
  dob: z.iso.date("Must be a date (YYYY-MM-DD)."),
  sex: SexSchema,
  email: z.preprocess((v) => (v === "" || v === null ? undefined : v), EmailSchema.optional()),
  phone: optionalText(32),
  address: AddressSchema.optional(),
  ethnicity: z.preprocess((v) => (v === "" || v === null ? undefined : v), z.enum(ETHNICITIES).optional()),
  race: z.preprocess((v) => (v === "" || v === null ? undefined : v), z.enum(RACES).optional()),
  locationId: z.preprocess((v) => (v === "" || v === null ? undefined : v), ObjectIdSchema.optional()),
  preferredLanguage: z.preprocess(
    (v) => (v === "" || v === null ? undefined : v),
    PatientLanguageSchema.optional(),
  ),
});
export type PatientInput = z.infer<typeof PatientInputSchema>;

/** A patient. */
export const PatientSchema = PatientInputSchema.extend({ id: ObjectIdSchema });
export type Patient = z.infer<typeof PatientSchema>;

/**
 * Query of GET /api/patients (typeahead uses limit=5). `cursor` (from the last answer's `nextCursor` or
 * `prevCursor`) pages by keyset and takes precedence over `page`.
 */
export const PatientListQuerySchema = z.object({
  q: z.string().trim().max(200).optional(),
  sort: z.enum(["lastName", "firstName", "mrn", "dob"]).default("lastName"),
  order: z.enum(["asc", "desc"]).default("asc"),
  page: z.coerce.number().int().min(1).max(1_000_000).default(1),
  limit: z.coerce.number().int().min(1).max(200).default(200),
  cursor: CursorSchema.optional(),
});
export type PatientListQuery = z.infer<typeof PatientListQuerySchema>;

/** An item of GET /api/patients/{patientId}/surveys. */
export const PatientSurveySchema = z.object({
  surveyId: DocumentIdSchema,
  title: z.string(),
  assignedAt: TimestampSchema,
});
export type PatientSurvey = z.infer<typeof PatientSurveySchema>;

/** Body of POST /api/patients/{patientId}/surveys. */
export const AssignSurveyRequestSchema = z.object({ surveyId: DocumentIdSchema });
export type AssignSurveyRequest = z.infer<typeof AssignSurveyRequestSchema>;
