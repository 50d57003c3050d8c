import type { EvalContext, Survey } from "@core-care/survey-engine";
import type { PatientLanguage } from "@core-care/schema";
import { fromBase64, fromBase64Url, toBase64 } from "../bytes-text";
import type { Answers, ResultSnapshot } from "./save-queue";

/** Browser-storage key of the sealed copy of the one patient session a tablet runs at a time. */
export const TABLET_SESSION_KEY = "coreCare.tablet";

/** Browser-storage key of the sealed copy of what the runner loaded for that session. */
export const TABLET_SURVEY_KEY = "coreCare.tablet.survey";

/**
 * The patient session handed over on a tablet: which patient and survey, the answers typed so far
 * (including the page on screen), the page shown, and the save queue's durable state. It holds PHI, so
 * it lives in memory; the only copy that outlives a page load is sealed with the hand-over's key, which
 * the server gives only to the patient credential and forgets when the hand-over ends.
 */
export interface TabletSession {
  handoverId: string;
  patientId: string;
  surveyId: string;
  clientRequestId: string;
  resultId: string | null;
  answers: Answers;
  pageIndex: number;
  unsent: ResultSnapshot | null;
  /** Milliseconds since the epoch of the patient's last touch, click or key press. */
  lastActivityAt: number;
  /** The language the patient reads the survey in (their preferred one until they choose). */
  language: PatientLanguage;
}

/**
 * What the runner loaded for one session: the survey, the condition globals of the patient (derived
 * from PHI, so they are sealed with the session) and the idle timeout.
 */
export interface StoredSurvey {
  clientRequestId: string;
  survey: Survey;
  globals: Omit<EvalContext, "answers"> | null;
  idleMs: number;
}

/**
 * What browser storage holds: the hand-over it belongs to and the last activity in the clear (neither
 * says anything of the patient; the idle check needs the time without the key), the rest AES-GCM
 * encrypted with the hand-over's id as associated data.
 */
