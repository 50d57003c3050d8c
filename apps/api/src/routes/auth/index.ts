import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import type { FastifyRequest } from "fastify";
import { z } from "zod";
import {
  ChangePasswordRequestSchema,
  LoginRequestSchema,
  MeSchema,
  PasswordResetParamsSchema,
  SecondFactorNeededSchema,
  SignInEnrolledSchema,
  TotpCodeRequestSchema,
  TotpEnrolmentSchema,
  type Me,
} from "@core-care/schema";
import { AppError, unauthorized } from "../../errors.js";
import { audit } from "../../services/audit.js";
import { endHandover } from "../../services/handovers.js";
import { changePassword, requestPasswordReset } from "../../services/password-reset.js";
import {
  assertSessionTransport,
  grantSession,
  holdPendingSignIn,
  type SessionGrant,
} from "../../services/session-grant.js";
import { checkPassword, landingTenant } from "../../services/sign-in.js";
import { confirmEnrolment, REQUIRED_BY_PRACTICE, startEnrolment } from "../../services/totp.js";
import { loadMe } from "../../services/users.js";

/** How long a sign-in may wait for its second factor (or its enrolment) after the password. */
export const PENDING_SIGN_IN_MS = 10 * 60 * 1000;

const authRoutes: FastifyPluginAsyncZod = async (app) => {
  /**
   * Signs the browser in through the second-factor rule (services/session-grant.ts), audited as `login`
   * with the factor used. Answers what the rule still needs when it does not admit.
   */
  async function signIn(
    request: FastifyRequest,
    user: { userId: string; tenantId: string; roles: number },
    factor: SessionGrant["factor"],
  ): Promise<Me | { needs: "code" | "enrol" }> {
    const outcome = await grantSession(app, request, { ...user, factor });
    if (!outcome.granted) return { needs: outcome.needs };
    const used = factor === "enrolled" ? "totp" : outcome.factor;
    await audit(app.db, {
      tenantId: user.tenantId,
      userId: user.userId,
      action: "login",
      entity: "session",
      ip: request.ip,
      details: used === undefined ? undefined : { secondFactor: used },
    });
    return loadMe(app.db, user);
  }

  /** A second step of a sign-in that must sign in: what the rule still needs is the practice's factor. */
  const signedIn = (answer: Me | { needs: "code" | "enrol" }): Me => {
    if ("needs" in answer) throw new AppError(403, "TOTP_REQUIRED", REQUIRED_BY_PRACTICE);
    return answer;
  };

  /**
   * The sign-in waiting for its second factor in this session, with where its user lands. A pending
   * sign-in holds no tenant, so the auth plugin admits it nowhere but these steps.
   */
  async function pendingSignIn(request: FastifyRequest) {
    const { pendingUserId, pendingAt } = request.session;
    if (
      pendingUserId === undefined ||
      pendingAt === undefined ||
      Date.now() - pendingAt > PENDING_SIGN_IN_MS
    ) {
      throw unauthorized("Your sign-in has expired. Please sign in again.");
    }
    const landing = await landingTenant(app.db, pendingUserId);
    if (landing === undefined) throw unauthorized("Your sign-in has expired. Please sign in again.");
    return { userId: pendingUserId, ...landing };
  }

  app.post(
    "/auth/sessions",
    {
      schema: {
        body: LoginRequestSchema,
        response: { 200: MeSchema, 202: SecondFactorNeededSchema },
      },
    },
    async (request, reply) => {
      // Before the password is looked at: over plain HTTP no session cookie would reach the browser.
      assertSessionTransport(request);
      const { email, password } = request.body;
      const user = await checkPassword(app, email, password, request.ip);
      const answer = await signIn(request, user, "none");
      if (!("needs" in answer)) return answer;
      // The password was right; the session stays without access until the second step.
      await holdPendingSignIn(request, user.userId);
      return reply.code(202).send({ secondFactor: answer.needs === "code" ? "totp" : "enrol" });
    },
  );

  app.post(
    "/auth/sessions/totp",
    { schema: { body: TotpCodeRequestSchema, response: { 200: MeSchema } } },
    async (request) => {
      const pending = await pendingSignIn(request);
      return signedIn(await signIn(request, pending, { code: request.body.code }));
    },
  );

  app.post(
    "/auth/sessions/totp/enrolment",
    { schema: { response: { 200: TotpEnrolmentSchema } } },
    async (request) => {
      const pending = await pendingSignIn(request);
      return startEnrolment(app.db, pending.userId);
    },
  );

  app.post(
    "/auth/sessions/totp/enrolment/confirm",
    { schema: { body: TotpCodeRequestSchema, response: { 200: SignInEnrolledSchema } } },
    async (request) => {
      const pending = await pendingSignIn(request);
      const recoveryCodes = await confirmEnrolment(
        app,
        { userId: pending.userId, tenantId: pending.tenantId, ip: request.ip, purpose: "enrol" },
        request.body.code,
      );
      const me = signedIn(await signIn(request, pending, "enrolled"));
      return { me, recoveryCodes };
    },
  );

  app.delete("/auth/sessions", async (request, reply) => {
    const { auth, tablet } = request;
    if (auth !== null) {
      await audit(app.db, {
        tenantId: auth.tenantId,
        userId: auth.userId,
        action: "logout",
        entity: "session",
        ip: request.ip,
      });
    }
    if (tablet !== null) await endHandover(app.db, tablet, "logout", { userId: null, ip: request.ip });
    if (request.session !== null && request.session !== undefined) await request.session.destroy();
    return reply
      .clearSessionCookie()
      .header("Clear-Site-Data", '"cache", "cookies", "storage"')
      .code(204)
      .send();
  });

  app.get("/auth/keepalive", async (_request, reply) => reply.code(204).send());

  app.delete(
    "/auth/passwords/:email",
    { schema: { params: PasswordResetParamsSchema } },
    async (request, reply) => {
      const { email } = request.params;
      const ip = request.ip;
      app.runAfterAnswer("password reset", () =>
        requestPasswordReset({
          db: app.db,
          mailer: app.mailer,
          throttle: app.loginThrottle,
          log: request.log,
          publicUrl: app.config.publicUrl,
          email,
          ip,
        }),
      );
      return reply.code(204).send();
    },
  );

  app.post(
    "/auth/passwords",
    { schema: { body: ChangePasswordRequestSchema, response: { 204: z.null() } } },
    async (request, reply) => {
      const { email, oldPassword, password } = request.body;
      await changePassword(app, { email, oldPassword, password, ip: request.ip });
      return reply.code(204).send(null);
    },
  );
};

export default authRoutes;
