import { createHash, randomBytes } from "node:crypto";
import { and, eq, gt, isNull, ne } from "drizzle-orm";
import {
  canManageUser,
  hasRole,
  isRoleChangeAllowed,
  roleNames,
  type InvitationLookupResponse,
  type User,
} from "@core-care/schema";
import { objectId } from "@core-care/survey-engine";
import type { Db } from "../db/index.js";
import { tenants, userInvitations, userTenants, users } from "../db/schema.js";
import { AppError, conflict, fieldError, forbidden, notFound } from "../errors.js";
import { audit } from "./audit.js";
import type { Mailer } from "./mailer.js";
import { hashPassword, passwordProblem } from "./passwords.js";
import {
  createTenantUser,
  findUserByEmail,
  getTenantUser,
  removeTenantUser,
  tenantContextWords,
  type NewUser,
} from "./users.js";

/** How long an invitation to join a practice stays valid. */
export const USER_INVITATION_TTL_MS = 7 * 24 * 60 * 60 * 1000;

/** The editor of a user administration call: who, in which tenant, with which roles there. */
export interface Editor {
  userId: string;
  tenantId: string;
  roles: number;
  ip: string;
}

const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");

const mayNotGrant = () => forbidden("You cannot give or take a role you do not hold.");
const mayNotManage = () => forbidden("You cannot change a user who holds roles you do not hold.");

/** Whether the user belongs to any tenant besides this one. */
async function belongsElsewhere(db: Db, userId: string, tenantId: string): Promise<boolean> {
  const rows = await db
    .select({ tenantId: userTenants.tenantId })
    .from(userTenants)
    .where(and(eq(userTenants.userId, userId), ne(userTenants.tenantId, tenantId)))
    .limit(1);
  return rows.length > 0;
}

/**
 * A user as an editor of one tenant sees them: their membership here only, so an admin learns nothing of
 * the other practices a person belongs to. A sysAdmin, who manages every tenant, sees them all.
 */
export function asSeenBy(editor: { tenantId: string; roles: number }, user: User): User {
  if (hasRole(editor.roles, "sysAdmin")) return user;
  return { ...user, tenant: editor.tenantId, tenants: [editor.tenantId] };
}

export type CreateOutcome = { kind: "created"; user: User } | { kind: "invited"; email: string };

/**
 * Adds a user to the editor's tenant with roles the editor holds. With `invitePassword` (no password was
 * given) the new person is e-mailed a single-use link to choose their password; when that e-mail cannot
 * be sent the account is not kept. A person who already has an account elsewhere is not added: they get
 * an e-mailed invitation to accept, and nothing of their account (name, password, other practices, where
 * they land at sign-in) changes or shows here.
 */
export async function createOrInviteUser(
  db: Db,
  mailer: Mailer,
  publicUrl: string,
  editor: Editor,
  input: NewUser,
  options: { invitePassword: boolean } = { invitePassword: false },
): Promise<CreateOutcome> {
  if (!isRoleChangeAllowed(editor.roles, 0, input.roles)) throw mayNotGrant();
  const existing = await findUserByEmail(db, input.email);
  if (existing === undefined) {
    const user = await createTenantUser(db, editor.tenantId, input);
    if (options.invitePassword) {
      try {
        await inviteNewAccount(db, mailer, publicUrl, editor, user, input.roles);
      } catch (failure) {
        // Nobody can use an account whose invitation never arrived: it goes, so that adding it again works.
        await removeTenantUser(db, editor.tenantId, user.id);
        throw failure;
      }
    }
    await audit(db, {
      tenantId: editor.tenantId,
      userId: editor.userId,
      action: "create",
      entity: "user",
      entityId: user.id,
      ip: editor.ip,
      details: { roles: roleNames(input.roles) },
    });
    return { kind: "created", user };
  }
  const [member] = await db
    .select({ roles: userTenants.roles })
    .from(userTenants)
    .where(and(eq(userTenants.userId, existing.id), eq(userTenants.tenantId, editor.tenantId)));
  if (member !== undefined) throw conflict("A user with this e-mail already exists.");
  await inviteExistingUser(db, mailer, publicUrl, editor, existing, input.roles);
  return { kind: "invited", email: input.email };
}

