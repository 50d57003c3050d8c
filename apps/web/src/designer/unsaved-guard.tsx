import { useContext, useEffect, useId } from "react";
import { UNSAFE_DataRouterContext, useBlocker, type Blocker } from "react-router-dom";
import { Modal } from "../ui/modal";

/**
 * Asks before the page is closed or reloaded while `when` holds: the browser shows its own question
 * (its wording cannot be set). `allowed` lets a deliberate reload or sign-out through.
 */
export function useBeforeUnload(when: boolean, allowed: () => boolean): void {
  useEffect(() => {
    if (!when) return;
    const onBeforeUnload = (event: BeforeUnloadEvent) => {
      if (allowed()) return;
      event.preventDefault();
      // Older Chromium asks only when returnValue is set.
      event.returnValue = "";
    };
    window.addEventListener("beforeunload", onBeforeUnload);
    return () => window.removeEventListener("beforeunload", onBeforeUnload);
  }, [when, allowed]);
}

/** Holds in-app navigation away from the page while `when` holds; signing out (/auth) always passes. */
function useLeaveBlocker(when: boolean): Blocker {
  return useBlocker(
    ({ currentLocation, nextLocation }) =>
      when &&
      currentLocation.pathname !== nextLocation.pathname &&
      !nextLocation.pathname.startsWith("/auth"),
  );
}

/**
 * Warns before leaving a designer with unsaved work: a dialog for a link or Back inside the portal, the
 * browser's question for closing or reloading the tab. The edits stay in this browser either way (the
 * document's local copy), but the practice does not have them until they are saved.
 */
export function UnsavedChangesGuard({
  when,
  what,
  allowed,
  onSave,
}: {
  when: boolean;
  /** The document in words: "survey", "report". */
  what: string;
  allowed: () => boolean;
  onSave: () => Promise<boolean>;
}) {
  useBeforeUnload(when, allowed);
  // Outside a data router (unit tests with a MemoryRouter) no navigation can be held.
  const dataRouter = useContext(UNSAFE_DataRouterContext);
  return dataRouter ? <LeaveDialog when={when} what={what} onSave={onSave} /> : null;
}

function LeaveDialog({
  when,
  what,
  onSave,
}: {
  when: boolean;
  what: string;
  onSave: () => Promise<boolean>;
}) {
  const id = useId();
  const blocker = useLeaveBlocker(when);
  if (blocker.state !== "blocked") return null;
  return (
    <Modal
      title="Unsaved changes"
      onClose={() => blocker.reset()}
      describedBy={`${id}-text`}
      footer={
        <>
          <button type="button" className="button" onClick={() => blocker.reset()}>
            Stay
          </button>
          <button type="button" className="button" onClick={() => blocker.proceed()}>
            Leave without saving
          </button>
          <button
            type="button"
            className="button primary"
            onClick={() => void onSave().then((saved) => (saved ? blocker.proceed() : blocker.reset()))}
          >
            Save and leave
          </button>
        </>
      }
    >
      <p id={`${id}-text`}>
        {`This ${what} has changes that are not saved. If you leave, they stay on this device and come back when you open the ${what} here again, but nobody else sees them until you save.`}
      </p>
    </Modal>
  );
}
