import { AppError } from "../errors.js";

/** Seconds a practice is told to wait when its list reads are all taken and its queue did not move. */
export const LIST_BUSY_RETRY_AFTER_SECONDS = 2;

/** The answer of a list read that waited its turn among its practice's reads for too long. */
export const listsBusy = () =>
  new AppError(503, "LISTS_BUSY", "This practice's lists are busy. Please try again in a moment.", {
    headers: { "retry-after": String(LIST_BUSY_RETRY_AFTER_SECONDS) },
  });

export interface TenantSlotLimits {
  /** How many list reads (pages and searches) one practice may run at once. */
  perTenant: number;
  /** How long a practice's further read waits for one of them before answering 503. */
  waitMs: number;
  /** How many of a practice's reads may wait at once; more answer 503 at once. */
  maxWaiting: number;
}

interface Waiter {
  resolve: () => void;
  timer: NodeJS.Timeout;
}

interface TenantState {
  running: number;
  waiting: Waiter[];
}

/**
 * A cap on each practice's concurrent list reads, so that one practice's expensive pages cannot take the
 * list reads' connections (5 by default on a server) from the others: a practice runs at most `perTenant`
 * at once, its next reads wait in its own first-in first-out queue for at most `waitMs`, and those left
 * waiting, or past `maxWaiting`, answer 503 with Retry-After. Other practices' reads never wait here.
 */
export class TenantSlots {
  readonly #limits: TenantSlotLimits;
  readonly #tenants = new Map<string, TenantState>();

  constructor(limits: TenantSlotLimits) {
    this.#limits = limits;
  }

  /** Runs `work` in one of the practice's slots, waiting for one as the limits allow. */
  async run<T>(tenantId: string, work: () => Promise<T>): Promise<T> {
    await this.#acquire(tenantId);
    try {
      return await work();
    } finally {
      this.#release(tenantId);
    }
  }

  /** How many reads the practice runs and how many wait (metrics and tests). */
  stateOf(tenantId: string): { running: number; waiting: number } {
    const state = this.#tenants.get(tenantId);
    return { running: state?.running ?? 0, waiting: state?.waiting.length ?? 0 };
  }

  #acquire(tenantId: string): Promise<void> {
    let state = this.#tenants.get(tenantId);
    if (state === undefined) {
      state = { running: 0, waiting: [] };
      this.#tenants.set(tenantId, state);
    }
    if (state.running < this.#limits.perTenant) {
      state.running++;
      return Promise.resolve();
    }
    if (state.waiting.length >= this.#limits.maxWaiting || this.#limits.waitMs <= 0) {
      return Promise.reject(listsBusy());
    }
    const queue = state;
    return new Promise<void>((resolve, reject) => {
      const waiter: Waiter = {
        // Handed a slot by #release: the running count already holds it.
        resolve: () => {
          clearTimeout(waiter.timer);
          resolve();
        },
        timer: setTimeout(() => {
          const at = queue.waiting.indexOf(waiter);
          if (at >= 0) queue.waiting.splice(at, 1);
          reject(listsBusy());
        }, this.#limits.waitMs),
      };
      queue.waiting.push(waiter);
    });
  }

  #release(tenantId: string): void {
    const state = this.#tenants.get(tenantId);
    if (state === undefined) return;
    const next = state.waiting.shift();
    // The slot passes straight to the practice's next read, first come first served.
    if (next !== undefined) return next.resolve();
    state.running--;
    if (state.running === 0) this.#tenants.delete(tenantId);
  }
}
