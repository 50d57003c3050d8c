import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import {
  DocumentIdSchema,
  DocumentVersionSchema,
  listOf,
  NewerThanQuerySchema,
  ReportResponseSchema,
  ReportSchema,
  ReportSummarySchema,
  VersionedSaveResponseSchema,
  VersionSchema,
} from "@core-care/schema";
import { authOf } from "../../plugins/auth-context.js";
import { fieldError } from "../../errors.js";
import {
  deleteReport,
  getReport,
  getReportVersion,
  listReports,
  listReportVersions,
  saveReport,
} from "../../services/documents.js";

const IdParams = z.object({ id: DocumentIdSchema });

/** Reports: users read their tenant's, admins save with the same version check as surveys. */
const reportsRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get("/reports", { schema: { response: { 200: listOf(ReportSummarySchema) } } }, async (request) =>
    listReports(app.db, authOf(request).tenantId),
  );

  app.get(
    "/reports/:id",
    {
      schema: {
        params: IdParams,
        querystring: NewerThanQuerySchema,
        response: { 200: ReportResponseSchema, 204: z.null() },
      },
    },
    async (request, reply) => {
      const report = await getReport(
        app.db,
        authOf(request).tenantId,
        request.params.id,
        request.query.newerThan,
      );
      // Not newer than the caller's copy: an empty answer, and the caller keeps its local copy (SPEC 7).
      if (report === undefined) return reply.code(204).send(null);
      return report;
    },
  );

  app.post(
    "/reports/:id",
    {
      schema: { params: IdParams, body: ReportSchema, response: { 200: VersionedSaveResponseSchema } },
    },
    async (request) => {
      const auth = authOf(request);
      if (request.body.id !== request.params.id) throw fieldError("id", "Must match the id in the path.");
      const saved = await saveReport(app.db, auth.tenantId, request.body, auth.userId);
      await request.audit("update", "report", saved.id);
      return saved;
    },
  );

  app.delete("/reports/:id", { schema: { params: IdParams } }, async (request, reply) => {
    await deleteReport(app.db, authOf(request).tenantId, request.params.id);
    await request.audit("delete", "report", request.params.id);
    return reply.code(204).send();
  });

  app.get(
    "/reports/:id/versions",
    {
      schema: { params: IdParams, response: { 200: z.array(DocumentVersionSchema) } },
    },
    async (request) => listReportVersions(app.db, authOf(request).tenantId, request.params.id),
  );

  app.get(
    "/reports/:id/versions/:version",
    {
      schema: {
        params: IdParams.extend({ version: z.coerce.number().pipe(VersionSchema) }),
        response: { 200: ReportSchema },
      },
    },
    async (request) =>
      getReportVersion(app.db, authOf(request).tenantId, request.params.id, request.params.version),
  );
};

export default reportsRoutes;
