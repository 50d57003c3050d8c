import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import {
  CreateUserRequestSchema,
  EmailSchema,
  InvitationAcceptRequestSchema,
  InvitationAcceptResponseSchema,
  InvitationLookupRequestSchema,
  InvitationLookupResponseSchema,
  listOf,
  MeSchema,
  ObjectIdSchema,
  parseRolesText,
  SwitchTenantRequestSchema,
  TestUserCreateRequestSchema,
  UpdateMeRequestSchema,
  UpdateUserRequestSchema,
  UserInvitedSchema,
  UserSchema,
} from "@core-care/schema";
import { randomBytes } from "node:crypto";
import type { FastifyRequest } from "fastify";
import { authOf } from "../../plugins/auth-context.js";
import { fieldError, notFound } from "../../errors.js";
import { passwordProblem } from "../../services/passwords.js";
import { switchTenant, updateMe } from "../../services/account.js";
import {
  acceptInvitation,
  asSeenBy,
  createOrInviteUser,
  invitationPractice,
  removeUserFromTenant,
  updateTenantUser,
  type Editor,
} from "../../services/user-admin.js";
import { findUserByEmail, listUsers, loadMe, tenantContextWords } from "../../services/users.js";

const editorOf = (request: FastifyRequest): Editor => ({ ...authOf(request), ip: request.ip });

const usersRoutes: FastifyPluginAsyncZod = async (app) => {
  const testMode = app.config.nodeEnv === "development" || app.config.nodeEnv === "test";

  app.get("/users/me", { schema: { response: { 200: MeSchema } } }, async (request) =>
    loadMe(app.db, authOf(request)),
  );

  app.put(
    "/users/me",
    { schema: { body: UpdateMeRequestSchema, response: { 200: MeSchema } } },
    async (request) => updateMe(app, authOf(request), request.body, request.ip),
  );

  app.put(
    "/users/me/tenant",
    { schema: { body: SwitchTenantRequestSchema, response: { 200: MeSchema } } },
    async (request) => switchTenant(app, request, request.body.tenantId),
  );

  app.get("/users", { schema: { response: { 200: listOf(UserSchema) } } }, async (request) => {
    const auth = authOf(request);
    await request.audit("list", "user");
    const page = await listUsers(app.db, auth.tenantId);
    return { ...page, items: page.items.map((user) => asSeenBy(auth, user)) };
  });

  app.post(
    "/users",
    {
      schema: {
        body: z.record(z.string(), z.unknown()),
        response: { 201: UserSchema, 202: UserInvitedSchema },
      },
    },
    async (request, reply) => {
      const auth = authOf(request);
      let input: { email: string; firstName: string; lastName: string; roles: number; password: string };
      let invitePassword = false;
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
          const problem = passwordProblem(body.password, {
            email: body.email,
            words: await tenantContextWords(app.db, auth.tenantId),
          });
          if (problem !== undefined) throw fieldError("password", problem);
        }
        // Without a password the new person is e-mailed a single-use link to choose one; until then the
        // account's password is random and known to nobody.
        invitePassword = body.password === undefined;
        input = { ...body, password: body.password ?? randomBytes(32).toString("base64url") };
      }
      const outcome = await createOrInviteUser(
        app.db,
        app.mailer,
        app.config.publicUrl,
        editorOf(request),
        input,
        { invitePassword: invitePassword },
      );
      return outcome.kind === "created"
        ? reply.code(201).send(asSeenBy(auth, outcome.user))
        : reply.code(202).send({ invited: true as const, email: outcome.email });
    },
  );

  app.put(
    "/users/:id",
    {
      schema: {
        params: z.object({ id: ObjectIdSchema }),
        body: UpdateUserRequestSchema,
        response: { 200: UserSchema },
      },
    },
    async (request) => {
      const editor = editorOf(request);
      return asSeenBy(editor, await updateTenantUser(app.db, editor, request.params.id, request.body));
    },
  );

  app.delete(
    "/users/:idOrEmail",
    { schema: { params: z.object({ idOrEmail: z.string().min(1).max(254) }) } },
    async (request, reply) => {
      const editor = editorOf(request);
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
      await removeUserFromTenant(app.db, editor, userId);
      return reply.code(204).send();
    },
  );

  // The token travels in the body, never the URL, so that no log or history keeps it.
  app.post(
    "/users/invitations/lookup",
    {
      schema: { body: InvitationLookupRequestSchema, response: { 200: InvitationLookupResponseSchema } },
    },
    async (request) => invitationPractice(app.db, request.body.token),
  );

  app.post(
    "/users/invitations/accept",
    { schema: { body: InvitationAcceptRequestSchema, response: { 200: InvitationAcceptResponseSchema } } },
    async (request) => ({ tenant: await acceptInvitation(app.db, request.body, request.ip) }),
  );
};

export default usersRoutes;
