import { createHash, randomBytes } from "node:crypto";
import { and, eq, gt, isNull } from "drizzle-orm";
import { objectId } from "@core-care/survey-engine";
import type { Db, DbOrTx } from "../db/index.js";
import { passwordResets, users } from "../db/schema.js";
import type { FastifyBaseLogger, FastifyInstance } from "fastify";
import { fieldError } from "../errors.js";
import { audit } from "./audit.js";
import type { LoginThrottle } from "./login-throttle.js";
import type { Mailer } from "./mailer.js";
import { destroyUserSessions } from "./session-store.js";
import { hashPassword, passwordProblem, verifyAgainstDummy, verifyPassword } from "./passwords.js";
import { landingTenant } from "./sign-in.js";
import { throttled } from "./throttled.js";
import { contextWords, findUserByEmail } from "./users.js";

/** Reset links are valid for one hour (docs/api.md). */
export const RESET_TOKEN_TTL_MS = 60 * 60 * 1000;

const sha256 = (text: string) => createHash("sha256").update(text).digest("base64url");

/**
 * Makes a single-use reset token for a user; only its hash is stored. It ends the user's earlier links,
 * so only the newest mail works: an older one left in a mailbox or forwarded is no way in. The user's row
 * is locked meanwhile, so two requests at once still leave one link open.
 */
export async function createResetToken(db: Db, userId: string): Promise<string> {
  const token = randomBytes(32).toString("base64url");
  await db.transaction(async (tx) => {
    await tx.select({ id: users.id }).from(users).where(eq(users.id, userId)).for("update");
    await tx
      .update(passwordResets)
      .set({ usedAt: new Date() })
      .where(and(eq(passwordResets.userId, userId), isNull(passwordResets.usedAt)));
    await tx.insert(passwordResets).values({
      id: objectId(),
      userId,
      tokenHash: sha256(token),
      expiresAt: new Date(Date.now() + RESET_TOKEN_TTL_MS),
    });
  });
  return token;
}

/** True when the token is a valid, unused, unexpired reset token of the user (it stays unused). */
export async function isResetTokenValid(db: DbOrTx, userId: string, token: string): Promise<boolean> {
  const rows = await db
    .select({ id: passwordResets.id })
    .from(passwordResets)
    .where(
      and(
        eq(passwordResets.userId, userId),
        eq(passwordResets.tokenHash, sha256(token)),
        isNull(passwordResets.usedAt),
        gt(passwordResets.expiresAt, new Date()),
      ),
    )
    .limit(1);
  return rows.length > 0;
}

/** Marks a valid, unused, unexpired reset token of the user as used; false when there is none. */
export async function consumeResetToken(db: DbOrTx, userId: string, token: string): Promise<boolean> {
  const used = await db
    .update(passwordResets)
    .set({ usedAt: new Date() })
    .where(
      and(
        eq(passwordResets.userId, userId),
        eq(passwordResets.tokenHash, sha256(token)),
        isNull(passwordResets.usedAt),
        gt(passwordResets.expiresAt, new Date()),
      ),
    )
    .returning({ id: passwordResets.id });
  return used.length > 0;
}

/** Stores a new password, voids open reset links and ends the user's other sessions. */
export async function setPassword(db: Db, userId: string, password: string, keepSid?: string): Promise<void> {
  const passwordHash = await hashPassword(password);
  await db.transaction(async (tx) => {
    await tx
      .update(users)
      .set({ passwordHash, passwordChangedAt: new Date(), updatedAt: new Date() })
      .where(eq(users.id, userId));
    await tx
      .update(passwordResets)
      .set({ usedAt: new Date() })
      .where(and(eq(passwordResets.userId, userId), isNull(passwordResets.usedAt)));
  });
  await destroyUserSessions(db, userId, keepSid);
}

/** At most this many reset mails per account, and per address, in an hour; more are dropped quietly. */
const RESET_LIMITS = { perAccount: 3, perAddress: 30, windowMs: 60 * 60 * 1000 };

