import { z } from "zod";
import { DocumentIdSchema, TenantIdSchema } from "./common.js";
import { VersionSchema } from "./survey.js";

/** A report (SPEC 3): a script, a markup template and mock sample data. */
export const ReportSchema = z.object({
  id: DocumentIdSchema,
  title: z.string().trim().max(500).default("Unnamed Report"),
  script: z.string().max(200_000).default(""),
  markup: z.string().max(500_000).default(""),
  mock: z.unknown().default({}),
  clinical: z.boolean().default(false),
  version: VersionSchema.default(0),
});
export type Report = z.infer<typeof ReportSchema>;

/** A report as GET /api/reports/{id} answers it. */
export const ReportResponseSchema = ReportSchema.extend({ readOnly: z.boolean() });
export type ReportResponse = z.infer<typeof ReportResponseSchema>;

/** An item of the report lists. */
export const ReportSummarySchema = z.object({
  id: DocumentIdSchema,
  title: z.string(),
  version: VersionSchema,
  clinical: z.boolean(),
  tenantId: TenantIdSchema,
});
export type ReportSummary = z.infer<typeof ReportSummarySchema>;
