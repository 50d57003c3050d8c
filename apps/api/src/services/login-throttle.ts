/** Sliding-window failure limits for sign-in and password checks. */
export interface ThrottleLimits {
  windowMs: number;
  /** Failures of one account from one address. */
  perAccountAndAddress: number;
  /** Failures of one account from any address (guessing spread over many addresses). */
  perAccount: number;
  /**
   * Failures from one address over all accounts (one address trying many accounts). High, because a
   * whole clinic may sit behind one address and one colleague's typos must not lock out the others.
   */
  perAddress: number;
}

export const DEFAULT_THROTTLE_LIMITS: ThrottleLimits = {
  windowMs: 15 * 60 * 1000,
  perAccountAndAddress: 5,
  perAccount: 20,
  perAddress: 100,
};

const MAX_KEYS = 100_000;

/**
 * Counts failed password checks per account, per address and per pair, in memory. Only failures count,
 * and a success clears its account-and-address pair, so staff who sign in correctly are never held back
 * by someone else's mistakes at the same address unless that address guesses at scale.
 */
export class LoginThrottle {
  private readonly failures = new Map<string, number[]>();

  constructor(
    private readonly limits: ThrottleLimits = DEFAULT_THROTTLE_LIMITS,
    private readonly now: () => number = Date.now,
  ) {}

  private recent(key: string): number[] {
    const since = this.now() - this.limits.windowMs;
    const list = (this.failures.get(key) ?? []).filter((t) => t > since);
    if (list.length === 0) this.failures.delete(key);
    else this.failures.set(key, list);
    return list;
  }

  /** True when another attempt for this account from this address must wait. */
  isBlocked(account: string, address: string): boolean {
    return (
      this.recent(`pair:${account}|${address}`).length >= this.limits.perAccountAndAddress ||
      this.recent(`account:${account}`).length >= this.limits.perAccount ||
      this.recent(`address:${address}`).length >= this.limits.perAddress
    );
  }

  recordFailure(account: string, address: string): void {
    if (this.failures.size > MAX_KEYS) {
      const oldest = this.failures.keys().next();
      if (oldest.done !== true) this.failures.delete(oldest.value);
    }
    const t = this.now();
    for (const key of [`pair:${account}|${address}`, `account:${account}`, `address:${address}`]) {
      this.failures.set(key, [...this.recent(key), t]);
    }
  }

  recordSuccess(account: string, address: string): void {
    this.failures.delete(`pair:${account}|${address}`);
  }
}