/** Stores an invitation and e-mails its link; when the mail fails the invitation goes and 502 answers. */
async function sendInvitation(
  db: Db,
  mailer: Mailer,
  editor: Editor,
  invitation: { userId: string; email: string; roles: number; newAccount: boolean },
  mail: (tenantName: string, link: string) => { subject: string; text: string },
  publicUrl: string,
): Promise<void> {
  const token = randomBytes(32).toString("base64url");
  const id = objectId();
  const [tenant] = await db
    .select({ name: tenants.name })
    .from(tenants)
    .where(eq(tenants.id, editor.tenantId));
  await db.insert(userInvitations).values({
    tenantId: editor.tenantId,
    id,
    userId: invitation.userId,
    roles: invitation.roles,
    invitedBy: editor.userId,
    newAccount: invitation.newAccount,
    tokenHash: sha256(token),
    expiresAt: new Date(Date.now() + USER_INVITATION_TTL_MS),
  });
  try {
    const link = `${publicUrl.replace(/\/+$/, "")}/invitation#token=${token}`;
    await mailer.send({ to: invitation.email, ...mail(tenant?.name ?? "", link) });
  } catch {
    await db
      .delete(userInvitations)
      .where(and(eq(userInvitations.tenantId, editor.tenantId), eq(userInvitations.id, id)));
    throw new AppError(502, "MAIL_FAILED", "The invitation could not be e-mailed. Please try again later.");
  }
  await audit(db, {
    tenantId: editor.tenantId,
    userId: editor.userId,
    action: "invite",
    entity: "user",
    entityId: invitation.userId,
    ip: editor.ip,
    details: { roles: roleNames(invitation.roles), ...(invitation.newAccount ? { newAccount: true } : {}) },
  });
}

function inviteExistingUser(
  db: Db,
  mailer: Mailer,
  publicUrl: string,
  editor: Editor,
  invitee: { id: string; email: string },
  roles: number,
): Promise<void> {
  return sendInvitation(
    db,
    mailer,
    editor,
    { userId: invitee.id, email: invitee.email, roles, newAccount: false },
    (practice, link) => ({
      subject: `You are invited to join ${practice || "a practice"} on Core Care`,
      text:
        `${practice || "A practice"} invites you to work with them on Core Care, with the account you already have.\n\n` +
        `To accept, open this link within 7 days:\n${link}\n\n` +
        `Nothing changes until you accept. If you did not expect this, you can ignore this e-mail.\n`,
    }),
    publicUrl,
  );
}

/** E-mails a new account the single-use link where it chooses its first password. */
function inviteNewAccount(
  db: Db,
  mailer: Mailer,
  publicUrl: string,
  editor: Editor,
  user: { id: string; email: string },
  roles: number,
): Promise<void> {
  return sendInvitation(
    db,
    mailer,
    editor,
    { userId: user.id, email: user.email, roles, newAccount: true },
    (practice, link) => ({
      subject: `Your Core Care account at ${practice || "your practice"}`,
      text:
        `${practice || "Your practice"} has made you a Core Care account. You sign in with this e-mail address, ${user.email}.\n\n` +
        `To choose your password, open this link within 7 days. It works once:\n${link}\n\n` +
        `If you did not expect this, you can ignore this e-mail; nobody can sign in to the account without that link.\n`,
    }),
    publicUrl,
  );
}

const invalidInvitation = () =>
  new AppError(403, "INVALID_INVITATION", "This invitation is not valid any more. Please ask for a new one.");

const openInvitation = (tokenHash: string) =>
  and(
    eq(userInvitations.tokenHash, tokenHash),
    isNull(userInvitations.acceptedAt),
    gt(userInvitations.expiresAt, new Date()),
  );

/**
 * The practice an invitation's token offers, so that the person can confirm before joining, and whether
 * it makes a new account (then with its e-mail, to sign in with). It reveals only what the e-mail already
 * gave; an unknown, used or expired token answers 403.
 */
export async function invitationPractice(db: Db, token: string): Promise<InvitationLookupResponse> {
  const [row] = await db
    .select({
      id: tenants.id,
      name: tenants.name,
      newAccount: userInvitations.newAccount,
      email: users.email,
    })
    .from(userInvitations)
    .innerJoin(tenants, eq(tenants.id, userInvitations.tenantId))
    .innerJoin(users, eq(users.id, userInvitations.userId))
    .where(openInvitation(sha256(token)));
  if (row === undefined) throw invalidInvitation();
  const tenant = { id: row.id, name: row.name };
  return row.newAccount ? { tenant, newAccount: true, email: row.email } : { tenant, newAccount: false };
}

/**
 * The password a new account's invitation chooses, checked like any new password (NIST SP 800-63B); the
 * invitation stays usable when it is refused.
 */
async function checkedNewPassword(
  db: Db,
  invitation: { tenantId: string; email: string },
  input: { password?: string | undefined; confirmPassword?: string | undefined },
): Promise<string> {
  if (input.password === undefined) throw fieldError("password", "This field is required.");
  const problem = passwordProblem(input.password, {
    email: invitation.email,
    words: await tenantContextWords(db, invitation.tenantId),
  });
  if (problem !== undefined) throw fieldError("password", problem);
  if (input.password !== input.confirmPassword)
    throw fieldError("confirmPassword", "The passwords do not match.");
  return hashPassword(input.password);
}

/**
 * Accepts an invitation with the token of its e-mail: the person becomes a member of that tenant with
 * the roles offered, and nothing else of theirs changes; a new account also gets the password it chose.
 * Answers the tenant joined.
 */
