import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { and, eq } from "drizzle-orm";
import { Role, type ErrorResponse, type User } from "@core-care/schema";
import { auditEvents, userTenants, users } from "../../db/schema.js";
import { createTestApp, errorFields, login, type Session, type TestApp } from "../../../test/helpers.js";
import { invitationTokenOf, outboxMessages } from "../../../test/mail.js";

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

async function rolesIn(tenantId: string, userId: string): Promise<number | undefined> {
  const [row] = await t.db
    .select({ roles: userTenants.roles })
    .from(userTenants)
    .where(and(eq(userTenants.tenantId, tenantId), eq(userTenants.userId, userId)));
  return row?.roles;
}

async function auditRows(tenantId: string, entityId: string, action: string) {
  return t.db
    .select()
    .from(auditEvents)
    .where(
      and(
        eq(auditEvents.tenantId, tenantId),
        eq(auditEvents.entityId, entityId),
        eq(auditEvents.action, action),
      ),
    );
}

/** An admin signed in to a practice of their own, and a colleague there holding `roles`. */
async function adminWithColleague(roles: number, editorRole: "admin" | "sysAdmin" = "admin") {
  const editor = await t.createTestTenant({ role: editorRole });
  const colleague = await t.createTestUser(editor.tenantId);
  await t.db
    .update(userTenants)
    .set({ roles })
    .where(and(eq(userTenants.tenantId, editor.tenantId), eq(userTenants.userId, colleague.userId)));
  const s = await login(t.app, editor.email);
  return { editor, colleague, s };
}

const put = (s: Session, id: string, payload: Record<string, unknown>) =>
  s.inject({ method: "PUT", url: `/api/users/${id}`, payload });

const namesOf = async (s: Session, id: string) => {
  const list = await s.inject({ method: "GET", url: "/api/users" });
  const user = list.json<{ items: User[] }>().items.find((u) => u.id === id);
  if (user === undefined) throw new Error("user not listed");
  return { firstName: user.firstName, lastName: user.lastName };
};

describe("PUT /api/users/{id}: an admin and the roles they do not hold", () => {
  test("refuses Save with nothing changed on a sysAdmin (the roles the admin can see) and keeps 4", async () => {
    const { editor, colleague, s } = await adminWithColleague(Role.sysAdmin);
    const names = await namesOf(s, colleague.userId);
    // The form an admin sees offers User and Admin only; with neither ticked it used to send User.
    for (const roles of [Role.user, Role.sysAdmin, Role.none]) {
      const res = await put(s, colleague.userId, { ...names, roles });
      expect(res.statusCode, res.body).toBe(403);
    }
    expect(await rolesIn(editor.tenantId, colleague.userId)).toBe(Role.sysAdmin);
    expect(await auditRows(editor.tenantId, colleague.userId, "roles")).toHaveLength(0);
  });

  test("refuses to grant sysAdmin to a plain user", async () => {
    const { editor, colleague, s } = await adminWithColleague(Role.user);
    const res = await put(s, colleague.userId, { ...(await namesOf(s, colleague.userId)), roles: 5 });
    expect(res.statusCode).toBe(403);
    expect(await rolesIn(editor.tenantId, colleague.userId)).toBe(Role.user);
  });

  test("refuses to take sysAdmin from a user who also holds roles the admin holds", async () => {
    const { editor, colleague, s } = await adminWithColleague(Role.user | Role.sysAdmin);
    const res = await put(s, colleague.userId, { ...(await namesOf(s, colleague.userId)), roles: Role.user });
    expect(res.statusCode).toBe(403);
    expect(await rolesIn(editor.tenantId, colleague.userId)).toBe(Role.user | Role.sysAdmin);
  });

  test("refuses to edit or remove a user holding a role the admin lacks", async () => {
    const { editor, colleague, s } = await adminWithColleague(Role.admin | Role.sysAdmin);
    const rename = await put(s, colleague.userId, { firstName: "Re", lastName: "Named", roles: 6 });
    expect(rename.statusCode).toBe(403);
    const remove = await s.inject({ method: "DELETE", url: `/api/users/${colleague.userId}` });
    expect(remove.statusCode).toBe(403);
    expect(await rolesIn(editor.tenantId, colleague.userId)).toBe(Role.admin | Role.sysAdmin);
    const [row] = await t.db.select().from(users).where(eq(users.id, colleague.userId));
    expect(row?.firstName).toBe("Test");
  });

  test("refuses an admin taking their own admin role, and keeps it", async () => {
    const admin = await t.createTestTenant({ role: "admin" });
    const s = await login(t.app, admin.email);
    const res = await put(s, admin.userId, { ...(await namesOf(s, admin.userId)), roles: Role.user });
    expect(res.statusCode).toBe(409);
    expect(res.json<ErrorResponse>().responseStatus.message).toMatch(/own admin role/);
    expect(await rolesIn(admin.tenantId, admin.userId)).toBe(Role.admin);
  });

  test("changes a plain user's roles within the admin's own, audited with who, whom, from and to", async () => {
    const { editor, colleague, s } = await adminWithColleague(Role.user);
    const res = await put(s, colleague.userId, {
      ...(await namesOf(s, colleague.userId)),
      roles: Role.user | Role.admin,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<User>().roles).toBe(3);
    const rows = await auditRows(editor.tenantId, colleague.userId, "roles");
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      userId: editor.userId,
      entity: "user",
      entityId: colleague.userId,
      details: { from: ["user"], to: ["user", "admin"] },
    });
  });
});