interface Envelope {
  v: 1;
  handoverId: string;
  lastActivityAt: number;
  iv: string;
  data: string;
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
  const {
    handoverId,
    patientId,
    surveyId,
    clientRequestId,
    resultId,
    answers,
    pageIndex,
    unsent,
    lastActivityAt,
    language,
  } = value;
  if (
    typeof handoverId !== "string" ||
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
  return {
    handoverId,
    patientId,
    surveyId,
    clientRequestId,
    resultId,
    answers,
    pageIndex,
    unsent,
    lastActivityAt,
    language: language === "es" ? "es" : "en",
  };
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

function isEnvelope(value: unknown): value is Envelope {
  return (
    isRecord(value) &&
    value.v === 1 &&
    typeof value.handoverId === "string" &&
    typeof value.lastActivityAt === "number" &&
    typeof value.iv === "string" &&
    typeof value.data === "string"
  );
}

function readRaw(storage: Storage, key: string): unknown {
  try {
    const raw = storage.getItem(key);
    return raw === null ? undefined : (JSON.parse(raw) as unknown);
  } catch {
    return null;
  }
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

/** The Web Crypto of this page, or null where it is missing (a page not served over HTTPS). */
export function pageCrypto(): SubtleCrypto | null {
  return globalThis.crypto?.subtle ?? null;
}

/**
 * The patient session of one hand-over, kept in memory, with a sealed copy in browser storage so that a
 * reload resumes where the patient was. Without Web Crypto nothing is stored at all (memory only).
 */
export class TabletStore {
  private writes: Promise<void> = Promise.resolve();
  private generation = 0;
  /** The newest session saved, in memory: what a page moving back to the survey resumes from. */
  latest: TabletSession | null = null;
  latestSurvey: StoredSurvey | null = null;

  private constructor(
    private readonly storage: Storage,
    private readonly subtle: SubtleCrypto | null,
    private readonly key: CryptoKey | null,
    readonly handoverId: string,
  ) {}

  /** A store for a hand-over, with its key (base64url AES-256) imported so that it cannot be read back. */
  static async open(
    storage: Storage,
    handoverId: string,
    dataKey: string,
    subtle: SubtleCrypto | null = pageCrypto(),
  ): Promise<TabletStore> {
    const key =
      subtle === null || dataKey === ""
        ? null
        : await subtle.importKey("raw", fromBase64Url(dataKey), "AES-GCM", false, ["encrypt", "decrypt"]);
    return new TabletStore(storage, subtle, key, handoverId);
  }

  private async seal(
    storageKey: string,
    value: unknown,
    lastActivityAt: number,
    generation: number,
  ): Promise<void> {
    if (this.subtle === null || this.key === null) return;
    const iv = globalThis.crypto.getRandomValues(new Uint8Array(12));
    const plain = new TextEncoder().encode(JSON.stringify(value));
    const sealed = new Uint8Array(
      await this.subtle.encrypt(
        { name: "AES-GCM", iv, additionalData: new TextEncoder().encode(this.handoverId) },
        this.key,
        plain,
      ),
    );
    const envelope: Envelope = {
      v: 1,
      handoverId: this.handoverId,
      lastActivityAt,
      iv: toBase64(iv),
      data: toBase64(sealed),
    };
    // Wiped while this was being encrypted: the copy must not come back.
    if (generation === this.generation) this.storage.setItem(storageKey, JSON.stringify(envelope));
  }

  private async unseal(storageKey: string): Promise<unknown> {
    const envelope = readRaw(this.storage, storageKey);
    if (envelope === undefined) return undefined;
    if (!isEnvelope(envelope) || envelope.handoverId !== this.handoverId) return undefined;
    if (this.subtle === null || this.key === null) return undefined;
    try {
      const plain = await this.subtle.decrypt(
        {
          name: "AES-GCM",
          iv: fromBase64(envelope.iv),
          additionalData: new TextEncoder().encode(this.handoverId),
        },
        this.key,
        fromBase64(envelope.data),
      );
      return JSON.parse(new TextDecoder().decode(plain)) as unknown;
    } catch {
      return undefined;
    }
  }

  /**
   * The session and survey stored for this hand-over, if any. Anything stored for another hand-over,
   * tampered with or unreadable is wiped instead. A session idle past the timeout comes back with
   * `idleExpired`, so the page can send what it holds unsent before it wipes it (a tablet that slept
   * through the timeout and reloads on waking would otherwise lose the last page's answers).
   */
  async load(
    now: number,
    idleMs: number,
  ): Promise<{ session: TabletSession | null; survey: StoredSurvey | null; idleExpired: boolean }> {
    const session = asSession(await this.unseal(TABLET_SESSION_KEY));
    if (session === null || session.handoverId !== this.handoverId) {
      clearTabletSession(this.storage);
      return { session: null, survey: null, idleExpired: false };
    }
    const survey = await this.unseal(TABLET_SURVEY_KEY);
    return {
      session,
      survey: isStoredSurvey(survey) && survey.clientRequestId === session.clientRequestId ? survey : null,
      idleExpired: now - session.lastActivityAt > idleMs,
    };
  }

  /**
   * Seals the session into storage. Writes go one at a time in the order they were made, so an older
   * copy never lands over a newer one.
   */
  save(session: TabletSession): Promise<void> {
    this.latest = session;
    return this.queue(TABLET_SESSION_KEY, session, session.lastActivityAt);
  }

  /**
   * Seals what the runner loaded for the session, once `after` has settled when given (writes made
   * later wait behind it); a store cleared meanwhile writes nothing.
   */
  saveSurvey(stored: StoredSurvey, lastActivityAt: number, after?: Promise<unknown>): Promise<void> {
    this.latestSurvey = stored;
    return this.queue(TABLET_SURVEY_KEY, stored, lastActivityAt, after);
  }

  private queue(
    storageKey: string,
    value: unknown,
    lastActivityAt: number,
    after?: Promise<unknown>,
  ): Promise<void> {
    const generation = this.generation;
    this.writes = this.writes
      .then(() => after)
      .then(() =>
        generation === this.generation ? this.seal(storageKey, value, lastActivityAt, generation) : undefined,
      )
      .catch(() => undefined);
    return this.writes;
  }

  /** Wipes the stored copy; writes still waiting are dropped. */
  clear(): void {
    this.generation += 1;
    this.latest = null;
    this.latestSurvey = null;
    clearTabletSession(this.storage);
  }
}

/** A new session for a hand-over the server has just made or resumed with nothing stored. */
export function newTabletSession(
  handover: {
    handoverId: string;
    patientId: string;
    surveyId: string;
    clientRequestId: string;
    resultId: string | null;
    language: PatientLanguage;
  },
  now: number,
): TabletSession {
  return {
    handoverId: handover.handoverId,
    patientId: handover.patientId,
    surveyId: handover.surveyId,
    clientRequestId: handover.clientRequestId,
    resultId: handover.resultId,
    answers: {},
    pageIndex: 0,
    unsent: null,
    lastActivityAt: now,
    language: handover.language,
  };
}
