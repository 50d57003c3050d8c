import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import {
  ChangePasswordRequestSchema,
  LoginRequestSchema,
  MeSchema,
  PasswordResetParamsSchema,
} from "@core-care/schema";
import { SESSION_COOKIE } from "../../plugins/session.js";
import { requireRole } from "../../plugins/auth.js";
import { AppError, fieldError, tooManyRequests } from "../../errors.js";
import { audit } from "../../services/audit.js";
import { passwordProblem, verifyAgainstDummy, verifyPassword } from "../../services/passwords.js";
import { consumeResetToken, createResetToken, setPassword } from "../../services/password-reset.js";
import { findUserByEmail, loadMe, userTenantIds } from "../../services/users.js";
import { userTenants } from "../../db/schema.js";
import { and, eq } from "drizzle-orm";

/** The one answer for an unknown e-mail and for a wrong password, so neither reveals the other. */
const INVALID_LOGIN = "Invalid email or password.";

const authRoutes: FastifyPluginAsyncZod = async (app) => {
  const throttle = app.loginThrottle;

  app.post(
    "/auth/sessions",
    { schema: { body: LoginRequestSchema, response: { 200: MeSchema } } },
    async (request) => {
      const { email, password } = request.body;
      if (throttle.isBlocked(email, request.ip)) throw tooManyRequests();
      const user = await findUserByEmail(app.db, email);
      const valid =
        user === undefined
          ? await verifyAgainstDummy(password)
          : await verifyPassword(password, user.passwordHash);
      const tenantIds = valid && user !== undefined ? await userTenantIds(app.db, user.id) : [];
      const tenantId = tenantIds[0];
      if (user === undefined || !valid || tenantId === undefined) {
        throttle.recordFailure(email, request.ip);
        throw new AppError(401, "INVALID_LOGIN", INVALID_LOGIN);
      }
      throttle.recordSuccess(email, request.ip);
      const [membership] = await app.db
        .select({ roles: userTenants.roles })
        .from(userTenants)
        .where(and(eq(userTenants.userId, user.id), eq(userTenants.tenantId, tenantId)));
      // A new session id at every sign-in (session fixation).
      await request.session.regenerate();
      const now = Date.now();
      request.session.set("userId", user.id);
      request.session.set("tenantId", tenantId);
      request.session.set("createdAt", now);
      request.session.set("lastSeenAt", now);
      await audit(app.db, { tenantId, userId: user.id, action: "login", entity: "session", ip: request.ip });
      return loadMe(app.db, { userId: user.id, tenantId, roles: membership?.roles ?? 0 });
    },
  );

  app.delete("/auth/sessions", async (request, reply) => {
    const auth = request.auth;
    if (auth !== null) {
      await audit(app.db, {
        tenantId: auth.tenantId,
        userId: auth.userId,
        action: "logout",
        entity: "session",
        ip: request.ip,
      });
    }
    if (request.session !== null && request.session !== undefined) await request.session.destroy();
    return reply
      .clearCookie(SESSION_COOKIE, { path: "/" })
      .header("Clear-Site-Data", '"cache", "cookies", "storage"')
      .code(204)
      .send();
  });

  app.get("/auth/keepalive", { onRequest: requireRole("user") }, async (_request, reply) =>
    reply.code(204).send(),
  );

  app.delete(
    "/auth/passwords/:email",
    { schema: { params: PasswordResetParamsSchema } },
    async (request, reply) => {
      const { email } = request.params;
      const user = await findUserByEmail(app.db, email);
      if (user !== undefined && !throttle.isBlocked(`reset:${email}`, request.ip)) {
        throttle.recordFailure(`reset:${email}`, request.ip);
        const token = await createResetToken(app.db, user.id);
        const link = `${app.config.publicUrl}/auth/changepassword?email=${encodeURIComponent(user.email)}&pwd=${encodeURIComponent(token)}`;
        try {
          await app.mailer.send({
            to: user.email,
            subject: "Reset your Core Care password",
            text:
              `Someone asked to reset the password of your Core Care account.\n\n` +
              `To choose a new password, open this link within one hour:\n${link}\n\n` +
              `If you did not ask for this, you can ignore this e-mail; your password stays as it is.\n`,
          });
        } catch (err) {
          request.log.error({ err: { message: (err as Error).message } }, "password reset mail failed");
        }
      }
      return reply.code(204).send();
    },
  );

  app.post(
    "/auth/passwords",
    { schema: { body: ChangePasswordRequestSchema, response: { 204: z.null() } } },
    async (request, reply) => {
      const { email, oldPassword, password } = request.body;
      if (throttle.isBlocked(email, request.ip)) throw tooManyRequests();
      const problem = passwordProblem(password, { email });
      if (problem !== undefined) throw fieldError("password", problem);
      const user = await findUserByEmail(app.db, email);
      const proven =
        user === undefined
          ? await verifyAgainstDummy(oldPassword)
          : (await consumeResetToken(app.db, user.id, oldPassword)) ||
            (await verifyPassword(oldPassword, user.passwordHash));
      if (user === undefined || !proven) {
        throttle.recordFailure(email, request.ip);
        throw fieldError("oldPassword", "The current password or reset link is not valid.");
      }
      throttle.recordSuccess(email, request.ip);
      await setPassword(app.db, user.id, password);
      const [tenantId] = await userTenantIds(app.db, user.id);
      if (tenantId !== undefined) {
        await audit(app.db, {
          tenantId,
          userId: user.id,
          action: "update",
          entity: "password",
          entityId: user.id,
          ip: request.ip,
        });
      }
      return reply.code(204).send(null);
    },
  );
};

export default authRoutes;
