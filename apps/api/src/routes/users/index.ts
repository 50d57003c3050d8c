import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { and, eq } from "drizzle-orm";
import {
  CreateUserRequestSchema,
  EmailSchema,
  hasRole,
  listOf,
  MeSchema,
  ObjectIdSchema,
  parseRolesText,
  SwitchTenantRequestSchema,
  TestUserCreateRequestSchema,
  UpdateMeRequestSchema,
  UpdateUserRequestSchema,
  UserSchema,
} from "@core-care/schema";
import { randomBytes } from "node:crypto";
import { requireRole, type AuthContext } from "../../plugins/auth.js";
import { authOf } from "../../plugins/auth-context.js";
import { conflict, fieldError, forbidden, notFound, tooManyRequests, unauthorized } from "../../errors.js";
import { userTenants, users } from "../../db/schema.js";
import { passwordProblem, verifyPassword } from "../../services/passwords.js";
import { setPassword } from "../../services/password-reset.js";
import { audit } from "../../services/audit.js";
import {
  createTenantUser,
  findUserByEmail,
  getTenantUser,
  listUsers,
  loadMe,
  removeTenantUser,
} from "../../services/users.js";

/** An admin may grant only the flags they hold themselves; only a sysAdmin grants sysAdmin. */
function assertMayGrant(auth: AuthContext, roles: number): void {
  if (hasRole(roles, "sysAdmin") && !hasRole(auth.roles, "sysAdmin"))
    throw forbidden("Only a sysAdmin can grant sysAdmin.");
}

