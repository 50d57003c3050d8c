import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import {
  IdResponseSchema,
  OkResponseSchema,
  SendAwvEmailRequestSchema,
  TeleAwvSubmitRequestSchema,
} from "@core-care/schema";
import { requireRole } from "../../plugins/auth.js";
import { authOf } from "../../plugins/auth-context.js";
import { sendInvitation, submitTeleAwv } from "../../services/tele-awv.js";

/**
 * Tele-AWV (SPEC 7): staff e-mail an invitation (sendAWVEmail, forwarded to sendAWVEmail2) and the
 * patient submits the questionnaire with the link's token (teleawv, forwarded to sendAWV). Each pair
 * shares one handler, so the spec's forwarding costs no second round trip.
 */
const teleAwvRoutes: FastifyPluginAsyncZod = async (app) => {
  const sendEmail = {
    onRequest: requireRole("user"),
    schema: { body: SendAwvEmailRequestSchema, response: { 200: OkResponseSchema } },
  };
  for (const path of ["/auth/sendAWVEmail", "/auth/sendAWVEmail2"]) {
    app.post(path, sendEmail, async (request) => {
      const auth = authOf(request);
      await sendInvitation(app.db, app.mailer, {
        log: request.log,
        tenantId: auth.tenantId,
        userId: auth.userId,
        ip: request.ip,
        request: request.body,
        publicUrl: app.config.publicUrl,
      });
      return { ok: true as const };
    });
  }

  const submit = { schema: { body: TeleAwvSubmitRequestSchema, response: { 200: IdResponseSchema } } };
  for (const path of ["/auth/teleawv", "/auth/sendAWV"]) {
    app.post(path, submit, async (request) => {
      const id = await submitTeleAwv(app.db, app.mailer, {
        request: request.body,
        publicUrl: app.config.publicUrl,
        ip: request.ip,
        log: request.log,
      });
      return { id };
    });
  }
};

export default teleAwvRoutes;
