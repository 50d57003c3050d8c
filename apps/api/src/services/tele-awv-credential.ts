import { createHash } from "node:crypto";
import { eq } from "drizzle-orm";
import type { DbOrTx } from "../db/index.js";
import { awvInvitations } from "../db/schema.js";

/** Only a SHA-256 of the token is stored: a database leak gives no usable link. */
export function hashToken(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

/** The Tele-AWV credential a link's token gives: one invitation of one tenant, patient and e-mail. */
export interface InvitationCredential {
  tenantId: string;
  invitationId: string;
  patientId: string;
  ptEmail: string;
  /** The token as presented, for the services that check the invitation again as they use it. */
  token: string;
}

/**
 * A genuine link that can no longer be used: it was submitted, or it expired. Only its holder can show
 * it, so saying which costs nothing; it reaches no patient data.
 */
export interface SpentInvitation {
  tenantId: string;
  invitationId: string;
  state: "used" | "expired";
}

/** What a presented token is: an open invitation's credential, a spent link, or nothing (forged). */
export type TokenResolution =
  | { kind: "open"; credential: InvitationCredential }
  | { kind: "spent"; spent: SpentInvitation }
  | { kind: "unknown" };

/** Resolves a token by the SHA-256 stored for it (one indexed read). */
export async function resolveInvitationToken(
  db: DbOrTx,
  token: string,
  now = new Date(),
): Promise<TokenResolution> {
  const [row] = await db
    .select({
      tenantId: awvInvitations.tenantId,
      id: awvInvitations.id,
      patientId: awvInvitations.patientId,
      ptEmail: awvInvitations.ptEmail,
      usedAt: awvInvitations.usedAt,
      expiresAt: awvInvitations.expiresAt,
    })
    .from(awvInvitations)
    .where(eq(awvInvitations.tokenHash, hashToken(token)))
    .limit(1);
  if (row === undefined) return { kind: "unknown" };
  if (row.usedAt !== null || row.expiresAt.getTime() <= now.getTime()) {
    return {
      kind: "spent",
      spent: {
        tenantId: row.tenantId,
        invitationId: row.id,
        state: row.usedAt !== null ? "used" : "expired",
      },
    };
  }
  return {
    kind: "open",
    credential: {
      tenantId: row.tenantId,
      invitationId: row.id,
      patientId: row.patientId,
      ptEmail: row.ptEmail,
      token,
    },
  };
}

/** The credential of a token whose invitation is unused and unexpired; null for any other token. */
export async function findInvitationCredential(
  db: DbOrTx,
  token: string,
  now = new Date(),
): Promise<InvitationCredential | null> {
  const resolved = await resolveInvitationToken(db, token, now);
  return resolved.kind === "open" ? resolved.credential : null;
}