const usersRoutes: FastifyPluginAsyncZod = async (app) => {
  const testMode = app.config.nodeEnv === "development" || app.config.nodeEnv === "test";

  app.get(
    "/users/me",
    { onRequest: requireRole("user"), schema: { response: { 200: MeSchema } } },
    async (request) => loadMe(app.db, authOf(request)),
  );

  app.put(
    "/users/me",
    { onRequest: requireRole("user"), schema: { body: UpdateMeRequestSchema, response: { 200: MeSchema } } },
    async (request) => {
      const auth = authOf(request);
      const body = request.body;
      const [row] = await app.db.select().from(users).where(eq(users.id, auth.userId));
      if (row === undefined) throw unauthorized();
      if (app.loginThrottle.isBlocked(row.email, request.ip)) throw tooManyRequests();
      if (!(await verifyPassword(body.currentPassword, row.passwordHash))) {
        app.loginThrottle.recordFailure(row.email, request.ip);
        throw fieldError("currentPassword", "The current password is not correct.");
      }
      if (body.newPassword !== undefined) {
        const problem = passwordProblem(body.newPassword, { email: row.email });
        if (problem !== undefined) throw fieldError("newPassword", problem);
      }
      await app.db
        .update(users)
        .set({ firstName: body.firstName, lastName: body.lastName, updatedAt: new Date() })
        .where(eq(users.id, auth.userId));
      if (body.newPassword !== undefined) await setPassword(app.db, auth.userId, body.newPassword, auth.sid);
      await request.audit("update", "user", auth.userId);
      return loadMe(app.db, auth);
    },
  );

  app.put(
    "/users/me/tenant",
    {
      onRequest: requireRole("user"),
      schema: { body: SwitchTenantRequestSchema, response: { 200: MeSchema } },
    },
    async (request) => {
      const auth = authOf(request);
      const { tenantId } = request.body;
      const [membership] = await app.db
        .select({ roles: userTenants.roles })
        .from(userTenants)
        .where(and(eq(userTenants.userId, auth.userId), eq(userTenants.tenantId, tenantId)));
      if (membership === undefined) throw notFound("Tenant");
      const createdAt = request.session.get("createdAt");
      // A new session id whenever the tenant changes, like at sign-in.
      await request.session.regenerate();
      request.session.set("userId", auth.userId);
      request.session.set("tenantId", tenantId);
      request.session.set("createdAt", createdAt ?? Date.now());
      request.session.set("lastSeenAt", Date.now());
      await audit(app.db, {
        tenantId,
        userId: auth.userId,
        action: "update",
        entity: "session-tenant",
        entityId: tenantId,
        ip: request.ip,
      });
      return loadMe(app.db, { ...auth, tenantId, roles: membership.roles });
    },
  );

  app.get(
    "/users",
    { onRequest: requireRole("admin"), schema: { response: { 200: listOf(UserSchema) } } },
    async (request) => {
      const auth = authOf(request);
      await request.audit("list", "user");
      return listUsers(app.db, auth.tenantId);
    },
  );

  app.post(
    "/users",
    {
      onRequest: requireRole("admin"),
      schema: { body: z.record(z.string(), z.unknown()), response: { 201: UserSchema } },
    },
    async (request, reply) => {
      const auth = authOf(request);
      let input: { email: string; firstName: string; lastName: string; roles: number; password: string };
      if ("name" in request.body && !("firstName" in request.body)) {
        // The test form of /auth/test (SPEC 2): name, email and free-text roles; development and test only.
        if (!testMode) throw notFound("Resource");
        const form = TestUserCreateRequestSchema.parse(request.body);
        const roles = parseRolesText(form.roles);
        if (roles === undefined)
          throw fieldError("roles", "Must be role names such as User, Admin or SysAdmin.");
        const [firstName = form.name, ...rest] = form.name.split(/\s+/);
        input = {
          email: form.email,
          firstName,
          lastName: rest.join(" "),
          roles,
          password: app.config.demoPassword,
        };
      } else {
        const body = CreateUserRequestSchema.parse(request.body);
        if (body.password !== undefined) {
          const problem = passwordProblem(body.password, { email: body.email });
          if (problem !== undefined) throw fieldError("password", problem);
        }
        // Without a password the user chooses one through "forgot password".
        input = { ...body, password: body.password ?? randomBytes(32).toString("base64url") };
      }
      assertMayGrant(auth, input.roles);
      const user = await createTenantUser(app.db, auth.tenantId, input);
      await request.audit("create", "user", user.id);
      return reply.code(201).send(user);
    },
  );

  app.put(
    "/users/:id",
    {
      onRequest: requireRole("admin"),
      schema: {
        params: z.object({ id: ObjectIdSchema }),
        body: UpdateUserRequestSchema,
        response: { 200: UserSchema },
      },
    },
    async (request) => {
      const auth = authOf(request);
      const { id } = request.params;
      await getTenantUser(app.db, auth.tenantId, id);
      assertMayGrant(auth, request.body.roles);
      if (
        id === auth.userId &&
        !hasRole(request.body.roles, "admin") &&
        !hasRole(request.body.roles, "sysAdmin")
      ) {
        throw conflict("You cannot remove your own admin role.");
      }
      await app.db.transaction(async (tx) => {
        await tx
          .update(users)
          .set({ firstName: request.body.firstName, lastName: request.body.lastName, updatedAt: new Date() })
          .where(eq(users.id, id));
        await tx
          .update(userTenants)
          .set({ roles: request.body.roles })
          .where(and(eq(userTenants.userId, id), eq(userTenants.tenantId, auth.tenantId)));
      });
      await request.audit("update", "user", id);
      return getTenantUser(app.db, auth.tenantId, id);
    },
  );

  app.delete(
    "/users/:idOrEmail",
    {
      onRequest: requireRole("admin"),
      schema: { params: z.object({ idOrEmail: z.string().min(1).max(254) }) },
    },
    async (request, reply) => {
      const auth = authOf(request);
      const { idOrEmail } = request.params;
      let userId: string;
      if (ObjectIdSchema.safeParse(idOrEmail).success) {
        userId = idOrEmail;
      } else {
        // Deleting by e-mail is the test form's call (SPEC 7); development and test only.
        const email = EmailSchema.safeParse(idOrEmail);
        if (!testMode || !email.success) throw notFound("User");
        const user = await findUserByEmail(app.db, email.data);
        if (user === undefined) throw notFound("User");
        userId = user.id;
      }
      if (userId === auth.userId) throw conflict("You cannot delete your own account.");
      const target = await getTenantUser(app.db, auth.tenantId, userId);
      if (hasRole(target.roles, "sysAdmin") && !hasRole(auth.roles, "sysAdmin")) throw forbidden();
      if (!(await removeTenantUser(app.db, auth.tenantId, userId))) throw notFound("User");
      await request.audit("delete", "user", userId);
      return reply.code(204).send();
    },
  );
};

export default usersRoutes;
