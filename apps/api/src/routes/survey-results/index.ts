import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import {
  listOf,
  ObjectIdSchema,
  pagedListOf,
  PreventionPlanResponseSchema,
  SurveyResultListItemSchema,
  SurveyResultListQuerySchema,
  SurveyResultSaveRequestSchema,
  SurveyResultSaveResponseSchema,
  SurveyResultSchema,
  SurveyResultSummarySchema,
} from "@core-care/schema";
import type { FastifyRequest } from "fastify";
import { authOf } from "../../plugins/auth-context.js";
import reportDataRoutes from "./report.js";
import { bindHandoverResult, endHandover } from "../../services/handovers.js";
import { Batcher } from "../../services/batcher.js";
import { assertAnswersAllowed } from "../../services/answer-check.js";
import { saveResults, type ResultSave, type SaveAnswer } from "../../services/result-saves.js";
import { mailSafetyAlerts } from "../../services/safety-alerts.js";
import { sendJsonText } from "../../serializer.js";
import { preventionPlan } from "../../services/prevention-plan.js";
import {
  deleteResult,
  getResult,
  listRemovedResults,
  listResultsJson,
  restoreResult,
} from "../../services/survey-results.js";

const IdParams = z.object({ id: ObjectIdSchema });

/**
 * Who a save is written for: the staff member, or, on a handed-over tablet, the staff member who handed
 * it over (the permission table has already held the tablet to its own result).
 */
function saverOf(request: FastifyRequest): { tenantId: string; userId: string } {
  if (request.tablet !== null)
    return { tenantId: request.tablet.tenantId, userId: request.tablet.staffUserId };
  const auth = authOf(request);
  return { tenantId: auth.tenantId, userId: auth.userId };
}

/** A save with the size of its request, which bounds how much one statement carries. */
interface WeighedSave extends ResultSave {
  bytes: number;
}

/** Survey results of the session's tenant: tablet saves, lists by duration filter and patient, reads. */
const surveyResultsRoutes: FastifyPluginAsyncZod = async (app) => {
  await app.register(reportDataRoutes);
  // Saves arriving together share one statement and one commit; each is still answered after its commit.
  // New results and changes go in separate runs, so that each run is one statement.
  const batcher = (keyOf?: (save: WeighedSave) => string) =>
    new Batcher<WeighedSave, SaveAnswer>((batch) => saveResults(app.db, batch, app.database.execute), {
      maxBatch: 200,
      maxWeight: 8 * 1024 * 1024,
      weightOf: (save) => save.bytes,
      maxInFlight: app.database.kind === "pglite" ? 1 : 2,
      onRun: (size) => app.metrics.saveBatchSize.observe(size),
      ...(keyOf === undefined ? {} : { keyOf }),
    });
  const creates = batcher();
  const changes = batcher((save) => `${save.tenantId} ${save.input.id}`);

  app.post(
    "/surveyresults",
    { schema: { body: SurveyResultSaveRequestSchema, response: { 200: SurveyResultSaveResponseSchema } } },
    async (request, reply) => {
      const saver = saverOf(request);
      // Answers the survey does not allow are refused before anything is written (400, field named).
      await assertAnswersAllowed(app.db, saver.tenantId, request.body);
      // The save writes its own audit event in the same statement.
      const save: WeighedSave = {
        tenantId: saver.tenantId,
        userId: saver.userId,
        ip: request.ip,
        input: request.body,
        bytes: Number(request.headers["content-length"] ?? 0),
      };
      const answer = await (save.input.id === undefined ? creates : changes).add(save);
      if (!answer.ok) throw answer.error;
      const { id, alerts, submitted } = answer.outcome;
      // The patient's submit does not wait on the mail server; the alert itself is already stored.
      void mailSafetyAlerts(
        { db: app.db, mailer: app.mailer, log: request.log, publicUrl: app.config.publicUrl },
        saver.tenantId,
        id,
        alerts,
      );
      const tablet = request.tablet;
      if (tablet !== null) {
        await bindHandoverResult(app.db, tablet, id);
        // A submit ends the patient credential on the server; the tablet then signs out.
        if (submitted) {
          await endHandover(app.db, tablet, "submit", { userId: null, ip: request.ip });
          await request.session.destroy();
          reply.clearSessionCookie();
        }
      }
      return { id };
    },
  );

  app.get(
    "/surveyresults",
    {
      schema: {
        querystring: SurveyResultListQuerySchema,
        response: { 200: pagedListOf(SurveyResultListItemSchema) },
      },
    },
    async (request, reply) => {
      const tenantId = authOf(request).tenantId;
      // At most the practice's share of the list reads at once (services/tenant-slots.ts).
      const page = await app.listSlots.run(tenantId, () =>
        listResultsJson(
          app.db,
          tenantId,
          request.query,
          new Date(),
          // One survey's results are planned for the survey asked for: one generic plan cannot know whether
          // it has most of the practice's results or a few, and reading the whole list in date order for a
          // rarely used survey's page took 287 ms at a million results, against 1-2 ms by the survey's index.
          request.query.surveyId === undefined ? app.database.executeList : app.database.execute,
          app.cappedLists,
        ),
      );
      await request.audit("list", "survey-result");
      return sendJsonText(reply, page);
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

  // The personalised prevention plan and the billing suggestion of a result: decision support for staff.
  app.get(
    "/surveyresults/:id/plan",
    { schema: { params: IdParams, response: { 200: PreventionPlanResponseSchema } } },
    async (request) => {
      const plan = await preventionPlan(app.db, authOf(request).tenantId, request.params.id);
      await request.audit("read", "prevention-plan", plan.resultId);
      return plan;
    },
  );

  app.get(
    "/surveyresults/removed",
    { schema: { response: { 200: listOf(SurveyResultSummarySchema) } } },
    async (request) => {
      const page = await listRemovedResults(app.db, authOf(request).tenantId);
      await request.audit("list", "removed-survey-result");
      return page;
    },
  );

  app.post(
    "/surveyresults/:id/restore",
    { schema: { params: IdParams, response: { 200: SurveyResultSchema } } },
    async (request) => {
      const result = await restoreResult(app.db, authOf(request).tenantId, request.params.id);
      await request.audit("restore", "survey-result", result.id);
      return result;
    },
  );

  app.delete("/surveyresults/:id", { schema: { params: IdParams } }, async (request, reply) => {
    const auth = authOf(request);
    await deleteResult(app.db, auth.tenantId, request.params.id, { userId: auth.userId, ip: request.ip });
    // This process's lists now, before the database's notification reaches it.
    app.cappedLists.forget(authOf(request).tenantId);
    await request.audit("delete", "survey-result", request.params.id);
    return reply.code(204).send();
  });
};

export default surveyResultsRoutes;
