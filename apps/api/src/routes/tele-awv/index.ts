import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import {
  OkResponseSchema,
  SendAwvEmailRequestSchema,
  TeleAwvDraftSavedSchema,
  TeleAwvDraftSchema,
  TeleAwvLinkSchema,
  TeleAwvSubmitRequestSchema,
  TeleAwvSubmitResponseSchema,
} from "@core-care/schema";
import { authOf, teleAwvOf } from "../../plugins/auth-context.js";
import {
  linkState,
  purgeExpiredDrafts,
  saveDraft,
  sendInvitation,
  submitTeleAwv,
} from "../../services/tele-awv.js";

/** How often drafts of links that expired unsubmitted are cleared. */
const DRAFT_PURGE_MS = 60 * 60 * 1000;

/**
 * Tele-AWV (SPEC 7): staff e-mail an invitation (sendAWVEmail, forwarded to sendAWVEmail2) and the
 * patient submits the questionnaire with the link's token as its credential (teleawv, forwarded to
 * sendAWV). Each pair shares one handler, so the spec's forwarding costs no second round trip. The
 * patient's page also asks what state its link is in and keeps its progress as a draft of that link.
 */
const teleAwvRoutes: FastifyPluginAsyncZod = async (app) => {
  const sendEmail = {
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
        ttlMs: app.config.teleAwvLinkTtlSeconds * 1000,
      });
      return { ok: true as const };
    });
  }

  const submit = {
    schema: {
      body: TeleAwvSubmitRequestSchema.omit({ token: true }),
      response: { 200: TeleAwvSubmitResponseSchema },
    },
  };
  for (const path of ["/auth/teleawv", "/auth/sendAWV"]) {
    app.post(path, submit, async (request) =>
      submitTeleAwv(app.db, app.mailer, {
        // The link's token came as the request's credential (`Authorization: Bearer`), not in the body.
        request: { ...request.body, token: teleAwvOf(request).token },
        publicUrl: app.config.publicUrl,
        ip: request.ip,
        log: request.log,
      }),
    );
  }

  app.get("/auth/teleawv/link", { schema: { response: { 200: TeleAwvLinkSchema } } }, async (request) => {
    // The table admits an open link's credential or a spent link's, nothing else.
    const credential = request.teleAwv ?? request.spentLink;
    if (credential === null) throw new Error("the link route ran without a Tele-AWV token");
    return linkState(app.db, credential);
  });

  app.put(
    "/auth/teleawv/draft",
    { schema: { body: TeleAwvDraftSchema, response: { 200: TeleAwvDraftSavedSchema } } },
    async (request) => ({ savedAt: await saveDraft(app.db, teleAwvOf(request), request.body) }),
  );

  const timer = setInterval(() => {
    purgeExpiredDrafts(app.db).catch((err: unknown) =>
      app.log.warn({ err: { message: (err as Error).message } }, "purging expired Tele-AWV drafts failed"),
    );
  }, DRAFT_PURGE_MS);
  timer.unref();
  app.addHook("onClose", async () => clearInterval(timer));
};

export default teleAwvRoutes;
