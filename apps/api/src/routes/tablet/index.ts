import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import {
  HandoverEndQuerySchema,
  HandoverRequestSchema,
  MeSchema,
  StaffReturnRequestSchema,
  TabletHandoverSchema,
} from "@core-care/schema";
import { authOf, tabletOf } from "../../plugins/auth-context.js";
import { endHandover, handoverState, startHandover } from "../../services/handovers.js";
import { handOverSession } from "../../services/session-grant.js";
import { returnToStaff } from "../../services/staff-return.js";
import { loadMe } from "../../services/users.js";

/**
 * Seconds a patient session outlives the browser's idle timeout: the tablet pings at most every 300 s of
 * activity (SPEC 9), so the answers it sends as it times out still arrive; the browser ends the hand-over
 * itself right after.
 */
const IDLE_GRACE_SECONDS = 360;

/**
 * The tablet hand-over: staff hand the browser to one patient for one survey, which ends their session
 * there and leaves a patient credential in its place; the Staff button, with the password of whoever
 * handed over (and a code of their second factor when they have one), takes it back.
 */
const tabletRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    "/tablet/handovers",
    { schema: { body: HandoverRequestSchema, response: { 201: TabletHandoverSchema } } },
    async (request, reply) => {
      const auth = authOf(request);
      const handover = await startHandover(app.db, {
        tenantId: auth.tenantId,
        staffUserId: auth.userId,
        ...request.body,
      });
      // The staff session ends here: its row is destroyed and this browser gets a new id that carries
      // only the patient credential.
      await handOverSession(request, {
        tenantId: auth.tenantId,
        handoverId: handover.handoverId,
        idleGraceSeconds: IDLE_GRACE_SECONDS,
      });
      await request.audit("handover", "tablet-handover", handover.handoverId, {
        patientId: handover.patientId,
        surveyId: handover.surveyId,
      });
      return reply.code(201).send(await handoverState(app.db, handover, app.config.idleTimeoutSeconds));
    },
  );

  app.get("/tablet/handover", { schema: { response: { 200: TabletHandoverSchema } } }, async (request) =>
    handoverState(app.db, tabletOf(request), app.config.idleTimeoutSeconds),
  );

  app.delete(
    "/tablet/handover",
    { schema: { querystring: HandoverEndQuerySchema, response: { 204: z.null() } } },
    async (request, reply) => {
      const tablet = tabletOf(request);
      await endHandover(app.db, tablet, request.query.reason, { userId: null, ip: request.ip });
      await request.session.destroy();
      return reply.clearSessionCookie().code(204).send(null);
    },
  );

  app.post(
    "/tablet/handover/staff",
    { schema: { body: StaffReturnRequestSchema, response: { 200: MeSchema } } },
    async (request) => {
      const tablet = tabletOf(request);
      const staff = await returnToStaff(app, request, tablet, request.body);
      return loadMe(app.db, { userId: staff.userId, tenantId: tablet.tenantId, roles: staff.roles });
    },
  );
};

export default tabletRoutes;
