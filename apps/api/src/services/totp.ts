import { createHash, randomInt } from "node:crypto";
import type { FastifyInstance } from "fastify";
import { and, eq, isNull, lt, or, sql } from "drizzle-orm";
import { Secret, TOTP } from "otpauth";
import { Role, type TotpEnrolment, type TotpOffRequest } from "@core-care/schema";
import type { DbOrTx } from "../db/index.js";
import { tenants, totpRecoveryCodes, userTenants, users } from "../db/schema.js";
import { AppError, conflict, unauthorized } from "../errors.js";
import { audit } from "./audit.js";
import { verifyPassword } from "./passwords.js";
import { throttled } from "./throttled.js";

/** The name authenticator apps show beside the account. */
export const TOTP_ISSUER = "Core Care";
/** RFC 6238 defaults, which every authenticator app supports: SHA-1, 6 digits, 30-second steps. */
const TOTP_PARAMS = { algorithm: "SHA1", digits: 6, period: 30 } as const;
/** Steps either side of now a code is accepted for, for clocks a little off (RFC 6238 5.2). */
const TOTP_WINDOW = 1;
/** How many recovery codes a user gets when the second factor goes on. */
export const RECOVERY_CODE_COUNT = 10;
/** Recovery codes: 12 characters of a 32-letter alphabet without 0/O and 1/I (60 random bits). */
const RECOVERY_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789";

export const REQUIRED_BY_PRACTICE = "Your practice requires a second factor for administrators.";
export const INVALID_CODE = "The code is not valid.";

/** A 400 naming `field`, whose message reads well on its own in a form's error area. */
const wrongProof = (field: "code" | "password", message: string) =>
  new AppError(400, "BAD_REQUEST", message, { errors: [{ field, message }] });

const totpOf = (secret: string, label: string) =>
  new TOTP({ issuer: TOTP_ISSUER, label, secret: Secret.fromBase32(secret), ...TOTP_PARAMS });

/** Recovery codes are compared without case, spaces or hyphens. */
const normaliseRecoveryCode = (code: string) => code.toUpperCase().replace(/[\s-]/g, "");
const hashRecoveryCode = (code: string) =>
  createHash("sha256").update(normaliseRecoveryCode(code)).digest("base64url");

function newRecoveryCode(): string {
  let code = "";
  for (let i = 0; i < 12; i++) code += RECOVERY_ALPHABET[randomInt(RECOVERY_ALPHABET.length)];
  return `${code.slice(0, 4)}-${code.slice(4, 8)}-${code.slice(8)}`;
}

/**
 * Whether a practice requires this user to have a second factor: they hold admin or sysAdmin in a tenant
 * whose `requireAdminTotp` is on. Any such tenant counts, since one sign-in reaches all of the user's
 * tenants (PUT /api/users/me/tenant).
 */
export async function totpRequired(db: DbOrTx, userId: string): Promise<boolean> {
  const [row] = await db
    .select({ tenantId: userTenants.tenantId })
    .from(userTenants)
    .innerJoin(tenants, eq(tenants.id, userTenants.tenantId))
    .where(
      and(
        eq(userTenants.userId, userId),
        sql`(${userTenants.roles} & ${Role.admin | Role.sysAdmin}) <> 0`,
        sql`coalesce((${tenants.settings} ->> 'requireAdminTotp')::boolean, false)`,
      ),
    )
    .limit(1);
  return row !== undefined;
}

/** The user's second factor as the security settings show it. */
export async function totpStatus(
  db: DbOrTx,
  userId: string,
): Promise<{ enabled: boolean; required: boolean }> {
  const [row] = await db.select({ secret: users.totpSecret }).from(users).where(eq(users.id, userId));
  if (row === undefined) throw unauthorized();
  return { enabled: row.secret !== null, required: await totpRequired(db, userId) };
}

/**
 * Starts setting up the second factor: a new random secret (160 bits, RFC 4226 4) kept as pending until
 * a code proves the user's app holds it. Starting again replaces a pending secret; one already on must be
 * turned off first.
 */
