import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import {
  listOf,
  ObjectIdSchema,
  SurveyResultListQuerySchema,
  SurveyResultSaveRequestSchema,
  SurveyResultSaveResponseSchema,
  SurveyResultSchema,
  SurveyResultSummarySchema,
} from "@core-care/schema";
import { requireRole } from "../../plugins/auth.js";
import { authOf } from "../../plugins/auth-context.js";
import { audit } from "../../services/audit.js";
import { deleteResult, getResult, listResults, saveResult } from "../../services/survey-results.js";

const IdParams = z.object({ id: ObjectIdSchema });

/** Survey results of the session's tenant: tablet saves, lists by duration filter and patient, reads. */
const surveyResultsRoutes: FastifyPluginAsyncZod = async (app) => {
  app.addHook("onRequest", requireRole("user"));

  app.post(
    "/surveyresults",
    { schema: { body: SurveyResultSaveRequestSchema, response: { 200: SurveyResultSaveResponseSchema } } },
    async (request) => {
      const auth = authOf(request);
      const outcome = await saveResult(app.db, auth.tenantId, request.body, auth.userId);
      const action = outcome.submitted ? "submit" : outcome.created ? "create" : "update";
      await audit(app.db, {
        tenantId: auth.tenantId,
        userId: auth.userId,
        action,
        entity: "survey-result",
        entityId: outcome.id,
        ip: request.ip,
      });
      return { id: outcome.id };
    },
  );

  app.get(
    "/surveyresults",
    {
      schema: {
        querystring: SurveyResultListQuerySchema,
        response: { 200: listOf(SurveyResultSummarySchema) },
      },
    },
    async (request) => {
      const page = await listResults(app.db, authOf(request).tenantId, request.query);
      await request.audit("list", "survey-result");
      return page;
    },
  );

  app.get(
    "/surveyresults/:id",
    { schema: { params: IdParams, response: { 200: SurveyResultSchema } } },
    async (request) => {
      const result = await getResult(app.db, authOf(request).tenantId, request.params.id);
      await request.audit("read", "survey-result", result.id);
      return result;
    },
  );

  app.delete("/surveyresults/:id", { schema: { params: IdParams } }, async (request, reply) => {
    await deleteResult(app.db, authOf(request).tenantId, request.params.id);
    await request.audit("delete", "survey-result", request.params.id);
    return reply.code(204).send();
  });
};

export default surveyResultsRoutes;
