/**
 * How much JSON one client may have the server build. Within the shape limits a body may still hold
 * 20,000 keys, which JSON.parse takes a few milliseconds to build on the request thread: sent as fast as
 * the rate limit allows, such bodies would hold up every other request. So each JSON body's keys and
 * elements past the first `free` are charged to its client (the rate limit's key), from a budget of
 * `burst` that refills at `perSecond`; a body the budget cannot pay for is refused before it is parsed.
 * Ordinary requests never reach it (a result save, a sign-in, a Tele-AWV submit hold fewer than 100), and
 * a survey of 200 questions (about 6,200) can be saved 19 times in a row, then every 3 seconds.
 * Kept in the process's memory: under WORKERS=n each process holds a budget of its own.
 */
export interface EntryBudgetLimits {
  /** Keys and elements of one body that are never charged. */
  free: number;
  /** What a client may spend at once. */
  burst: number;
  /** What comes back each second. */
  perSecond: number;
}

export const ENTRY_BUDGET: EntryBudgetLimits = { free: 1_000, burst: 100_000, perSecond: 2_000 };

/** Clients held at once; past this the ones whose budget has come back whole are forgotten. */
const MAX_CLIENTS = 10_000;

export class EntryBudget {
  /** What each client has spent and not yet got back, as of `at` (ms). */
  private readonly spent = new Map<string, { level: number; at: number }>();

  constructor(
    readonly limits: EntryBudgetLimits = ENTRY_BUDGET,
    private readonly now: () => number = () => performance.now(),
  ) {}

  /**
   * Charges a body of `entries` keys and elements to `client`: 0 when it is paid for, else the seconds
   * until the budget could pay for it (nothing is charged then).
   */
  charge(client: string, entries: number): number {
    const cost = entries - this.limits.free;
    if (cost <= 0) return 0;
    const now = this.now();
    const held = this.spent.get(client);
    const level =
      held === undefined ? 0 : Math.max(0, held.level - ((now - held.at) / 1000) * this.limits.perSecond);
    if (level + cost > this.limits.burst) {
      return Math.max(1, Math.ceil((level + cost - this.limits.burst) / this.limits.perSecond));
    }
    if (held === undefined && this.spent.size >= MAX_CLIENTS) this.forgetRefilled(now);
    this.spent.set(client, { level: level + cost, at: now });
    return 0;
  }

  private forgetRefilled(now: number) {
    for (const [client, { level, at }] of this.spent) {
      if (level - ((now - at) / 1000) * this.limits.perSecond <= 0) this.spent.delete(client);
    }
  }
}
