import { createHash, randomBytes } from "node:crypto";
import { and, eq, gt, isNull } from "drizzle-orm";
import { objectId } from "@core-care/survey-engine";
import type { Db, DbOrTx } from "../db/index.js";
import { passwordResets, users } from "../db/schema.js";
import { destroyUserSessions } from "./session-store.js";
import { hashPassword } from "./passwords.js";

/** Reset links are valid for one hour (docs/api.md). */
export const RESET_TOKEN_TTL_MS = 60 * 60 * 1000;

const sha256 = (text: string) => createHash("sha256").update(text).digest("base64url");

/** Makes a single-use reset token for a user; only its hash is stored. */
export async function createResetToken(db: Db, userId: string): Promise<string> {
  const token = randomBytes(32).toString("base64url");
  await db.insert(passwordResets).values({
    id: objectId(),
    userId,
    tokenHash: sha256(token),
    expiresAt: new Date(Date.now() + RESET_TOKEN_TTL_MS),
  });
  return token;
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
