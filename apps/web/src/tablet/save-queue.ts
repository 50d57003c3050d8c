/** Answers of a survey result, keyed by field name. */
export type Answers = Record<string, unknown>;

/** Everything POST /api/surveyresults needs except the server-given id. */
export interface ResultSnapshot {
  clientRequestId: string;
  surveyId: string;
  patientId: string;
  isSubmitted: boolean;
  answers: Answers;
}

/** The body of POST /api/surveyresults. */
export interface SaveBody extends ResultSnapshot {
  id?: string;
}

/**
 * What one attempt to send a save gave: the result id; `offline` when the server could not be
 * reached (try again later, nothing was refused); `rejected` when the server answered with an error.
 */
export type SendOutcome =
  { kind: "saved"; id: string } | { kind: "offline" } | { kind: "rejected"; status: number; message: string };

/** How a call to {@link SaveQueue.save} ended. */
export type SaveOutcome =
  { kind: "saved"; id: string } | { kind: "rejected"; status: number; message: string };

/** `offline`: a save waits for the network; `saving`: one is in flight. */
export type SaveStatus = "idle" | "saving" | "offline";

/** What the queue keeps in durable storage so a reload or a later connection can finish its work. */
export interface QueueState {
  resultId: string | null;
  unsent: ResultSnapshot | null;
}

export interface SaveQueueOptions {
  send(body: SaveBody): Promise<SendOutcome>;
  /** Called whenever the durable state changes; the caller writes it to browser storage. */
  persist(state: QueueState): void;
  initial?: QueueState;
  onStatus?(status: SaveStatus): void;
  /** Retry interval while offline, on top of {@link SaveQueue.retry} calls from the 'online' event. */
  retryDelayMs?: number;
}

/**
 * Serialises survey-result saves (SPEC 4): the first save creates the result and returns its id;
 * saves made meanwhile wait for it and then carry the id. Only the newest waiting snapshot is sent
 * (each snapshot holds all answers). A snapshot stays in durable state until the server
 * acknowledges it or a newer one is acknowledged.
 */
export interface SaveQueue {
  save(snapshot: ResultSnapshot): Promise<SaveOutcome>;
  /**
   * Sends the snapshot left unsent by an earlier page load (`initial.unsent`) and resolves with its
   * outcome; null when there is nothing to send.
   */
  flush(): Promise<SaveOutcome> | null;
  /** Sends the waiting snapshot now if the queue is waiting for the network. */
  retry(): void;
  readonly resultId: string | null;
  readonly status: SaveStatus;
  /** Stops retrying; waiting callers are never resolved. */
  dispose(): void;
}

interface Waiter {
  resolve(outcome: SaveOutcome): void;
}

/** Creates a {@link SaveQueue}; a persisted unsent snapshot in `initial` waits for {@link SaveQueue.flush}. */
export function createSaveQueue(options: SaveQueueOptions): SaveQueue {
  const retryDelayMs = options.retryDelayMs ?? 15_000;
  let resultId = options.initial?.resultId ?? null;
  let pending: ResultSnapshot | null = options.initial?.unsent ?? null;
  let pendingWaiters: Waiter[] = [];
  let inFlight: ResultSnapshot | null = null;
  let status: SaveStatus = "idle";
  let retryTimer: ReturnType<typeof setTimeout> | null = null;
  let disposed = false;

  const setStatus = (next: SaveStatus): void => {
    if (next === status) return;
    status = next;
    options.onStatus?.(next);
  };

  const persist = (): void => {
    options.persist({ resultId, unsent: pending ?? inFlight });
  };

  const clearRetry = (): void => {
    if (retryTimer !== null) clearTimeout(retryTimer);
    retryTimer = null;
  };

  const pump = async (): Promise<void> => {
    if (disposed || inFlight !== null || pending === null) return;
    clearRetry();
    const snapshot = pending;
    const waiters = pendingWaiters;
    pending = null;
    pendingWaiters = [];
    inFlight = snapshot;
    setStatus("saving");
    const body: SaveBody = resultId === null ? { ...snapshot } : { ...snapshot, id: resultId };
    let outcome: SendOutcome;
    try {
      outcome = await options.send(body);
    } catch {
      outcome = { kind: "offline" };
    }
    inFlight = null;
    if (disposed) return;

    // A submitted result answers 409 to a repeat; when the repeat is our own submit whose answer
    // was lost on the way back, the result is stored and there is nothing more to send.
    if (outcome.kind === "rejected" && outcome.status === 409 && snapshot.isSubmitted && resultId !== null) {
      outcome = { kind: "saved", id: resultId };
    }

    switch (outcome.kind) {
      case "saved": {
        resultId = outcome.id;
        persist();
        setStatus(pending === null ? "idle" : "saving");
        for (const waiter of waiters) waiter.resolve({ kind: "saved", id: outcome.id });
        break;
      }
      case "offline": {
        if (pending === null) pending = snapshot;
        pendingWaiters = [...waiters, ...pendingWaiters];
        persist();
        setStatus("offline");
        retryTimer = setTimeout(() => void pump(), retryDelayMs);
        return;
      }
      case "rejected": {
        // The snapshot stays unsent: the next save or a reload sends the answers again.
        if (pending === null) pending = snapshot;
        const rejected: SaveOutcome = { kind: "rejected", status: outcome.status, message: outcome.message };
        persist();
        setStatus("idle");
        for (const waiter of waiters) waiter.resolve(rejected);
        if (pending !== snapshot) void pump();
        return;
      }
    }
    void pump();
  };

  return {
    save(snapshot) {
      return new Promise<SaveOutcome>((resolve) => {
        pending = snapshot;
        pendingWaiters.push({ resolve });
        persist();
        if (status !== "offline") void pump();
      });
    },
    flush() {
      if (pending === null) return null;
      return new Promise<SaveOutcome>((resolve) => {
        pendingWaiters.push({ resolve });
        void pump();
      });
    },
    retry() {
      if (status === "offline" || (inFlight === null && pending !== null)) void pump();
    },
    get resultId() {
      return resultId;
    },
    get status() {
      return status;
    },
    dispose() {
      disposed = true;
      clearRetry();
    },
  };
}
