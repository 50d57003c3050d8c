import { useCallback, useEffect, useState } from "react";
import { ApiError, formErrorMessage } from "../api/client";

function isAborted(error: unknown): boolean {
  return error instanceof DOMException && error.name === "AbortError";
}

/** What {@link LoadState.failed} holds when the record is not there (404): removed or another practice's. */
export const NOT_FOUND = "not found";

/** Why a load failed, in words: the server's message, or that the network is out of reach. */
export function failureText(error: unknown): string {
  if (error instanceof ApiError && error.status === 404) return NOT_FOUND;
  if (error instanceof ApiError && error.status === 0) return formErrorMessage(error);
  return error instanceof Error && error.message !== "" ? error.message : "An unexpected error occurred.";
}

/** What {@link useLoader} tells its page: why the last load failed (null when it did not), and Retry. */
export interface LoadState {
  failed: string | null;
  retry: () => void;
}

/**
 * Runs `load` now and whenever it changes (a `useCallback` of the page's query), remembering why it
 * failed, so the page shows the error and a Retry instead of "Loading..." for good.
 */
export function useLoader(load: () => Promise<unknown>): LoadState {
  const [failed, setFailed] = useState<string | null>(null);
  const [attempt, setAttempt] = useState(0);
  useEffect(() => {
    let live = true;
    setFailed(null);
    load().then(
      () => live && setFailed(null),
      (error: unknown) => {
        if (live && !isAborted(error)) setFailed(failureText(error));
      },
    );
    return () => {
      live = false;
    };
  }, [load, attempt]);
  const retry = useCallback(() => setAttempt((n) => n + 1), []);
  return { failed, retry };
}

/**
 * A load that failed: what could not be loaded, why, and a Retry button. It stays where the data would
 * be; the error banner has already announced the failure, so it is not announced a second time.
 */
export function LoadError({ what, state }: { what: string; state: LoadState }) {
  return (
    <div className="load-error">
      <p>
        {what} could not be loaded. {state.failed}
      </p>
      <button type="button" className="button small" onClick={state.retry}>
        Retry
      </button>
    </div>
  );
}

/** The empty cell of a list: its load error with Retry, "Loading..." while loading, else `empty`. */
export function listStatus(loaded: boolean, state: LoadState, what: string, empty: React.ReactNode) {
  if (loaded) return empty;
  return state.failed === null ? "Loading..." : <LoadError what={what} state={state} />;
}
