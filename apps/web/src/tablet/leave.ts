/** How long leaving the tablet waits for a last save before the page goes anyway. */
export const LEAVE_WAIT_MS = 5000;

/** Work to finish before the page is left for `to`, such as sending a patient's last answers. */
export type BeforeLeave = (to: string) => Promise<unknown> | undefined;

/** Leaving the tablet entry for a page of another entry: the staff app or /auth. */
export interface TabletExit {
  /** Registers `work` to run before the page is left; returns the function that removes it. */
  beforeLeave(work: BeforeLeave): () => void;
  /**
   * Goes to `to` with a full page load once the registered work and `pending` have settled, or
   * after the wait, whichever comes first: the unload would cut off a save still on its way.
   * Only the first call leaves; later ones (say, a second 401) resolve without doing anything.
   */
  leave(to: string, pending?: Promise<unknown>): Promise<void>;
}

/** Creates a {@link TabletExit} that moves with `go` and waits at most `waitMs`. */
export function createTabletExit(options: { go: (to: string) => void; waitMs: number }): TabletExit {
  const work = new Set<BeforeLeave>();
  let left = false;
  return {
    beforeLeave(item) {
      work.add(item);
      return () => {
        work.delete(item);
      };
    },
    async leave(to, pending) {
      if (left) return;
      left = true;
      const waiting: Promise<unknown>[] = [];
      for (const item of work) {
        const done = item(to);
        if (done) waiting.push(done);
      }
      if (pending) waiting.push(pending);
      let timer: ReturnType<typeof setTimeout> | undefined;
      await Promise.race([
        Promise.allSettled(waiting),
        new Promise<void>((resolve) => {
          timer = setTimeout(resolve, options.waitMs);
        }),
      ]);
      clearTimeout(timer);
      options.go(to);
    },
  };
}

/** The page's exit: the staff app and /auth are another HTML entry, so moving there reloads the page. */
export const tabletExit = createTabletExit({
  go: (to) => window.location.assign(to),
  waitMs: LEAVE_WAIT_MS,
});
