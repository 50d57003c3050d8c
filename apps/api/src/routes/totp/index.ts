import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import {
  RecoveryCodesSchema,
  TotpCodeRequestSchema,
  TotpEnrolmentSchema,
  TotpOffRequestSchema,
  TotpStatusSchema,
} from "@core-care/schema";
import { authOf } from "../../plugins/auth-context.js";
import { markSecondFactor } from "../../services/session-grant.js";
import { confirmEnrolment, startEnrolment, totpStatus, turnOff } from "../../services/totp.js";

/** The signed-in user's own second factor (TOTP, RFC 6238): status, setting it up, turning it off. */
const totpRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get("/users/me/totp", { schema: { response: { 200: TotpStatusSchema } } }, async (request) =>
    totpStatus(app.db, authOf(request).userId),
  );

  app.post(
    "/users/me/totp/enrolment",
    { schema: { response: { 200: TotpEnrolmentSchema } } },
    async (request) => startEnrolment(app.db, authOf(request).userId),
  );

  app.post(
    "/users/me/totp/enrolment/confirm",
    { schema: { body: TotpCodeRequestSchema, response: { 200: RecoveryCodesSchema } } },
    async (request) => {
      const auth = authOf(request);
      const recoveryCodes = await confirmEnrolment(
        app,
        { userId: auth.userId, tenantId: auth.tenantId, ip: request.ip, purpose: "enrol" },
        request.body.code,
        // This session shows it holds the factor, recorded before the factor goes on so that its own
        // requests meanwhile still pass; the user's other sessions have not, and end at their next
        // request (the second-factor rule).
        () => markSecondFactor(request),
      );
      return { recoveryCodes };
    },
  );

  app.delete(
    "/users/me/totp",
    { schema: { body: TotpOffRequestSchema, response: { 204: z.null() } } },
    async (request, reply) => {
      const auth = authOf(request);
      await turnOff(
        app,
        { userId: auth.userId, tenantId: auth.tenantId, ip: request.ip, purpose: "turn-off" },
        request.body,
      );
      return reply.code(204).send(null);
    },
  );
};

export default totpRoutes;
