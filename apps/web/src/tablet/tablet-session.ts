import type { EvalContext, Survey } from "@core-care/survey-engine";
import type { Answers, ResultSnapshot } from "./save-queue";

/** Browser-storage key of the one patient session a tablet runs at a time. */
export const TABLET_SESSION_KEY = "coreCare.tablet";

/** Browser-storage key of what the runner loaded for that session (see {@link StoredSurvey}). */
export const TABLET_SURVEY_KEY = "coreCare.tablet.survey";

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

/**
 * The JSON stored under `key`: undefined when nothing is, or the browser refuses storage (disabled),
 * null when what is stored is not JSON.
 */
function readJson(storage: Storage, key: string): unknown {
  let raw: string | null;
  try {
    raw = storage.getItem(key);
  } catch {
    return undefined;
  }
  if (raw === null) return undefined;
  try {
    return JSON.parse(raw) as unknown;
  } catch {
    return null;
  }
}

/** Stores `value` as JSON under `key`; false when the browser refused (storage full or disabled). */
function writeJson(storage: Storage, key: string, value: unknown): boolean {
  try {
    storage.setItem(key, JSON.stringify(value));
    return true;
  } catch {
    return false;
  }
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

function asSession(value: unknown): TabletSession | null {
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
  const stored = readJson(storage, TABLET_SESSION_KEY);
  if (stored === undefined) return null;
  const session = asSession(stored);
  if (session === null || now - session.lastActivityAt > idleTimeoutMs) {
    clearTabletSession(storage);
    return null;
  }
  return session;
}

/** Writes the tablet session; returns false when the browser refused (storage full or disabled). */
export function writeTabletSession(storage: Storage, session: TabletSession): boolean {
  return writeJson(storage, TABLET_SESSION_KEY, session);
}

/** Removes every trace of the tablet session from `storage`, the stored survey included. */
export function clearTabletSession(storage: Storage): void {
  try {
    storage.removeItem(TABLET_SESSION_KEY);
    storage.removeItem(TABLET_SURVEY_KEY);
  } catch {
    // Storage disabled: there is nothing stored to remove.
  }
}

/**
 * What the runner loaded for one session: the survey, the condition globals of the patient (derived
 * from PHI, so it goes with the session) and the idle timeout. Kept beside the session so a reload
 * shows the page without the network, and written once rather than with every answer.
 */
export interface StoredSurvey {
  clientRequestId: string;
  survey: Survey;
  globals: Omit<EvalContext, "answers"> | null;
  idleMs: number;
}

function isStoredSurvey(value: unknown): value is StoredSurvey {
  if (!isRecord(value)) return false;
  const { clientRequestId, survey, globals, idleMs } = value;
  return (
    typeof clientRequestId === "string" &&
    isRecord(survey) &&
    typeof survey.id === "string" &&
    Array.isArray(survey.pages) &&
    Array.isArray(survey.sections) &&
    (globals === null || isRecord(globals)) &&
    typeof idleMs === "number" &&
    idleMs > 0
  );
}

/** The survey stored for the session with `clientRequestId`; null when none is, or it is another session's. */
export function readStoredSurvey(storage: Storage, clientRequestId: string): StoredSurvey | null {
  const value = readJson(storage, TABLET_SURVEY_KEY);
  return isStoredSurvey(value) && value.clientRequestId === clientRequestId ? value : null;
}

/** Stores what the runner loaded; returns false when the browser refused (it is then loaded again). */
export function writeStoredSurvey(storage: Storage, stored: StoredSurvey): boolean {
  return writeJson(storage, TABLET_SURVEY_KEY, stored);
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
  clearTabletSession(storage);
  writeTabletSession(storage, session);
  return session;
}
