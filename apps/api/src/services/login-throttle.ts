import { createHash } from "node:crypto";
import { inArray, lt, sql } from "drizzle-orm";
import type { Db } from "../db/index.js";
import { loginThrottle } from "../db/schema.js";

/**
 * Limits of the sign-in throttle. Each counter allows `free` failures in its window; every failure past
 * that holds the next attempt back for a doubling time (1 s, 2 s, 4 s, ... up to `maxBackoffMs`).
 */
export interface ThrottleLimits {
  windowMs: number;
  /** Failures of one account from one address. */
  perAccountAndAddress: number;
  /** Failures of one account from any address: guessing spread over many addresses. */
  perAccount: number;
  /** Failures from one address over all accounts: one address trying many accounts. */
  perAddress: number;
  maxBackoffMs: number;
  /** How long a successful sign-in makes its address trusted for that account. */
  trustMs: number;
}

export const DEFAULT_THROTTLE_LIMITS: ThrottleLimits = {
  windowMs: 15 * 60 * 1000,
  perAccountAndAddress: 5,
  perAccount: 20,
  perAddress: 100,
  maxBackoffMs: 15 * 60 * 1000,
  trustMs: 30 * 24 * 60 * 60 * 1000,
};

/** Whether an attempt may go ahead, and if not, for how many seconds it must wait. */
export type ThrottleVerdict = { blocked: false } | { blocked: true; retryAfterSeconds: number };

type Counter = "pair" | "account" | "address";

const hash = (kind: string, value: string) => createHash("sha256").update(`${kind}\0${value}`).digest("hex");

/**
 * Failed password and code checks, counted in PostgreSQL so every API process on the database sees the
 * same counts. Only failures count, per account and address, per account and per address, and none of
 * them locks anyone out: past its free failures a counter only makes the next attempt wait, doubling up
 * to a cap (OWASP ASVS 2.2.1, no CAPTCHA). The account and address counters never hold back an address
 * that signed in to that account successfully within `trustMs`, so an attacker guessing from elsewhere
 * cannot lock the owner out; the owner's own address is held only by its own failures.
 */
export class LoginThrottle {
  constructor(
    private readonly db: Db,
    private readonly limits: ThrottleLimits = DEFAULT_THROTTLE_LIMITS,
    private readonly now: () => Date = () => new Date(),
  ) {}

  private keys(account: string, address: string): Record<Counter, string> {
    const a = account.toLowerCase();
    return {
      pair: hash("pair", `${a}\0${address}`),
      account: hash("account", a),
      address: hash("address", address),
    };
  }

  /** Whether this account may try a password from this address now. */
  async check(account: string, address: string): Promise<ThrottleVerdict> {
    const keys = this.keys(account, address);
    const rows = await this.db
      .select()
      .from(loginThrottle)
      .where(inArray(loginThrottle.key, Object.values(keys)));
    const byKey = new Map(rows.map((row) => [row.key, row]));
    const now = this.now().getTime();
    const pair = byKey.get(keys.pair);
    const trusted =
      pair?.lastSuccessAt !== null &&
      pair?.lastSuccessAt !== undefined &&
      now - pair.lastSuccessAt.getTime() < this.limits.trustMs;
    const holding = [pair, ...(trusted ? [] : [byKey.get(keys.account), byKey.get(keys.address)])];
    const until = Math.max(0, ...holding.map((row) => row?.blockedUntil?.getTime() ?? 0));
    return until > now
      ? { blocked: true, retryAfterSeconds: Math.ceil((until - now) / 1000) }
      : { blocked: false };
  }

  /** Counts a failed check of this account from this address. */
  async recordFailure(account: string, address: string): Promise<void> {
    const keys = this.keys(account, address);
    const free: Record<Counter, number> = {
      pair: this.limits.perAccountAndAddress,
      account: this.limits.perAccount,
      address: this.limits.perAddress,
    };
    const now = this.now();
    const windowStart = new Date(now.getTime() - this.limits.windowMs);
    for (const counter of ["pair", "account", "address"] as const) {
      // The count after this failure, restarted when the window has passed.
      const failures = sql`(case when ${loginThrottle.windowStartedAt} < ${windowStart} then 1
        else ${loginThrottle.failures} + 1 end)`;
      await this.db
        .insert(loginThrottle)
        .values({
          key: keys[counter],
          failures: 1,
          windowStartedAt: now,
          blockedUntil: free[counter] <= 1 ? new Date(now.getTime() + 1000) : null,
          updatedAt: now,
        })
        .onConflictDoUpdate({
          target: loginThrottle.key,
          set: {
            failures,
            windowStartedAt: sql`(case when ${loginThrottle.windowStartedAt} < ${windowStart} then ${now}
              else ${loginThrottle.windowStartedAt} end)`,
            blockedUntil: sql`(case when ${failures} >= ${free[counter]}
              then ${now}::timestamptz + least(${this.limits.maxBackoffMs}::float8,
                1000 * power(2, least(${failures} - ${free[counter]}, 30))) * interval '1 millisecond'
              else null end)`,
            updatedAt: now,
          },
        });
    }
  }

  /** A successful check: the pair's failures are forgotten and its address is trusted for the account. */
  async recordSuccess(account: string, address: string): Promise<void> {
    const now = this.now();
    await this.db
      .insert(loginThrottle)
      .values({ key: this.keys(account, address).pair, failures: 0, lastSuccessAt: now, updatedAt: now })
      .onConflictDoUpdate({
        target: loginThrottle.key,
        set: { failures: 0, blockedUntil: null, lastSuccessAt: now, updatedAt: now },
      });
  }

  /**
   * Counts one event of a kind for a value within `windowMs` and answers how many there were, this one
   * included (quiet limits such as password-reset mails per account).
   */
  async count(kind: string, value: string, windowMs: number): Promise<number> {
    const now = this.now();
    const windowStart = new Date(now.getTime() - windowMs);
    const [row] = await this.db
      .insert(loginThrottle)
      .values({ key: hash(kind, value.toLowerCase()), failures: 1, windowStartedAt: now, updatedAt: now })
      .onConflictDoUpdate({
        target: loginThrottle.key,
        set: {
          failures: sql`(case when ${loginThrottle.windowStartedAt} < ${windowStart} then 1
            else ${loginThrottle.failures} + 1 end)`,
          windowStartedAt: sql`(case when ${loginThrottle.windowStartedAt} < ${windowStart} then ${now}
            else ${loginThrottle.windowStartedAt} end)`,
          updatedAt: now,
        },
      })
      .returning({ failures: loginThrottle.failures });
    return row?.failures ?? 1;
  }

  /** Forgets counters untouched for longer than an address stays trusted. */
  async prune(): Promise<void> {
    await this.db
      .delete(loginThrottle)
      .where(lt(loginThrottle.updatedAt, new Date(this.now().getTime() - this.limits.trustMs)));
  }
}