export async function acceptInvitation(
  db: Db,
  input: { token: string; password?: string | undefined; confirmPassword?: string | undefined },
  ip: string,
): Promise<{ id: string; name: string }> {
  const tokenHash = sha256(input.token);
  const [pending] = await db
    .select({
      tenantId: userInvitations.tenantId,
      newAccount: userInvitations.newAccount,
      email: users.email,
    })
    .from(userInvitations)
    .innerJoin(users, eq(users.id, userInvitations.userId))
    .where(openInvitation(tokenHash));
  if (pending === undefined) throw invalidInvitation();
  const passwordHash = pending.newAccount ? await checkedNewPassword(db, pending, input) : undefined;
  return db.transaction(async (tx) => {
    const [invitation] = await tx
      .update(userInvitations)
      .set({ acceptedAt: new Date() })
      .where(openInvitation(tokenHash))
      .returning();
    if (invitation === undefined) throw invalidInvitation();
    await tx
      .insert(userTenants)
      .values({ tenantId: invitation.tenantId, userId: invitation.userId, roles: invitation.roles })
      .onConflictDoNothing();
    if (invitation.newAccount && passwordHash !== undefined) {
      const now = new Date();
      await tx
        .update(users)
        .set({ passwordHash, passwordChangedAt: now, updatedAt: now })
        .where(eq(users.id, invitation.userId));
    }
    await audit(tx, {
      tenantId: invitation.tenantId,
      userId: invitation.userId,
      action: "accept",
      entity: "user",
      entityId: invitation.userId,
      ip,
      details: {
        roles: roleNames(invitation.roles),
        invitedBy: invitation.invitedBy,
        ...(invitation.newAccount ? { newAccount: true } : {}),
      },
    });
    const [tenant] = await tx
      .select({ id: tenants.id, name: tenants.name })
      .from(tenants)
      .where(eq(tenants.id, invitation.tenantId));
    if (tenant === undefined) throw notFound("Tenant");
    return tenant;
  });
}

/**
 * Changes a user of the editor's tenant: only a user who holds no role the editor lacks, only roles the
 * editor holds, never the editor's own admin role, and the name only of someone who belongs to no other
 * practice (a sysAdmin excepted), since a name is the person's across practices. Roles and names, from
 * and to, are audited.
 */
export async function updateTenantUser(
  db: Db,
  editor: Editor,
  id: string,
  input: { firstName: string; lastName: string; roles: number },
): Promise<User> {
  const target = await getTenantUser(db, editor.tenantId, id);
  if (!canManageUser(editor.roles, target.roles)) throw mayNotManage();
  if (!isRoleChangeAllowed(editor.roles, target.roles, input.roles)) throw mayNotGrant();
  if (id === editor.userId && !hasRole(input.roles, "admin") && !hasRole(input.roles, "sysAdmin")) {
    throw conflict("You cannot remove your own admin role.");
  }
  const renamed = input.firstName !== target.firstName || input.lastName !== target.lastName;
  if (renamed && !hasRole(editor.roles, "sysAdmin") && (await belongsElsewhere(db, id, editor.tenantId))) {
    throw fieldError(
      "firstName",
      "This person also works for another practice; only they can change their name.",
    );
  }
  await db.transaction(async (tx) => {
    if (renamed) {
      await tx
        .update(users)
        .set({ firstName: input.firstName, lastName: input.lastName, updatedAt: new Date() })
        .where(eq(users.id, id));
    }
    if (input.roles !== target.roles) {
      await tx
        .update(userTenants)
        .set({ roles: input.roles })
        .where(and(eq(userTenants.userId, id), eq(userTenants.tenantId, editor.tenantId)));
      await audit(tx, {
        tenantId: editor.tenantId,
        userId: editor.userId,
        action: "roles",
        entity: "user",
        entityId: id,
        ip: editor.ip,
        details: { from: roleNames(target.roles), to: roleNames(input.roles) },
      });
    }
    if (renamed) {
      await audit(tx, {
        tenantId: editor.tenantId,
        userId: editor.userId,
        action: "update",
        entity: "user",
        entityId: id,
        ip: editor.ip,
        details: {
          from: { firstName: target.firstName, lastName: target.lastName },
          to: { firstName: input.firstName, lastName: input.lastName },
        },
      });
    }
  });
  return getTenantUser(db, editor.tenantId, id);
}

/**
 * Removes a user the editor may manage from the editor's tenant; their sessions in it end with the
 * membership (the auth hook finds none), and their work in other practices goes on.
 */
export async function removeUserFromTenant(db: Db, editor: Editor, userId: string): Promise<void> {
  if (userId === editor.userId) throw conflict("You cannot delete your own account.");
  const target = await getTenantUser(db, editor.tenantId, userId);
  if (!canManageUser(editor.roles, target.roles)) throw mayNotManage();
  if (!(await removeTenantUser(db, editor.tenantId, userId))) throw notFound("User");
  await audit(db, {
    tenantId: editor.tenantId,
    userId: editor.userId,
    action: "delete",
    entity: "user",
    entityId: userId,
    ip: editor.ip,
    details: { roles: roleNames(target.roles) },
  });
}
