import type { Session } from "fastify";
import type { Subscriber } from "../db/index.js";

/** The NOTIFY channel of drizzle/0001_auth_notify.sql: 's:' + sid or 'u:' + user id. */
export const AUTH_CHANNEL = "core_care_auth";

export interface CachedSession {
  sess: Session;
  /** Epoch ms after which the row no longer counts, whatever the cookie says. */
  expireMs: number;
}

/** A user's standing in one tenant, as every signed-in request needs it. */
export interface Membership {
  roles: number;
}

export interface AuthCacheOptions {
  maxEntries: number;
  /** A bound on how long an entry is trusted, beside the invalidations that normally end it. */
  maxAgeMs: number;
  now?: () => number;
}

interface Entry<T> {
  value: T;
  at: number;
}

/**
 * Sessions and memberships read from PostgreSQL, kept in this process so that a signed-in request does
 * not read them again. PostgreSQL stays the only record: triggers NOTIFY every change or removal of a
 * session row, a user or a membership (whichever process or person made it), and the entry goes at once.
 * While the listening connection is down nothing is cached, since a notification could be missed then.
 *
 * A value read before a change but put after its notification must not come back, so readers take a
 * `stamp()` before reading and `put` drops the value when anything was forgotten since that stamp.
 */
export class AuthCache implements Subscriber {
  private readonly sessions = new Map<string, Entry<CachedSession>>();
  /** Keyed by user id, then tenant id, so a change to a user forgets all of their memberships. */
  private readonly members = new Map<string, Map<string, Entry<Membership>>>();
  private memberCount = 0;
  private generation = 0;
  private live = false;
  private readonly now: () => number;

  constructor(private readonly options: AuthCacheOptions) {
    this.now = options.now ?? Date.now;
  }

  stamp(): number {
    return this.generation;
  }

  getSession(sid: string): CachedSession | undefined {
    const entry = this.sessions.get(sid);
    if (entry === undefined) return undefined;
    const now = this.now();
    if (now - entry.at > this.options.maxAgeMs || entry.value.expireMs <= now) {
      this.sessions.delete(sid);
      return undefined;
    }
    return entry.value;
  }

  putSession(sid: string, value: CachedSession, stamp: number): void {
    if (!this.live || stamp !== this.generation) return;
    this.sessions.delete(sid);
    this.sessions.set(sid, { value, at: this.now() });
    if (this.sessions.size > this.options.maxEntries)
      this.sessions.delete(this.sessions.keys().next().value!);
  }

  /**
   * Records in the cached copy that this process is writing the session's last use, so the requests
   * running beside it do not all write it too.
   */
  touched(sid: string, lastSeenAt: number): void {
    const entry = this.sessions.get(sid);
    if (entry !== undefined) entry.value.sess.lastSeenAt = lastSeenAt;
  }

  getMember(userId: string, tenantId: string): Membership | undefined {
    const entry = this.members.get(userId)?.get(tenantId);
    if (entry === undefined) return undefined;
    if (this.now() - entry.at > this.options.maxAgeMs) {
      this.dropUser(userId);
      return undefined;
    }
    return entry.value;
  }

  putMember(userId: string, tenantId: string, value: Membership, stamp: number): void {
    if (!this.live || stamp !== this.generation) return;
    if (this.memberCount >= this.options.maxEntries) this.dropUser(this.members.keys().next().value!);
    let tenants = this.members.get(userId);
    if (tenants === undefined) {
      tenants = new Map<string, Entry<Membership>>();
      this.members.set(userId, tenants);
    }
    if (!tenants.has(tenantId)) this.memberCount++;
    tenants.set(tenantId, { value, at: this.now() });
  }

  forgetSession(sid: string): void {
    this.generation++;
    this.sessions.delete(sid);
  }

  forgetUser(userId: string): void {
    this.generation++;
    this.dropUser(userId);
  }

  onNotify(payload: string): void {
    const id = payload.slice(2);
    if (payload.startsWith("s:")) this.forgetSession(id);
    else if (payload.startsWith("u:")) this.forgetUser(id);
    else this.clear();
  }

  onLive(live: boolean): void {
    this.live = live;
    this.clear();
  }

  /** Removes a user's memberships; unlike `forgetUser`, this is no change in PostgreSQL. */
  private dropUser(userId: string): void {
    this.memberCount -= this.members.get(userId)?.size ?? 0;
    this.members.delete(userId);
  }

  private clear(): void {
    this.generation++;
    this.sessions.clear();
    this.members.clear();
    this.memberCount = 0;
  }
}
