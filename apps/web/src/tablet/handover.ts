import { useEffect, useState } from "react";
import type { PatientLanguage, TabletHandover } from "@core-care/schema";
import { TABLET_DRAWN_ATTRIBUTE } from "@core-care/schema/paths";
import { ApiError, api, replaceSession } from "../api/client";
import { takeTabletBoot, type TabletBoot } from "./boot";
import {
  TabletStore,
  clearTabletSession,
  newTabletSession,
  type StoredSurvey,
  type TabletSession,
} from "./tablet-session";

/**
 * The tablet's side of the hand-over. The server holds the patient credential (the browser's session
 * cookie after hand-over) and its binding; the page asks it for the hand-over on every load, which also
 * gives the key that unlocks the copy kept in browser storage.
 */

/** Hands this browser to a patient: the staff session ends here and the patient credential replaces it. */
export function startHandover(patientId: string, surveyId: string): Promise<TabletHandover> {
  return replaceSession(() => api.post<TabletHandover>("/api/tablet/handovers", { patientId, surveyId }));
}

/** Ends the patient credential on the server (the idle timeout, or leaving for the sign-in page). */
export async function endHandover(reason: "idle" | "logout"): Promise<void> {
  try {
    await api.del("/api/tablet/handover", { query: { reason }, handleErrors: true });
  } catch {
    // Already ended, or the server out of reach: the server ends it by itself when the session expires.
  }
}

/** What the page has of its hand-over once loaded. */
export interface LoadedHandover {
  handover: TabletHandover;
  store: TabletStore;
  session: TabletSession;
  survey: StoredSurvey | null;
  /** The stored session was idle past the timeout when the page loaded: send it, then end. */
  idleExpired: boolean;
}

export type HandoverState =
  | { kind: "loading" }
  /** No patient credential: the browser holds a staff session, or none. */
  | { kind: "none" }
  /** The server cannot be reached, so the stored copy cannot be unlocked yet. */
  | { kind: "offline" }
  | ({ kind: "ready" } & LoadedHandover);

/** The hand-over this page loaded last, so that moving from the picker to the survey costs no request. */
let current: LoadedHandover | null = null;

/** Keeps what the picker has just started for the survey page. */
export async function rememberHandover(handover: TabletHandover, now: number): Promise<void> {
  const store = await TabletStore.open(localStorage, handover.handoverId, handover.dataKey);
  store.clear();
  const session = newTabletSession(handover, now);
  await store.save(session);
  current = { handover, store, session, survey: null, idleExpired: false };
}

/** Forgets the hand-over held in memory (it has ended). */
export function forgetHandover(): void {
  current?.store.clear();
  current = null;
  clearTabletSession(localStorage);
}

/** The hand-over this page holds in memory, with the newest session and survey it has saved. */
function heldInMemory(held: LoadedHandover, handover: TabletHandover): HandoverState {
  const { store } = held;
  return {
    kind: "ready",
    handover,
    store,
    session: store.latest ?? held.session,
    survey: store.latestSurvey ?? held.survey,
    idleExpired: false,
  };
}

/** What the runner loads for a session, from the survey the page was served with (when it is the session's). */
function bootSurvey(boot: TabletBoot | null, session: TabletSession): StoredSurvey | null {
  if (boot === null || boot.survey.id !== session.surveyId) return null;
  return {
    clientRequestId: session.clientRequestId,
    survey: boot.survey,
    globals: boot.handover.globals,
    idleMs: boot.handover.idleTimeoutSeconds * 1000,
  };
}

/** Whether the last load began a new session on the survey the page carries. */
let startsAsDrawn = false;

async function loadHandover(): Promise<HandoverState> {
  startsAsDrawn = false;
  // On a page load with the patient credential, the server has put the hand-over and its survey in the
  // page: the first question waits for no request.
  const boot = takeTabletBoot();
  let handover: TabletHandover;
  try {
    handover =
      boot?.handover ?? (await api.get<TabletHandover>("/api/tablet/handover", { handleErrors: true }));
  } catch (failure) {
    if (failure instanceof ApiError && failure.status === 0) {
      // Out of reach: a page that already holds the hand-over in memory (the browser's Back button from
      // the survey to /tablet) goes on with it; only a page loaded without the network must wait.
      return current === null ? { kind: "offline" } : heldInMemory(current, current.handover);
    }
    forgetHandover();
    return { kind: "none" };
  }
  if (current !== null && current.handover.handoverId === handover.handoverId) {
    return heldInMemory(current, handover);
  }
  const store = await TabletStore.open(localStorage, handover.handoverId, handover.dataKey);
  const now = Date.now();
  const stored = await store.load(now, handover.idleTimeoutSeconds * 1000);
  const session = stored.session ?? newTabletSession(handover, now);
  let survey = stored.survey;
  if (survey === null) {
    survey = bootSurvey(boot, session);
    // Kept sealed beside the session, as a survey loaded from the API is, for a reload without the network:
    // once the first question is on screen, which on an old tablet sealing a large survey would delay.
    if (survey !== null) void store.saveSurvey(survey, session.lastActivityAt, pageShown);
  }
  current = { handover, store, session, survey, idleExpired: stored.idleExpired };
  // A new session on the survey the page carries: the state the server drew the page with.
  startsAsDrawn = stored.session === null && stored.survey === null && survey !== null;
  return { kind: "ready", ...current };
}

