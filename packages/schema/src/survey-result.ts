import { z } from "zod";
import { CursorSchema, DocumentIdSchema, ObjectIdSchema, TimestampSchema } from "./common.js";
import { DurationSchema } from "./duration.js";
import { VersionSchema } from "./survey.js";

/** Answers keyed by field name; nested objects for dotted field names (SPEC 3). */
export const AnswersSchema = z.record(z.string().max(200), z.unknown());
export type Answers = z.infer<typeof AnswersSchema>;

/** A client-made key that makes a retried save idempotent. */
export const ClientRequestIdSchema = z
  .string()
  .regex(/^[A-Za-z0-9_-]{8,64}$/, "Must be 8 to 64 of [A-Za-z0-9_-].");

/** Body of POST /api/surveyresults. */
export const SurveyResultSaveRequestSchema = z.object({
  id: ObjectIdSchema.optional(),
  clientRequestId: ClientRequestIdSchema,
  surveyId: DocumentIdSchema,
  patientId: ObjectIdSchema,
  isSubmitted: z.boolean().default(false),
  answers: AnswersSchema.default({}),
});
export type SurveyResultSaveRequest = z.infer<typeof SurveyResultSaveRequestSchema>;

/** Answer of POST /api/surveyresults (SPEC 7: the result id). */
export const SurveyResultSaveResponseSchema = z.object({ id: ObjectIdSchema });
export type SurveyResultSaveResponse = z.infer<typeof SurveyResultSaveResponseSchema>;

/** An item of GET /api/surveyresults. */
export const SurveyResultSummarySchema = z.object({
  id: ObjectIdSchema,
  surveyId: DocumentIdSchema,
  surveyTitle: z.string(),
  surveyVersion: VersionSchema,
  patientId: ObjectIdSchema,
  patientName: z.string(),
  isSubmitted: z.boolean(),
  createdAt: TimestampSchema,
  updatedAt: TimestampSchema,
});
export type SurveyResultSummary = z.infer<typeof SurveyResultSummarySchema>;

/**
 * An item of GET /api/surveyresults: the summary with the patient's identifiers, so the list can sort
 * by last name and show the MRN and birth date (empty when the patient row is missing).
 */
export const SurveyResultListItemSchema = SurveyResultSummarySchema.extend({
  patientFirstName: z.string(),
  patientLastName: z.string(),
  patientMrn: z.string(),
  patientDob: z.string(),
});
export type SurveyResultListItem = z.infer<typeof SurveyResultListItemSchema>;

/** A survey result with its answers, pinned to the survey version it was taken on. */
export const SurveyResultSchema = SurveyResultSummarySchema.extend({ answers: AnswersSchema });
export type SurveyResult = z.infer<typeof SurveyResultSchema>;

/** Query of GET /api/surveyresults. */
export const SurveyResultListQuerySchema = z.object({
  duration: DurationSchema.default(5),
  patientId: ObjectIdSchema.optional(),
  surveyId: DocumentIdSchema.optional(),
  page: z.coerce.number().int().min(1).max(1_000_000).default(1),
  /** Keyset paging from the last answer's `nextCursor` or `prevCursor`; takes precedence over `page`. */
  cursor: CursorSchema.optional(),
});
export type SurveyResultListQuery = z.infer<typeof SurveyResultListQuerySchema>;

/** Query of GET /api/surveyresults/report: the period, and whether the report keeps protected fields. */
export const ReportDataQuerySchema = z
  .object({
    duration: DurationSchema.default(5),
    clinical: z
      .enum(["true", "false"])
      .default("false")
      .transform((value) => value === "true"),
    /** Only results started on or after this day (UTC), within the duration. */
    from: z.iso.date("Must be a date (YYYY-MM-DD).").optional(),
    /** Only results started on or before this day (UTC), within the duration. */
    to: z.iso.date("Must be a date (YYYY-MM-DD).").optional(),
  })
  .superRefine((query, ctx) => {
    if (query.from !== undefined && query.to !== undefined && query.to < query.from) {
      ctx.addIssue({ code: "custom", path: ["to"], message: "The last day must be on or after the first." });
    }
  });
export type ReportDataQuery = z.infer<typeof ReportDataQuerySchema>;

/**
 * One line of GET /api/surveyresults/report (newline-delimited JSON): a result with its answers, then
 * one `end` line with the count; a stream without its `end` line was cut short.
 */
export type ReportDataLine =
  | { type: "result"; result: Partial<SurveyResult> & Pick<SurveyResult, "id" | "answers"> }
  | { type: "end"; count: number; duration: string };
