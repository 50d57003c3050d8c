import type { Answers, ResultSnapshot } from "./save-queue";

/** Browser-storage key of the one patient session a tablet runs at a time. */
export const TABLET_SESSION_KEY = "coreCare.tablet";

/**
 * The patient session handed over on a tablet: which patient and survey, the answers typed so far
 * (including the page on screen), the page shown, and the save queue's durable state. It holds PHI,
 * so it lives only until submit, logout or idle timeout.
 */
export interface TabletSession {
  patientId: string;
  surveyId: string;
  clientRequestId: string;
  resultId: string | null;
  answers: Answers;
  pageIndex: number;
  unsent: ResultSnapshot | null;
  /** Milliseconds since the epoch of the patient's last touch, click or key press. */
  lastActivityAt: number;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function isSnapshot(value: unknown): value is ResultSnapshot {
  return (
    isRecord(value) &&
    typeof value.clientRequestId === "string" &&
    typeof value.surveyId === "string" &&
    typeof value.patientId === "string" &&
    typeof value.isSubmitted === "boolean" &&
    isRecord(value.answers)
  );
}

function parseSession(raw: string): TabletSession | null {
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    return null;
  }
  if (!isRecord(value)) return null;
  const { patientId, surveyId, clientRequestId, resultId, answers, pageIndex, unsent, lastActivityAt } =
    value;
  if (
    typeof patientId !== "string" ||
    typeof surveyId !== "string" ||
    typeof clientRequestId !== "string" ||
    !(resultId === null || typeof resultId === "string") ||
    !isRecord(answers) ||
    typeof pageIndex !== "number" ||
    !Number.isInteger(pageIndex) ||
    pageIndex < 0 ||
    !(unsent === null || isSnapshot(unsent)) ||
    typeof lastActivityAt !== "number"
  )
    return null;
  return { patientId, surveyId, clientRequestId, resultId, answers, pageIndex, unsent, lastActivityAt };
}

/**
 * Reads the tablet session. A malformed record, or one idle for longer than `idleTimeoutMs` at
 * `now`, is removed and null returned, so a patient's answers never outlive the idle timeout.
 */
export function readTabletSession(
  storage: Storage,
  now: number,
  idleTimeoutMs: number,
): TabletSession | null {
  let raw: string | null;
  try {
    raw = storage.getItem(TABLET_SESSION_KEY);
  } catch {
    return null;
  }
  if (raw === null) return null;
  const session = parseSession(raw);
  if (session === null || now - session.lastActivityAt > idleTimeoutMs) {
    clearTabletSession(storage);
    return null;
  }
  return session;
}

/** Writes the tablet session; returns false when the browser refused (storage full or disabled). */
export function writeTabletSession(storage: Storage, session: TabletSession): boolean {
  try {
    storage.setItem(TABLET_SESSION_KEY, JSON.stringify(session));
    return true;
  } catch {
    return false;
  }
}

/** Removes every trace of the tablet session from `storage`. */
export function clearTabletSession(storage: Storage): void {
  try {
    storage.removeItem(TABLET_SESSION_KEY);
  } catch {
    // Storage disabled: there is nothing stored to remove.
  }
}

/** Starts a new session for a patient and survey, replacing any previous one. */
export function startTabletSession(
  storage: Storage,
  init: { patientId: string; surveyId: string; clientRequestId: string; now: number },
): TabletSession {
  const session: TabletSession = {
    patientId: init.patientId,
    surveyId: init.surveyId,
    clientRequestId: init.clientRequestId,
    resultId: null,
    answers: {},
    pageIndex: 0,
    unsent: null,
    lastActivityAt: init.now,
  };
  writeTabletSession(storage, session);
  return session;
}