export async function startEnrolment(db: DbOrTx, userId: string): Promise<TotpEnrolment> {
  const [row] = await db
    .select({ email: users.email, secret: users.totpSecret })
    .from(users)
    .where(eq(users.id, userId));
  if (row === undefined) throw unauthorized();
  if (row.secret !== null) throw conflict("The second factor is already on.");
  const secret = new Secret({ size: 20 }).base32;
  await db
    .update(users)
    .set({ totpPendingSecret: secret, updatedAt: new Date() })
    .where(eq(users.id, userId));
  return { secret, uri: totpOf(secret, row.email).toString() };
}

/** The time step a code belongs to, or undefined when it is not a current code of `secret`. */
function stepOf(secret: string, code: string, now: number): number | undefined {
  if (!/^\d{6}$/.test(code)) return undefined;
  const totp = totpOf(secret, "");
  const delta = totp.validate({ token: code, timestamp: now, window: TOTP_WINDOW });
  return delta === null ? undefined : totp.counter({ timestamp: now }) + delta;
}

/**
 * Records `step` as the user's last accepted one, only if it is later than the last: a code, once
 * accepted, is never accepted again (RFC 6238 5.2), even by two requests racing.
 */
async function claimStep(db: DbOrTx, userId: string, step: number): Promise<boolean> {
  const rows = await db
    .update(users)
    .set({ totpLastStep: step })
    .where(and(eq(users.id, userId), or(isNull(users.totpLastStep), lt(users.totpLastStep, step))))
    .returning({ id: users.id });
  return rows.length > 0;
}

/** Marks an unused recovery code of the user as used; false when there is none such. */
async function claimRecoveryCode(db: DbOrTx, userId: string, code: string): Promise<boolean> {
  const rows = await db
    .update(totpRecoveryCodes)
    .set({ usedAt: new Date() })
    .where(
      and(
        eq(totpRecoveryCodes.userId, userId),
        eq(totpRecoveryCodes.codeHash, hashRecoveryCode(code)),
        isNull(totpRecoveryCodes.usedAt),
      ),
    )
    .returning({ userId: totpRecoveryCodes.userId });
  return rows.length > 0;
}

/** Who is presenting a code, for the throttle and the audit log. */
export interface CodeAttempt {
  userId: string;
  /** The tenant the attempt is audited in (the session's, or where the user lands at sign-in). */
  tenantId: string;
  ip: string;
  /** What the code is for, written in the audit event of a failure. */
  purpose: "sign-in" | "staff-return" | "enrol" | "turn-off";
}

/**
 * Under the sign-in throttle, so wrong codes are held back like wrong passwords. Its account key is the
 * user's second factor, apart from the password's, so that signing in with the right password again does
 * not clear the count of wrong codes. A failure is audited.
 */
async function underThrottle(
  app: FastifyInstance,
  attempt: CodeAttempt,
  check: () => Promise<boolean>,
): Promise<void> {
  const ok = await throttled(app.loginThrottle, `totp\0${attempt.userId}`, attempt.ip, check);
  if (!ok) {
    await audit(app.db, {
      tenantId: attempt.tenantId,
      userId: attempt.userId,
      action: "login-failed",
      entity: "totp",
      entityId: attempt.userId,
      ip: attempt.ip,
      details: { purpose: attempt.purpose },
    });
    throw wrongProof("code", INVALID_CODE);
  }
}

/**
 * Checks a code of the user's second factor: a current authenticator code not used before, or an unused
 * recovery code (used up by this). Answers which it was; a wrong or replayed code is a 400 naming `code`.
 */
export async function verifyCode(
  app: FastifyInstance,
  attempt: CodeAttempt,
  code: string,
): Promise<"totp" | "recovery"> {
  let kind: "totp" | "recovery" = "totp";
  await underThrottle(app, attempt, async () => {
    const [row] = await app.db
      .select({ secret: users.totpSecret })
      .from(users)
      .where(eq(users.id, attempt.userId));
    if (row?.secret === null || row?.secret === undefined) return false;
    const step = stepOf(row.secret, code.trim(), Date.now());
    if (step !== undefined) return claimStep(app.db, attempt.userId, step);
    kind = "recovery";
    return claimRecoveryCode(app.db, attempt.userId, code);
  });
  return kind;
}

