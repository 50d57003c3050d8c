import type { Session } from "fastify";
import { and, eq, gt, lt } from "drizzle-orm";
import type { Db } from "../db/index.js";
import { sessions } from "../db/schema.js";
import type { AuthCache } from "./auth-cache.js";

type Callback = (err?: unknown) => void;
type CallbackSession = (err: unknown, result?: Session | null) => void;

export interface SessionTimeouts {
  idleSeconds: number;
  absoluteSeconds: number;
}

/**
 * The @fastify/session store on the `sessions` table. A row's `expire` is its idle deadline capped by
 * the absolute lifetime; an expired row is never answered, whatever the cookie says, and a removed row is
 * never written again. Rows read or written here are kept in the auth cache, which forgets them when any
 * process changes them.
 */
export class PgSessionStore {
  constructor(
    private readonly db: Db,
    private readonly timeouts: SessionTimeouts,
    private readonly cache: AuthCache,
  ) {}

  get(sid: string, callback: CallbackSession): void {
    // @fastify/session copies the fields it is given into its own Session, so a cached one is shared safely.
    const cached = this.cache.getSession(sid);
    if (cached !== undefined) {
      callback(null, cached.sess);
      return;
    }
    const stamp = this.cache.stamp();
    this.db
      .select({ sess: sessions.sess, expire: sessions.expire })
      .from(sessions)
      .where(and(eq(sessions.sid, sid), gt(sessions.expire, new Date())))
      .limit(1)
      .then(
        (rows) => {
          const row = rows[0];
          if (row === undefined) return callback(null, null);
          const sess = row.sess as unknown as Session;
          this.cache.putSession(sid, { sess, expireMs: row.expire.getTime() }, stamp);
          callback(null, sess);
        },
        (err: unknown) => callback(err),
      );
  }

  set(sid: string, session: Session, callback: Callback): void {
    const sess = JSON.parse(JSON.stringify(session)) as Record<string, unknown>;
    const lastSeenAt = typeof sess.lastSeenAt === "number" ? sess.lastSeenAt : Date.now();
    const createdAt = typeof sess.createdAt === "number" ? sess.createdAt : lastSeenAt;
    // A tablet patient session outlives the browser's own idle timeout by a grace, so the last answers the
    // browser sends as it times out still arrive; the server ends it by itself after that.
    const grace = typeof sess.idleGraceSeconds === "number" ? sess.idleGraceSeconds : 0;
    const expire = new Date(
      Math.min(
        lastSeenAt + (this.timeouts.idleSeconds + grace) * 1000,
        createdAt + this.timeouts.absoluteSeconds * 1000,
      ),
    );
    const userId = typeof sess.userId === "string" ? sess.userId : null;
    const stamp = this.cache.stamp();
    // Every session row begins as regenerate() writes it, with nothing in it yet. A session holding more
    // was read from its row, and is only written back into that row: a request that read it before it
    // ended (a sign-out, a switch, another process removing it) must not bring it back when it saves.
    const begins = Object.keys(sess).every((key) => key === "cookie");
    const write = begins
      ? this.db
          .insert(sessions)
          .values({ sid, sess, userId, expire })
          .onConflictDoUpdate({ target: sessions.sid, set: { sess, userId, expire } })
          .returning({ sid: sessions.sid })
      : this.db
          .update(sessions)
          .set({ sess, userId, expire })
          .where(eq(sessions.sid, sid))
          .returning({ sid: sessions.sid });
    write.then(
      (rows) => {
        if (rows.length === 0) this.cache.forgetSession(sid);
        else {
          this.cache.putSession(sid, { sess: sess as unknown as Session, expireMs: expire.getTime() }, stamp);
        }
        callback();
      },
      (err: unknown) => callback(err),
    );
  }

  destroy(sid: string, callback: Callback): void {
    this.cache.forgetSession(sid);
    this.db
      .delete(sessions)
      .where(eq(sessions.sid, sid))
      .then(
        () => callback(),
        (err: unknown) => callback(err),
      );
  }

  /** Removes every expired session row. */
  async prune(): Promise<void> {
    await this.db.delete(sessions).where(lt(sessions.expire, new Date()));
  }
}

/** Ends every session of a user (after a password change, a role change or a deletion). */
export async function destroyUserSessions(db: Db, userId: string, exceptSid?: string): Promise<void> {
  const rows = await db.select({ sid: sessions.sid }).from(sessions).where(eq(sessions.userId, userId));
  for (const row of rows) {
    if (row.sid !== exceptSid) await db.delete(sessions).where(eq(sessions.sid, row.sid));
  }
}
