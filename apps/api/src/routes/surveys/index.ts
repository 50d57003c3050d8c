import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import {
  DocumentIdSchema,
  DocumentVersionSchema,
  listOf,
  NewerThanQuerySchema,
  SurveyResponseSchema,
  SurveySchema,
  SurveySummarySchema,
  VersionedSaveResponseSchema,
  VersionSchema,
} from "@core-care/schema";
import { authOf, tenantOf } from "../../plugins/auth-context.js";
import { fieldError } from "../../errors.js";
import {
  deleteSurvey,
  getSurvey,
  getSurveyVersion,
  listSurveys,
  listSurveyVersions,
  saveSurvey,
} from "../../services/documents.js";

const IdParams = z.object({ id: DocumentIdSchema });

/** Surveys: users read (their tenant's and subscribable ones), admins save with a version check. */
const surveysRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get("/surveys", { schema: { response: { 200: listOf(SurveySummarySchema) } } }, async (request) =>
    listSurveys(app.db, authOf(request).tenantId),
  );

  app.get(
    "/surveys/:id",
    {
      schema: {
        params: IdParams,
        querystring: NewerThanQuerySchema,
        response: { 200: SurveyResponseSchema, 204: z.null() },
      },
    },
    async (request, reply) => {
      const survey = await getSurvey(app.db, tenantOf(request), request.params.id, request.query.newerThan);
      // Not newer than the caller's copy: an empty answer, and the caller keeps its local copy (SPEC 7).
      if (survey === undefined) return reply.code(204).send(null);
      return survey;
    },
  );

  app.post(
    "/surveys/:id",
    {
      schema: { params: IdParams, body: SurveySchema, response: { 200: VersionedSaveResponseSchema } },
    },
    async (request) => {
      const auth = authOf(request);
      if (request.body.id !== request.params.id) throw fieldError("id", "Must match the id in the path.");
      const saved = await saveSurvey(app.db, auth.tenantId, request.body, auth.userId);
      await request.audit("update", "survey", saved.id);
      return saved;
    },
  );

  app.delete("/surveys/:id", { schema: { params: IdParams } }, async (request, reply) => {
    await deleteSurvey(app.db, authOf(request).tenantId, request.params.id);
    await request.audit("delete", "survey", request.params.id);
    return reply.code(204).send();
  });

  app.get(
    "/surveys/:id/versions",
    {
      schema: { params: IdParams, response: { 200: z.array(DocumentVersionSchema) } },
    },
    async (request) => listSurveyVersions(app.db, authOf(request).tenantId, request.params.id),
  );

  app.get(
    "/surveys/:id/versions/:version",
    {
      schema: {
        params: IdParams.extend({ version: z.coerce.number().pipe(VersionSchema) }),
        response: { 200: SurveySchema },
      },
    },
    async (request) =>
      getSurveyVersion(app.db, authOf(request).tenantId, request.params.id, request.params.version),
  );
};

export default surveysRoutes;
