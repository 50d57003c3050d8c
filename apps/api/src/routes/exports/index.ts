import { Readable } from "node:stream";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { PatientListQuerySchema, SurveyResultListQuerySchema } from "@core-care/schema";
import { authOf } from "../../plugins/auth-context.js";
import { CSV_BOM, csvRow } from "../../services/csv.js";
import {
  patientsForExport,
  resultsForExport,
  type PatientExportRow,
  type ResultExportRow,
} from "../../services/list-export.js";

const RESULT_HEADER = [
  "Started (UTC)",
  "Last saved (UTC)",
  "Survey",
  "Survey version",
  "Status",
  "Last name",
  "First name",
  "MRN",
  "Date of birth",
  "Result id",
  "Patient id",
];

const PATIENT_HEADER = [
  "Last name",
  "First name",
  "MRN",
  "Date of birth",
  "Sex",
  "E-mail",
  "Phone",
  "Patient id",
];

function resultLine(row: ResultExportRow): string {
  return csvRow([
    row.createdAt.toISOString(),
    row.updatedAt.toISOString(),
    row.surveyTitle,
    row.surveyVersion,
    row.isSubmitted ? "Submitted" : "In progress",
    row.lastName,
    row.firstName,
    row.mrn,
    row.dob,
    row.id,
    row.patientId,
  ]);
}

function patientLine(row: PatientExportRow): string {
  return csvRow([row.lastName, row.firstName, row.mrn, row.dob, row.sex, row.email, row.phone, row.id]);
}

/** The list filters without paging: an export carries every row they select. */
const ResultExportQuerySchema = SurveyResultListQuerySchema.omit({ page: true });
const PatientExportQuerySchema = PatientListQuerySchema.omit({ page: true, limit: true });

const today = () => new Date().toISOString().slice(0, 10);

/**
 * CSV exports of the results and patients lists with the filters the list shows (docs/api.md), streamed
 * a page at a time; every cell a spreadsheet would run as a formula is written as text (services/csv.ts).
 * An export of patient data is on the audit trail with its filters.
 */
const exportRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    "/surveyresults/export",
    { schema: { querystring: ResultExportQuerySchema } },
    async (request, reply) => {
      const { tenantId } = authOf(request);
      await request.audit("export", "survey-result-list", null, { ...request.query });
      async function* lines() {
        yield CSV_BOM + csvRow(RESULT_HEADER);
        for await (const rows of resultsForExport(app.db, tenantId, request.query)) {
          yield rows.map(resultLine).join("");
        }
      }
      return reply
        .type("text/csv; charset=utf-8")
        .header("content-disposition", `attachment; filename="survey-results-${today()}.csv"`)
        .send(Readable.from(lines()));
    },
  );

  app.get(
    "/patients/export",
    { schema: { querystring: PatientExportQuerySchema } },
    async (request, reply) => {
      const { tenantId } = authOf(request);
      await request.audit("export", "patient-list", null, { ...request.query });
      async function* lines() {
        yield CSV_BOM + csvRow(PATIENT_HEADER);
        for await (const rows of patientsForExport(app.db, tenantId, request.query)) {
          yield rows.map(patientLine).join("");
        }
      }
      return reply
        .type("text/csv; charset=utf-8")
        .header("content-disposition", `attachment; filename="patients-${today()}.csv"`)
        .send(Readable.from(lines()));
    },
  );
};

export default exportRoutes;
