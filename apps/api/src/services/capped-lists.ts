import type { Subscriber } from "../db/index.js";

/** The NOTIFY channel of drizzle/0013_list_totals_notify.sql: a tenant id, or '*' for every tenant. */
export const LISTS_CHANNEL = "core_care_lists";

export interface CappedListsOptions {
  maxEntries: number;
  /** A bound on how long an entry is trusted, beside the notifications that normally end it. */
  maxAgeMs: number;
  now?: () => number;
}

/**
 * The lists of each practice known to hold more than the capped count's rows, so that their pages answer
 * "1,000+" without counting 1,001 index entries again: that count was about a quarter of PostgreSQL's time
 * for a page of a practice's results. New rows only lengthen a list; whatever may shorten one (a result or
 * patient removed, restored, deleted or moved, in any process or by hand) NOTIFYs its practice from a
 * trigger (drizzle/0013_list_totals_notify.sql), and that practice's lists are forgotten at once. While the listening connection is down nothing
 * is kept, since a notification could be missed then.
 *
 * A verdict read before a change but put after its notification must not stay, so readers take a
 * `stamp()` before reading and `put` drops the verdict when anything was forgotten since that stamp.
 */
export class CappedLists implements Subscriber {
  /** Tenant id, then the list's key, then when it was found capped. */
  private readonly tenants = new Map<string, Map<string, number>>();
  private size = 0;
  private generation = 0;
  private live = false;
  private readonly now: () => number;

  constructor(private readonly options: CappedListsOptions) {
    this.now = options.now ?? Date.now;
  }

  stamp(): number {
    return this.generation;
  }

  /** Whether the tenant's list `key` was found capped, and nothing that could shorten it happened since. */
  has(tenantId: string, key: string): boolean {
    const lists = this.tenants.get(tenantId);
    const at = lists?.get(key);
    if (lists === undefined || at === undefined) return false;
    if (this.now() - at > this.options.maxAgeMs) {
      lists.delete(key);
      this.size--;
      return false;
    }
    return true;
  }

  /** Records that the tenant's list `key` was counted past the cap by a read that began at `stamp`. */
  put(tenantId: string, key: string, stamp: number): void {
    if (!this.live || stamp !== this.generation) return;
    const known = this.tenants.get(tenantId)?.has(key) ?? false;
    if (!known && this.size >= this.options.maxEntries) this.drop(this.tenants.keys().next().value!);
    let lists = this.tenants.get(tenantId);
    if (lists === undefined) {
      lists = new Map<string, number>();
      this.tenants.set(tenantId, lists);
    }
    if (!known) this.size++;
    lists.set(key, this.now());
  }

  /** Forgets the tenant's lists: one of them may have shortened. */
  forget(tenantId: string): void {
    this.generation++;
    this.drop(tenantId);
  }

  onNotify(payload: string): void {
    if (payload === "*") this.clear();
    else this.forget(payload);
  }

  onLive(live: boolean): void {
    this.live = live;
    this.clear();
  }

  private drop(tenantId: string): void {
    this.size -= this.tenants.get(tenantId)?.size ?? 0;
    this.tenants.delete(tenantId);
  }

  private clear(): void {
    this.generation++;
    this.tenants.clear();
    this.size = 0;
  }
}