/** Lets the server's markup in `root` answer taps: it is React's now. */
export function awake(root: HTMLElement | null): void {
  root?.removeAttribute("inert");
  root?.removeAttribute(TABLET_DRAWN_ATTRIBUTE);
}

let showPage: () => void = () => undefined;
/** Settles once the page has drawn its first frame (see {@link pageRendered}). */
const pageShown = new Promise<void>((resolve) => (showPage = resolve));

/**
 * Says the page has rendered for the first time, in `root`: markup the server drew there has been taken
 * over (or replaced) and now answers taps; `pageShown` settles once that frame is drawn.
 */
export function pageRendered(root: HTMLElement | null = document.getElementById("root")): void {
  awake(root);
  requestAnimationFrame(() => setTimeout(showPage, 0));
}

/** The first load of the page, started before the first render (`primeHandover`), and its outcome. */
let priming: Promise<HandoverState> | null = null;
let primed: HandoverState | null = null;

/**
 * Starts the page's first hand-over load at once, before React renders: with the hand-over in the page
 * it needs no request, so the page can wait for it and render the first question as its first frame.
 */
export function primeHandover(): Promise<HandoverState> {
  priming ??= loadHandover().then((state) => (primed = state));
  return priming;
}

/**
 * The page's first state as the server draws the page with it (./tablet-server.tsx): a new session of the
 * page's hand-over on the survey the page carries, kept in `store`. The render that follows takes it.
 */
export function primeDrawn(boot: TabletBoot, store: TabletStore, now: number): void {
  const session = newTabletSession(boot.handover, now);
  primed = {
    kind: "ready",
    handover: boot.handover,
    store,
    session,
    survey: bootSurvey(boot, session),
    idleExpired: false,
  };
}

/**
 * How the primed load's first render starts: in the session's language, and over the server's markup
 * (`asDrawn`) when its first state is the one the server drew (a new session on the page's survey), not
 * a stored session resumed. Null without a finished load (no hand-over in the page, or still loading).
 */
export function primedStart(): { language: PatientLanguage; asDrawn: boolean } | null {
  return primed?.kind === "ready" ? { language: primed.session.language, asDrawn: startsAsDrawn } : null;
}

/** The outcome of the primed load, once, for the first component that asks. */
function takePrimed(): HandoverState | null {
  const state = primed;
  primed = null;
  return state;
}

/**
 * The page's hand-over: asked of the server on load (the primed load, for the first one), and again
 * whenever the browser comes back online while it could not be reached.
 */
export function useHandover(): HandoverState {
  const [state, setState] = useState<HandoverState>(() => takePrimed() ?? { kind: "loading" });
  const [initial] = useState(state);
  useEffect(() => {
    let cancelled = false;
    let retry: ReturnType<typeof setTimeout> | undefined;
    const settle = (next: HandoverState) => {
      if (cancelled) return;
      setState(next);
      if (next.kind !== "offline") return;
      window.addEventListener("online", attempt);
      retry = setTimeout(attempt, 15_000);
    };
    const attempt = () => {
      window.removeEventListener("online", attempt);
      clearTimeout(retry);
      void loadHandover().then(settle);
    };
    if (initial.kind === "loading") {
      // The primed load still on its way is this page's first load: it is waited for, not repeated.
      const first = priming;
      priming = null;
      if (first === null) attempt();
      else void first.then((next) => settle(takePrimed() ?? next));
    } else {
      priming = null;
      settle(initial);
    }
    return () => {
      cancelled = true;
      window.removeEventListener("online", attempt);
      clearTimeout(retry);
    };
  }, [initial]);
  return state;
}

/** Keepalive pings of the patient credential: at most once per 300 s of activity (SPEC 9). */
const PING_EVERY_MS = 300_000;
let lastPing = Date.now();

/**
 * Keeps the patient credential alive on the server while the patient works on one page without saving:
 * called on activity, it pings at most once per 300 s.
 */
export function pingHandover(now: number): void {
  if (now - lastPing < PING_EVERY_MS) return;
  lastPing = now;
  api.get("/api/auth/keepalive", { handleErrors: true }).catch(() => undefined);
}