describe("PUT and DELETE /api/users/{id}: a sysAdmin", () => {
  test("changes a sysAdmin's roles, grants and takes sysAdmin, audited", async () => {
    const { editor, colleague, s } = await adminWithColleague(Role.sysAdmin, "sysAdmin");
    const names = await namesOf(s, colleague.userId);
    const take = await put(s, colleague.userId, { ...names, roles: Role.admin });
    expect(take.statusCode, take.body).toBe(200);
    expect(await rolesIn(editor.tenantId, colleague.userId)).toBe(Role.admin);
    const grant = await put(s, colleague.userId, { ...names, roles: Role.admin | Role.sysAdmin });
    expect(grant.statusCode, grant.body).toBe(200);
    expect(await rolesIn(editor.tenantId, colleague.userId)).toBe(Role.admin | Role.sysAdmin);
    const rows = await auditRows(editor.tenantId, colleague.userId, "roles");
    expect(rows.map((r) => r.details)).toEqual(
      expect.arrayContaining([
        { from: ["sysAdmin"], to: ["admin"] },
        { from: ["admin"], to: ["admin", "sysAdmin"] },
      ]),
    );
    expect(rows.every((r) => r.userId === editor.userId)).toBe(true);
  });

  test("removes a user holding sysAdmin, audited with their roles", async () => {
    const { editor, colleague, s } = await adminWithColleague(Role.sysAdmin, "sysAdmin");
    expect((await s.inject({ method: "DELETE", url: `/api/users/${colleague.userId}` })).statusCode).toBe(
      204,
    );
    expect(await rolesIn(editor.tenantId, colleague.userId)).toBeUndefined();
    const [row] = await auditRows(editor.tenantId, colleague.userId, "delete");
    expect(row).toMatchObject({ userId: editor.userId, details: { roles: ["sysAdmin"] } });
  });
});

