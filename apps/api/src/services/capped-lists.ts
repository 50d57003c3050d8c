import { GroupedEntries, NotifiedCache, type NotifiedCacheOptions } from "./notified-cache.js";

/** The NOTIFY channel of drizzle/0013_list_totals_notify.sql: a tenant id, or '*' for every tenant. */
export const LISTS_CHANNEL = "core_care_lists";

/**
 * The lists of each practice known to hold more than the capped count's rows, so that their pages answer
 * "1,000+" without counting 1,001 index entries again: that count was about a quarter of PostgreSQL's time
 * for a page of a practice's results. New rows only lengthen a list; whatever may shorten one (a result or
 * patient removed, restored, deleted or moved, in any process or by hand) NOTIFYs its practice from a
 * trigger (drizzle/0013_list_totals_notify.sql), and that practice's lists are forgotten at once. Kept
 * true as every {@link NotifiedCache} is: readers take a `stamp()` before counting.
 */
export class CappedLists extends NotifiedCache {
  /** By tenant id, then the list's key. */
  private readonly lists: GroupedEntries<true>;

  constructor(options: NotifiedCacheOptions) {
    super();
    this.lists = new GroupedEntries(options);
  }

  /** Whether the tenant's list `key` was found capped, and nothing that could shorten it happened since. */
  has(tenantId: string, key: string): boolean {
    return this.lists.get(tenantId, key) === true;
  }

  /** Records that the tenant's list `key` was counted past the cap by a read that began at `stamp`. */
  put(tenantId: string, key: string, stamp: number): void {
    if (this.current(stamp)) this.lists.set(tenantId, key, true);
  }

  /** Forgets the tenant's lists: one of them may have shortened. */
  forget(tenantId: string): void {
    this.changed();
    this.lists.drop(tenantId);
  }

  onNotify(payload: string): void {
    if (payload === "*") {
      this.changed();
      this.clear();
    } else this.forget(payload);
  }

  protected clear(): void {
    this.lists.clear();
  }
}