/**
 * Turns the pending secret on once a code of it is right, replaces the recovery codes with new ones and
 * answers them (the only time they are shown). Audited as `totp-on`. `proven` runs once the code is
 * right and before the factor is on, for the session the user set it up in to record its proof first.
 */
export async function confirmEnrolment(
  app: FastifyInstance,
  attempt: CodeAttempt,
  code: string,
  proven?: () => Promise<void>,
): Promise<string[]> {
  const [row] = await app.db
    .select({ pending: users.totpPendingSecret, secret: users.totpSecret })
    .from(users)
    .where(eq(users.id, attempt.userId));
  if (row === undefined) throw unauthorized();
  if (row.secret !== null) throw conflict("The second factor is already on.");
  const pending = row.pending;
  if (pending === null) throw conflict("Start setting up the second factor first.");
  let step: number | undefined;
  await underThrottle(app, attempt, async () => {
    step = stepOf(pending, code.trim(), Date.now());
    return step !== undefined;
  });
  await proven?.();
  const recoveryCodes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
  await app.db.transaction(async (tx) => {
    const turnedOn = await tx
      .update(users)
      .set({ totpSecret: pending, totpPendingSecret: null, totpLastStep: step, updatedAt: new Date() })
      .where(
        and(eq(users.id, attempt.userId), eq(users.totpPendingSecret, pending), isNull(users.totpSecret)),
      )
      .returning({ id: users.id });
    if (turnedOn.length === 0) throw conflict("The second factor changed meanwhile; please start again.");
    await tx.delete(totpRecoveryCodes).where(eq(totpRecoveryCodes.userId, attempt.userId));
    await tx
      .insert(totpRecoveryCodes)
      .values(recoveryCodes.map((c) => ({ userId: attempt.userId, codeHash: hashRecoveryCode(c) })));
    await audit(tx, {
      tenantId: attempt.tenantId,
      userId: attempt.userId,
      action: "totp-on",
      entity: "user",
      entityId: attempt.userId,
      ip: attempt.ip,
    });
  });
  return recoveryCodes;
}

/**
 * Turns the second factor off, proven by the password or a code, unless a practice of the user requires
 * it. The secret and the recovery codes go. Audited as `totp-off`.
 */
export async function turnOff(
  app: FastifyInstance,
  attempt: CodeAttempt,
  proof: TotpOffRequest,
): Promise<void> {
  const [row] = await app.db
    .select({ secret: users.totpSecret, passwordHash: users.passwordHash, email: users.email })
    .from(users)
    .where(eq(users.id, attempt.userId));
  if (row === undefined) throw unauthorized();
  if (row.secret === null) throw conflict("The second factor is not on.");
  if (await totpRequired(app.db, attempt.userId)) {
    throw new AppError(403, "TOTP_REQUIRED", REQUIRED_BY_PRACTICE);
  }
  if (proof.code !== undefined) {
    await verifyCode(app, attempt, proof.code);
  } else {
    const password = proof.password ?? "";
    const ok = await throttled(app.loginThrottle, row.email, attempt.ip, () =>
      verifyPassword(password, row.passwordHash),
    );
    if (!ok) {
      await audit(app.db, {
        tenantId: attempt.tenantId,
        userId: attempt.userId,
        action: "login-failed",
        entity: "password",
        entityId: attempt.userId,
        ip: attempt.ip,
        details: { purpose: attempt.purpose },
      });
      throw wrongProof("password", "The password is not correct.");
    }
  }
  await app.db.transaction(async (tx) => {
    await tx
      .update(users)
      .set({ totpSecret: null, totpPendingSecret: null, totpLastStep: null, updatedAt: new Date() })
      .where(eq(users.id, attempt.userId));
    await tx.delete(totpRecoveryCodes).where(eq(totpRecoveryCodes.userId, attempt.userId));
    await audit(tx, {
      tenantId: attempt.tenantId,
      userId: attempt.userId,
      action: "totp-off",
      entity: "user",
      entityId: attempt.userId,
      ip: attempt.ip,
    });
  });
}