export interface ResetRequest {
  db: Db;
  mailer: Mailer;
  throttle: LoginThrottle;
  log: FastifyBaseLogger;
  publicUrl: string;
  email: string;
  ip: string;
}

/**
 * The work behind DELETE /api/auth/passwords/{email}, done after the answer has gone: the answer is the
 * same 204, as fast, for a known and an unknown e-mail. Both are counted the same way against quiet
 * limits of their own (not the sign-in throttle), so nothing observable tells one from the other.
 */
export async function requestPasswordReset(input: ResetRequest): Promise<void> {
  const { db, email, ip } = input;
  const perAccount = await input.throttle.count("reset-account", email, RESET_LIMITS.windowMs);
  const perAddress = await input.throttle.count("reset-address", ip, RESET_LIMITS.windowMs);
  const user = await findUserByEmail(db, email);
  if (user === undefined || perAccount > RESET_LIMITS.perAccount || perAddress > RESET_LIMITS.perAddress)
    return;
  const token = await createResetToken(db, user.id);
  const link = `${input.publicUrl}/auth/changepassword?email=${encodeURIComponent(user.email)}&pwd=${encodeURIComponent(token)}`;
  const landing = await landingTenant(db, user.id);
  if (landing !== undefined) {
    await audit(db, {
      tenantId: landing.tenantId,
      userId: user.id,
      action: "password-reset",
      entity: "password",
      entityId: user.id,
      ip,
    });
  }
  try {
    await input.mailer.send({
      to: user.email,
      subject: "Reset your Core Care password",
      text:
        `Someone asked to reset the password of your Core Care account.\n\n` +
        `To choose a new password, open this link within one hour:\n${link}\n\n` +
        `If you did not ask for this, you can ignore this e-mail; your password stays as it is.\n`,
    });
  } catch (err) {
    input.log.error({ err: { message: (err as Error).message } }, "password reset mail failed");
  }
}

/**
 * POST /api/auth/passwords: the current password or a reset token proves the account (under the sign-in
 * throttle, an unknown e-mail answering like a wrong proof), then the new password replaces it and the
 * user's other sessions end. Whether the new password builds on the practice's name is judged only once
 * the account is proven, so that answer reveals nothing about which accounts exist.
 */
export async function changePassword(
  app: FastifyInstance,
  input: { email: string; oldPassword: string; password: string; ip: string },
): Promise<void> {
  const { email, oldPassword, password, ip } = input;
  const generic = passwordProblem(password, { email });
  if (generic !== undefined) throw fieldError("password", generic);
  const user = await findUserByEmail(app.db, email);
  let byToken = false;
  const proven = await throttled(app.loginThrottle, email, ip, async () => {
    if (user === undefined) return verifyAgainstDummy(oldPassword);
    byToken = await isResetTokenValid(app.db, user.id, oldPassword);
    return byToken || (await verifyPassword(oldPassword, user.passwordHash));
  });
  const landing = user === undefined ? undefined : await landingTenant(app.db, user.id);
  const record = (action: "login-failed" | "update") =>
    user === undefined || landing === undefined
      ? Promise.resolve()
      : audit(app.db, {
          tenantId: landing.tenantId,
          userId: user.id,
          action,
          entity: "password",
          entityId: user.id,
          ip,
        });
  if (user === undefined || !proven) {
    await record("login-failed");
    throw fieldError("oldPassword", "The current password or reset link is not valid.");
  }
  const contextual = passwordProblem(password, { email, words: await contextWords(app.db, user.id) });
  if (contextual !== undefined) throw fieldError("password", contextual);
  if (byToken && !(await consumeResetToken(app.db, user.id, oldPassword))) {
    throw fieldError("oldPassword", "The current password or reset link is not valid.");
  }
  await setPassword(app.db, user.id, password);
  await record("update");
}