describe("POST /api/users with the e-mail of a person of another practice", () => {
  /** A person who belongs only to another practice, and an admin of a practice of their own. */
  async function stranger() {
    const admin = await t.createTestTenant({ role: "admin" });
    const person = await t.createTestTenant({ role: "user" });
    const s = await login(t.app, admin.email);
    const before = outboxMessages(t.config.dataDir).length;
    const res = await s.inject({
      method: "POST",
      url: "/api/users",
      payload: {
        firstName: "Changed",
        lastName: "Elsewhere",
        email: person.email.toUpperCase(),
        roles: Role.user | Role.admin,
        password: "a brand new password the admin picked",
      },
    });
    return { admin, person, s, res, before };
  }

  test("answers 202 with only the e-mail, changes nothing of theirs, and e-mails an invitation", async () => {
    const { admin, person, s, res, before } = await stranger();
    expect(res.statusCode, res.body).toBe(202);
    expect(res.json()).toEqual({ invited: true, email: person.email });
    expect(res.body).not.toContain(person.tenantId);
    expect(res.body).not.toContain("Test");

    const [row] = await t.db.select().from(users).where(eq(users.id, person.userId));
    expect(row).toMatchObject({ firstName: "Test" });
    expect(row?.lastName).not.toBe("Elsewhere");
    expect(await rolesIn(admin.tenantId, person.userId)).toBeUndefined();
    await expect(login(t.app, person.email, "a brand new password the admin picked")).rejects.toThrow(/401/);
    const theirs = await login(t.app, person.email);
    expect(theirs.me.tenant.id).toBe(person.tenantId);
    expect(theirs.me.user.tenants).toEqual([person.tenantId]);

    const list = await s.inject({ method: "GET", url: "/api/users" });
    expect(list.json<{ items: User[] }>().items.map((u) => u.id)).not.toContain(person.userId);

    const messages = outboxMessages(t.config.dataDir);
    expect(messages).toHaveLength(before + 1);
    expect(messages.at(-1)).toContain(`To: ${person.email}`);
    const [invite] = await auditRows(admin.tenantId, person.userId, "invite");
    expect(invite).toMatchObject({ userId: admin.userId, details: { roles: ["user", "admin"] } });
  });

  test("the e-mailed invitation accepted once makes them a member with the offered roles; a second use is refused", async () => {
    const { admin, person, before } = await stranger();
    const message = outboxMessages(t.config.dataDir)[before] ?? "";
    const token = invitationTokenOf(message);
    const accept = () =>
      t.app.inject({
        method: "POST",
        url: "/api/users/invitations/accept",
        headers: { "x-requested-with": "XMLHttpRequest" },
        payload: { token },
      });

    const lookup = () =>
      t.app.inject({
        method: "POST",
        url: "/api/users/invitations/lookup",
        headers: { "x-requested-with": "XMLHttpRequest" },
        payload: { token },
      });
    const offered = await lookup();
    expect(offered.statusCode, offered.body).toBe(200);
    expect(offered.json()).toEqual({
      tenant: { id: admin.tenantId, name: `Test practice ${admin.tenantId.slice(-6)}` },
      newAccount: false,
    });
    expect(await rolesIn(admin.tenantId, person.userId)).toBeUndefined();

    const first = await accept();
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json<{ tenant: { id: string } }>().tenant.id).toBe(admin.tenantId);
    expect(await rolesIn(admin.tenantId, person.userId)).toBe(Role.user | Role.admin);
    expect(await rolesIn(person.tenantId, person.userId)).toBe(Role.user);
    const [row] = await t.db.select().from(users).where(eq(users.id, person.userId));
    expect(row?.firstName).toBe("Test");
    const [accepted] = await auditRows(admin.tenantId, person.userId, "accept");
    expect(accepted).toMatchObject({ userId: person.userId, details: { invitedBy: admin.userId } });

    const second = await accept();
    expect(second.statusCode).toBe(403);
    expect((await lookup()).statusCode).toBe(403);
    expect(await rolesIn(admin.tenantId, person.userId)).toBe(Role.user | Role.admin);
  });

  test.each(["lookup", "accept"])("%s refuses a token that was never issued", async (step) => {
    const res = await t.app.inject({
      method: "POST",
      url: `/api/users/invitations/${step}`,
      headers: { "x-requested-with": "XMLHttpRequest" },
      payload: { token: "A".repeat(43) },
    });
    expect(res.statusCode).toBe(403);
  });

  test("answers 400 naming token for a malformed one", async () => {
    const res = await t.app.inject({
      method: "POST",
      url: "/api/users/invitations/accept",
      headers: { "x-requested-with": "XMLHttpRequest" },
      payload: { token: "short" },
    });
    expect(res.statusCode).toBe(400);
    expect(errorFields(res)).toEqual(["token"]);
  });
});

