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
 * handed over, takes it back.
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
      const staffCreatedAt = request.session.get("createdAt");
      // The staff session ends here: its row is destroyed and this browser gets a new id that carries
      // only the patient credential.
      await request.session.regenerate();
      const now = Date.now();
      request.session.set("tenantId", auth.tenantId);
      request.session.set("handoverId", handover.handoverId);
      request.session.set("idleGraceSeconds", IDLE_GRACE_SECONDS);
      request.session.set("staffCreatedAt", staffCreatedAt ?? now);
      request.session.set("createdAt", now);
      request.session.set("lastSeenAt", now);
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
      const staff = await returnToStaff(app, tablet, request.body.password, request.ip);
      const staffCreatedAt = request.session.get("staffCreatedAt");
      // Back to the staff session of whoever handed over; its absolute lifetime still counts from their
      // own sign-in, so the return never extends it.
      await request.session.regenerate();
      request.session.set("userId", staff.userId);
      request.session.set("tenantId", tablet.tenantId);
      request.session.set("createdAt", staffCreatedAt ?? Date.now());
      request.session.set("lastSeenAt", Date.now());
      return loadMe(app.db, { userId: staff.userId, tenantId: tablet.tenantId, roles: staff.roles });
    },
  );
};

export default tabletRoutes;
