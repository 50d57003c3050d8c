export interface BatcherOptions<I> {
  /** The most items one run takes. */
  maxBatch: number;
  /** The most runs under way at once; more items wait and go together in the next run. */
  maxInFlight: number;
  /** Items with the same key never share a run; a later one waits for the next. */
  keyOf?: (item: I) => string | undefined;
  /** A run takes items up to this total weight (always at least one item). */
  maxWeight?: number;
  weightOf?: (item: I) => number;
  /** Told the size of each run as it starts (the save batch size metric). */
  onRun?: (size: number) => void;
}

interface Pending<I, O> {
  item: I;
  resolve: (answer: O) => void;
  reject: (error: unknown) => void;
}

/**
 * Gathers items that arrive while earlier runs are under way and hands them to `run` together, so that
 * many concurrent requests share one database round trip, one plan and one commit (group commit). An
 * item arriving when a run slot is free goes at once, on the next turn of the event loop, so a quiet
 * server adds no wait. If a run fails as a whole, each of its items is run again alone, so that one bad
 * item cannot fail the others: a run must take effect entirely or not at all (one statement, or one
 * transaction), or its items must be safe to run twice.
 */
export class Batcher<I, O> {
  private queue: Pending<I, O>[] = [];
  private inFlight = 0;
  private scheduled = false;

  constructor(
    private readonly run: (items: I[]) => Promise<O[]>,
    private readonly options: BatcherOptions<I>,
  ) {}

  add(item: I): Promise<O> {
    return new Promise<O>((resolve, reject) => {
      this.queue.push({ item, resolve, reject });
      this.schedule();
    });
  }

  private schedule(): void {
    if (this.scheduled || this.queue.length === 0 || this.inFlight >= this.options.maxInFlight) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      while (this.queue.length > 0 && this.inFlight < this.options.maxInFlight) this.flush(this.take());
    });
  }

  private take(): Pending<I, O>[] {
    const { maxBatch, maxWeight = Infinity, keyOf, weightOf } = this.options;
    const batch: Pending<I, O>[] = [];
    const keys = new Set<string>();
    const rest: Pending<I, O>[] = [];
    let weight = 0;
    for (const pending of this.queue) {
      const key = keyOf?.(pending.item);
      const itemWeight = weightOf?.(pending.item) ?? 0;
      const full = batch.length >= maxBatch || (batch.length > 0 && weight + itemWeight > maxWeight);
      if (full || (key !== undefined && keys.has(key))) {
        rest.push(pending);
        continue;
      }
      if (key !== undefined) keys.add(key);
      weight += itemWeight;
      batch.push(pending);
    }
    this.queue = rest;
    return batch;
  }

  private flush(batch: Pending<I, O>[]): void {
    this.inFlight++;
    this.options.onRun?.(batch.length);
    this.settle(batch)
      .catch(() => undefined)
      .finally(() => {
        this.inFlight--;
        this.schedule();
      });
  }

  private async settle(batch: Pending<I, O>[]): Promise<void> {
    try {
      const answers = await this.run(batch.map((pending) => pending.item));
      if (answers.length !== batch.length) throw new Error("a batch run answered the wrong number of items");
      for (const [index, pending] of batch.entries()) pending.resolve(answers[index] as O);
    } catch (error) {
      if (batch.length === 1) {
        batch[0]?.reject(error);
        return;
      }
      for (const pending of batch) await this.settle([pending]);
    }
  }
}