describe("POST /api/users without a password: the new person chooses theirs", () => {
  const invitation = (path: "lookup" | "accept", payload: Record<string, unknown>) =>
    t.app.inject({
      method: "POST",
      url: `/api/users/invitations/${path}`,
      headers: { "x-requested-with": "XMLHttpRequest" },
      payload,
    });

  test("e-mails a single-use link where the new account chooses a password that meets every rule", async () => {
    const admin = await t.createTestTenant({ role: "admin" });
    const s = await login(t.app, admin.email);
    const email = `new-admin-${Date.now()}@example.test`;
    const before = outboxMessages(t.config.dataDir).length;
    const res = await s.inject({
      method: "POST",
      url: "/api/users",
      payload: { firstName: "Nora", lastName: "New", email, roles: Role.admin },
    });
    expect(res.statusCode, res.body).toBe(201);
    const user = res.json<User>();
    const messages = outboxMessages(t.config.dataDir);
    expect(messages).toHaveLength(before + 1);
    const message = messages.at(-1) ?? "";
    expect(message).toContain(`To: ${email}`);
    expect(message).toContain("Subject: Your Core Care account at Test practice");
    const token = invitationTokenOf(message);

    const offered = await invitation("lookup", { token });
    expect(offered.json()).toEqual({
      tenant: { id: admin.tenantId, name: `Test practice ${admin.tenantId.slice(-6)}` },
      newAccount: true,
      email,
    });

    // Every refusal names its field and leaves the link usable.
    for (const [payload, field] of [
      [{ token }, "password"],
      [{ token, password: "short one", confirmPassword: "short one" }, "password"],
      [{ token, password: "passwordpassword", confirmPassword: "passwordpassword" }, "password"],
      [
        { token, password: `${email.split("@")[0]} rocks`, confirmPassword: `${email.split("@")[0]} rocks` },
        "password",
      ],
      [
        { token, password: "quiet heron over the marsh", confirmPassword: "quiet heron over the march" },
        "confirmPassword",
      ],
    ] as const) {
      const refused = await invitation("accept", payload);
      expect(refused.statusCode, JSON.stringify(payload)).toBe(400);
      expect(errorFields(refused)).toEqual([field]);
    }

    const password = "quiet heron over the marsh";
    const accepted = await invitation("accept", { token, password, confirmPassword: password });
    expect(accepted.statusCode, accepted.body).toBe(200);
    const signedIn = await login(t.app, email, password);
    expect(signedIn.me).toMatchObject({
      tenant: { id: admin.tenantId },
      user: { id: user.id, roles: Role.admin },
    });
    expect((await invitation("accept", { token, password, confirmPassword: password })).statusCode).toBe(403);

    const [invite] = await auditRows(admin.tenantId, user.id, "invite");
    expect(invite).toMatchObject({ userId: admin.userId, details: { roles: ["admin"], newAccount: true } });
    const [accept] = await auditRows(admin.tenantId, user.id, "accept");
    expect(accept).toMatchObject({ userId: user.id, details: { newAccount: true } });
  });

  test("keeps no account when the invitation cannot be e-mailed", async () => {
    // An SMTP server nobody listens on.
    const failing = await createTestApp({ config: { smtpUrl: "smtp://127.0.0.1:9" } });
    try {
      const admin = await failing.createTestTenant({ role: "admin" });
      const s = await login(failing.app, admin.email);
      const email = `unlucky-${Date.now()}@example.test`;
      const res = await s.inject({
        method: "POST",
        url: "/api/users",
        payload: { firstName: "Una", lastName: "Lucky", email, roles: Role.user },
      });
      expect(res.statusCode, res.body).toBe(502);
      expect(await failing.db.select().from(users).where(eq(users.email, email))).toEqual([]);
    } finally {
      await failing.close();
    }
  });
});

describe("PUT /api/users/{id} of someone who also belongs to another practice", () => {
  test("refuses a rename with 400 naming firstName, their name unchanged; roles here still change", async () => {
    const admin = await t.createTestTenant({ role: "admin" });
    const person = await t.createTestTenant({ role: "user" });
    await t.db.insert(userTenants).values({ tenantId: admin.tenantId, userId: person.userId, roles: 1 });
    const s = await login(t.app, admin.email);
    const names = await namesOf(s, person.userId);
    const rename = await put(s, person.userId, { firstName: "Re", lastName: "Named", roles: Role.user });
    expect(rename.statusCode).toBe(400);
    expect(errorFields(rename)).toEqual(["firstName"]);
    const [row] = await t.db.select().from(users).where(eq(users.id, person.userId));
    expect(row).toMatchObject({ firstName: names.firstName, lastName: names.lastName });

    const roles = await put(s, person.userId, { ...names, roles: Role.user | Role.admin });
    expect(roles.statusCode, roles.body).toBe(200);
    expect(roles.json<User>().tenants).toEqual([admin.tenantId]);
    expect(await rolesIn(person.tenantId, person.userId)).toBe(Role.user);
  });
});
