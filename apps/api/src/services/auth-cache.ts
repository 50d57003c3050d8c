import type { Session } from "fastify";
import { GroupedEntries, NotifiedCache, type NotifiedCacheOptions } from "./notified-cache.js";

/**
 * The NOTIFY channel of drizzle/0001_auth_notify.sql: 's:' + sid or 'u:' + user id; any other payload
 * (a practice whose second-factor requirement changed sends 't:' + its id) forgets everything.
 */
export const AUTH_CHANNEL = "core_care_auth";

export interface CachedSession {
  sess: Session;
  /** Epoch ms after which the row no longer counts, whatever the cookie says. */
  expireMs: number;
}

/** A user's standing in one tenant, as every signed-in request needs it. */
export interface Membership {
  roles: number;
  /** The user has a second factor turned on. */
  secondFactor: boolean;
  /** The tenant requires a second factor of its admins (`requireAdminTotp`). */
  factorRequired: boolean;
}

/** The bounds of the cache: at most `maxEntries` sessions and as many memberships, each trusted `maxAgeMs`. */
export type AuthCacheOptions = NotifiedCacheOptions;

interface Entry<T> {
  value: T;
  at: number;
}

/**
 * Sessions and memberships read from PostgreSQL, kept in this process so that a signed-in request does
 * not read them again. Triggers NOTIFY every change or removal of a session row, a user or a membership
 * (drizzle/0001_auth_notify.sql), and the entry goes at once; kept true as every {@link NotifiedCache}
 * is: readers take a `stamp()` before reading.
 */
export class AuthCache extends NotifiedCache {
  private readonly sessions = new Map<string, Entry<CachedSession>>();
  /** By user id, then tenant id, so a change to a user forgets all of their memberships. */
  private readonly members: GroupedEntries<Membership>;
  private readonly now: () => number;

  constructor(private readonly options: AuthCacheOptions) {
    super();
    this.now = options.now ?? Date.now;
    this.members = new GroupedEntries(options);
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

  /**
   * Keeps `value` as the session's row if nothing changed since `stamp`; otherwise forgets the session,
   * since whatever was kept of it is no newer than `value`.
   */
  putSession(sid: string, value: CachedSession, stamp: number): void {
    this.sessions.delete(sid);
    if (!this.current(stamp)) return;
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
    return this.members.get(userId, tenantId);
  }

  putMember(userId: string, tenantId: string, value: Membership, stamp: number): void {
    if (this.current(stamp)) this.members.set(userId, tenantId, value);
  }

  forgetSession(sid: string): void {
    this.changed();
    this.sessions.delete(sid);
  }

  forgetUser(userId: string): void {
    this.changed();
    this.members.drop(userId);
  }

  onNotify(payload: string): void {
    const id = payload.slice(2);
    if (payload.startsWith("s:")) this.forgetSession(id);
    else if (payload.startsWith("u:")) this.forgetUser(id);
    else {
      this.changed();
      this.clear();
    }
  }

  protected clear(): void {
    this.sessions.clear();
    this.members.clear();
  }
}
