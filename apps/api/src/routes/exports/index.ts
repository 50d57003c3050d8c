import { Readable } from "node:stream";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import {
  DeliveryListQuerySchema,
  PatientListQuerySchema,
  SurveyResultListQuerySchema,
  type DeliveryListItem,
} from "@core-care/schema";
import { listTenantDeliveries } from "../../delivery/outbox.js";
import { authOf } from "../../plugins/auth-context.js";
import { CSV_BOM, csvRow } from "../../services/csv.js";
import {
  EXPORT_MAX_ROWS,
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

const DELIVERY_HEADER = [
  "Queued (UTC)",
  "Status",
  "Attempts",
  "Interface",
  "Interface type",
  "Format",
  "Patient",
  "Last error",
  "Delivered (UTC)",
  "Control id",
  "Result id",
  "Delivery id",
];

function deliveryLine(row: DeliveryListItem): string {
  return csvRow([
    row.createdAt,
    row.status,
    row.attempts,
    row.interfaceName,
    row.interfaceType,
    row.format,
    row.patientName,
    row.lastError,
    row.deliveredAt,
    row.controlId,
    row.resultId,
    row.id,
  ]);
}

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
const DeliveryExportQuerySchema = DeliveryListQuerySchema.omit({ before: true, limit: true });

/** Rows of the Deliveries list read per statement while its export streams (the list's largest page). */
const DELIVERY_EXPORT_PAGE = 200;

const today = () => new Date().toISOString().slice(0, 10);

/**
 * CSV exports of the results, patients and deliveries lists with the filters the list shows (docs/api.md), streamed
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

  app.get(
    "/deliveries/export",
    { schema: { querystring: DeliveryExportQuerySchema } },
    async (request, reply) => {
      const { tenantId } = authOf(request);
      await request.audit("export", "delivery-list", null, { ...request.query });
      async function* lines() {
        yield CSV_BOM + csvRow(DELIVERY_HEADER);
        // The Deliveries list's own pages, newest first, by keyset, up to the export's limit.
        let before: string | undefined;
        for (let written = 0; written < EXPORT_MAX_ROWS;) {
          const page = await listTenantDeliveries(app.db, tenantId, {
            ...request.query,
            limit: Math.min(DELIVERY_EXPORT_PAGE, EXPORT_MAX_ROWS - written),
            ...(before === undefined ? {} : { before }),
          });
          yield page.items.map(deliveryLine).join("");
          written += page.items.length;
          if (page.nextBefore === null) return;
          before = page.nextBefore;
        }
      }
      return reply
        .type("text/csv; charset=utf-8")
        .header("content-disposition", `attachment; filename="deliveries-${today()}.csv"`)
        .send(Readable.from(lines()));
    },
  );
};

export default exportRoutes;
