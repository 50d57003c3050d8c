import type { Subscriber } from "../db/index.js";

export interface NotifiedCacheOptions {
  /** The most entries kept; more make room by the oldest. */
  maxEntries: number;
  /** A bound on how long an entry is trusted, beside the notifications that normally end it. */
  maxAgeMs: number;
  now?: () => number;
}

/**
 * What this process keeps of PostgreSQL's rows, kept true by NOTIFY: triggers announce every change that
 * could make an entry wrong (whichever process or person made it), and the entry goes at once.
 * PostgreSQL stays the only record. While the listening connection is down nothing is kept, since a
 * notification could be missed then.
 *
 * A value read before a change but put after its notification must not stay, so readers take a
 * `stamp()` before reading, and a subclass keeps what it is given only while `current(stamp)`: listening,
 * and nothing forgotten since the stamp.
 */
export abstract class NotifiedCache implements Subscriber {
  private generation = 0;
  private live = false;

  stamp(): number {
    return this.generation;
  }

  abstract onNotify(payload: string): void;

  onLive(live: boolean): void {
    this.live = live;
    this.changed();
    this.clear();
  }

  /** Whether a value read since `stamp` may be kept. */
  protected current(stamp: number): boolean {
    return this.live && stamp === this.generation;
  }

  /** Something may have changed in PostgreSQL: values read before now are not kept. */
  protected changed(): void {
    this.generation++;
  }

  /** Forgets every entry. */
  protected abstract clear(): void;
}

interface Entry<V> {
  value: V;
  at: number;
}

/**
 * Entries in groups that are forgotten together (a user's memberships, a practice's lists): at most
 * `maxEntries` in all, making room by the group put first, and each answered no longer than `maxAgeMs`
 * after it was put.
 */
export class GroupedEntries<V> {
  private readonly groups = new Map<string, Map<string, Entry<V>>>();
  private count = 0;
  private readonly now: () => number;

  constructor(private readonly options: NotifiedCacheOptions) {
    this.now = options.now ?? Date.now;
  }

  get(group: string, key: string): V | undefined {
    const entries = this.groups.get(group);
    const entry = entries?.get(key);
    if (entries === undefined || entry === undefined) return undefined;
    if (this.now() - entry.at > this.options.maxAgeMs) {
      entries.delete(key);
      this.count--;
      if (entries.size === 0) this.groups.delete(group);
      return undefined;
    }
    return entry.value;
  }

  set(group: string, key: string, value: V): void {
    const known = this.groups.get(group)?.has(key) ?? false;
    if (!known) {
      while (this.count >= this.options.maxEntries && this.groups.size > 0)
        this.drop(this.groups.keys().next().value!);
      this.count++;
    }
    let entries = this.groups.get(group);
    if (entries === undefined) {
      entries = new Map<string, Entry<V>>();
      this.groups.set(group, entries);
    }
    entries.set(key, { value, at: this.now() });
  }

  drop(group: string): void {
    this.count -= this.groups.get(group)?.size ?? 0;
    this.groups.delete(group);
  }

  clear(): void {
    this.groups.clear();
    this.count = 0;
  }
}
