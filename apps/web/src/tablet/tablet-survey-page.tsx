import { useCallback, useEffect, useEffectEvent, useRef, useState } from "react";
import { Link, useLocation, useParams } from "wouter";
import { useTranslation } from "react-i18next";
import type { PatientLanguage } from "@core-care/schema";
import {
  answerPaths,
  pruneHiddenAnswers,
  type EvalContext,
  type Page,
  type Survey,
} from "@core-care/survey-engine";
import { api } from "../api/client";
import { useOnline } from "../ui/use-online";
import { SurveyRunner, type PageMove } from "../survey-ui/survey-runner";
import {
  createSaveQueue,
  type ResultSnapshot,
  type SaveOutcome,
  type SaveQueue,
  type SaveStatus,
} from "./save-queue";
import { sendResult } from "./result-sender";
import type { StoredSurvey, TabletSession } from "./tablet-session";
import { endHandover, forgetHandover, pingHandover, useHandover, type LoadedHandover } from "./handover";
import { isTabletPath } from "@core-care/schema/paths";
import { tabletExit } from "./leave";
import { StaffExit } from "./staff-exit";
import { TabletShell } from "./tablet-shell";
import { WaitingForConnection } from "./waiting-for-connection";
import { TIMEOUT_MESSAGE, surveyPageUrl } from "./urls";
import { i18n, setPatientLanguage } from "../i18n/i18n";
import { LanguageSwitch } from "../i18n/language-switch";

/** How long the thank-you screen stays before the spec's logout, when nobody taps Done. */
export const THANK_YOU_MS = 20_000;

type Globals = Omit<EvalContext, "answers">;

interface Loaded {
  survey: Survey;
  globals: Globals | undefined;
  idleMs: number;
}

function pageHasInputs(page: Page | undefined): boolean {
  return page !== undefined && page.questions.some((question) => answerPaths(question).length > 0);
}

/** What a save sends: the answers without those of hidden questions and pages. */
function snapshotOf(session: TabletSession, loaded: Loaded | null, isSubmitted: boolean): ResultSnapshot {
  const answers = loaded
    ? pruneHiddenAnswers(loaded.survey, { ...loaded.globals, answers: session.answers })
    : session.answers;
  return {
    clientRequestId: session.clientRequestId,
    surveyId: session.surveyId,
    patientId: session.patientId,
    isSubmitted,
    answers,
  };
}

/**
 * Sends the session's answers once, just before they are wiped (idle timeout or a move to /auth), so
 * what was typed since the last page move is not lost. A submit still waiting for the network is
 * sent as it was. The page is left when this settles.
 */
function sendLastAnswers(session: TabletSession, loaded: Loaded | null): Promise<unknown> {
  const last = session.unsent?.isSubmitted ? session.unsent : snapshotOf(session, loaded, false);
  return sendResult(session.resultId === null ? last : { ...last, id: session.resultId });
}

function saveFailedMessage(outcome: Extract<SaveOutcome, { kind: "rejected" }>): string {
  return i18n.t("tablet.saveFailed", { message: outcome.message });
}

function storedLoad(stored: StoredSurvey | null): Loaded | null {
  return stored === null
    ? null
    : { survey: stored.survey, globals: stored.globals ?? undefined, idleMs: stored.idleMs };
}

/** The survey of the hand-over; the patient's condition globals come with the hand-over itself. */
async function loadSurvey(session: TabletSession, handover: LoadedHandover["handover"]): Promise<Loaded> {
  const survey = await api.get<Survey>(`/api/surveys/${encodeURIComponent(session.surveyId)}`);
  return { survey, globals: handover.globals, idleMs: handover.idleTimeoutSeconds * 1000 };
}

/** Shown when the tablet holds no survey in progress (never any patient data). */
function NoSurvey() {
  const { t } = useTranslation();
  useEffect(() => {
    document.title = `${t("tablet.noSurveyTitle")} · Core Care`;
  }, [t]);
  return (
    <TabletShell>
      <main className="tablet-main tablet-message">
        <h1>{t("tablet.noSurveyTitle")}</h1>
        <p>{t("tablet.noSurveyText")}</p>
        <p>
          <Link className="tablet-link" href="/tablet">
            {t("tablet.staffStart")}
          </Link>
        </p>
      </main>
    </TabletShell>
  );
}

/**
 * After submit: the patient is thanked and asked to return the tablet, with nothing of them left on the
 * page; then the spec's logout, on Done or after `THANK_YOU_MS`.
 */
function ThankYou({ onDone }: { onDone: () => void }) {
  const { t } = useTranslation();
  const headingRef = useRef<HTMLHeadingElement>(null);
  const done = useEffectEvent(onDone);
  useEffect(() => {
    document.title = `${t("tablet.thanksTitle")} · Core Care`;
    headingRef.current?.focus();
    const timer = window.setTimeout(() => done(), THANK_YOU_MS);
    return () => window.clearTimeout(timer);
  }, [t]);
  return (
    <TabletShell>
      <main className="tablet-main tablet-message tablet-thanks">
        <h1 ref={headingRef} tabIndex={-1}>
          {t("tablet.thanksTitle")}
        </h1>
        <p role="status">{t("tablet.thanksText")}</p>
        <p className="tablet-thanks-return">{t("tablet.thanksReturn")}</p>
        <button type="button" className="sv-button sv-button-primary" onClick={onDone}>
          {t("tablet.done")}
        </button>
      </main>
    </TabletShell>
  );
}

/**
 * `/tablet/patient-survey/{surveyId}/pg/{pageNumber}` (SPEC 2, 4): the patient's survey on the tablet,
 * for the hand-over the server has given this browser's patient credential. Without one (a staff
 * session, or none) nothing of any patient is shown.
 */
export function TabletSurveyPage() {
  const state = useHandover();
  const { t } = useTranslation();
  switch (state.kind) {
    case "loading":
      return (
        <TabletShell>
          <main className="tablet-main">
            <p className="tablet-loading" aria-busy="true">
              {t("tablet.loading")}
            </p>
          </main>
        </TabletShell>
      );
    case "offline":
      return <WaitingForConnection />;
    case "none":
      return <NoSurvey />;
    case "ready":
      return <SurveyOnTablet key={state.handover.handoverId} loadedHandover={state} />;
  }
}

/**
 * The runner of one hand-over. The page shown, the answers and any save the server has not acknowledged
 * live in memory, with a copy sealed under the hand-over's key in browser storage, so a reload resumes
 * and a network drop loses nothing; all of it is wiped after submit, logout, the idle timeout or the
 * Staff button, and the server ends the patient credential then too.
 */
function SurveyOnTablet({ loadedHandover }: { loadedHandover: LoadedHandover }) {
  const { store, handover } = loadedHandover;
  const { t } = useTranslation();
  const params = useParams<{ surveyId: string; pageNumber: string }>();
  const [, navigate] = useLocation();
  const online = useOnline();
  const [session, setSession] = useState<TabletSession | null>(loadedHandover.session);
  const sessionRef = useRef(session);
  // A reload shows the page from what was stored for the session.
  const [loaded, setLoaded] = useState<Loaded | null>(() => storedLoad(loadedHandover.survey));
  const loadedRef = useRef<Loaded | null>(loaded);
  const [loadFailed, setLoadFailed] = useState(false);
  const [loadAttempt, setLoadAttempt] = useState(0);
  const [saveStatus, setSaveStatus] = useState<SaveStatus>("idle");
  const [submitting, setSubmitting] = useState(false);
  const submittingRef = useRef(false);
  const [leaving, setLeaving] = useState(false);
  const [thanking, setThanking] = useState(false);
  const queueRef = useRef<SaveQueue | null>(null);
  const finishedRef = useRef(false);

  const update = useCallback(
    (patch: Partial<TabletSession>) => {
      const current = sessionRef.current;
      if (current === null || finishedRef.current) return;
      const next = { ...current, ...patch };
      sessionRef.current = next;
      void store.save(next);
      setSession(next);
    },
    [store],
  );

  /** Removes every trace of the patient from the page and storage. */
  const wipe = useCallback(() => {
    finishedRef.current = true;
    queueRef.current?.dispose();
    store.clear();
    forgetHandover();
    sessionRef.current = null;
    loadedRef.current = null;
    setSession(null);
    setLoaded(null);
  }, [store]);

  /**
   * Wipes the patient, then leaves for `to`: a /tablet page in place, any other page (the staff
   * app, /auth) with a full page load once `pending` (a last save) has settled.
   */
  const finish = useCallback(
    (to: string, pending?: Promise<unknown>) => {
      wipe();
      if (isTabletPath(to)) {
        navigate(to);
        return;
      }
      setLeaving(true);
      void tabletExit.leave(to, pending);
    },
    [navigate, wipe],
  );

  const reportRejected = useCallback(
    (outcome: SaveOutcome) => {
      if (outcome.kind !== "rejected") return;
      window.alert(saveFailedMessage(outcome));
      if (outcome.status === 401) finish("/auth/logout");
    },
    [finish],
  );

  const submitted = useCallback(
    (outcome: SaveOutcome) => {
      if (outcome.kind === "saved") {
        // The server has ended the patient credential with the submit; the page keeps nothing of the
        // patient while it thanks them.
        wipe();
        setThanking(true);
      } else {
        submittingRef.current = false;
        setSubmitting(false);
        reportRejected(outcome);
      }
    },
    [wipe, reportRejected],
  );

  const sessionKey = session === null ? null : `${session.patientId}:${session.clientRequestId}`;

  // Effect events: the queue must outlive re-renders (the callbacks it reports to change with them).
  const onSubmitted = useEffectEvent((outcome: SaveOutcome) => submitted(outcome));
  const onSaved = useEffectEvent((outcome: SaveOutcome) => reportRejected(outcome));
  const onIdle = useEffectEvent(() => {
    const current = sessionRef.current;
    // The last answers go first, then the patient credential ends on the server.
    const pending = (current === null ? Promise.resolve() : sendLastAnswers(current, loadedRef.current)).then(
      () => endHandover("idle"),
    );
    finish(`/auth/logout?message=${encodeURIComponent(TIMEOUT_MESSAGE)}`, pending);
  });
  // A move to /auth made elsewhere (the HTTP client's 401): nothing of the patient may stay behind.
  const onLeaveForAuth = useEffectEvent((to: string) => {
    const current = sessionRef.current;
    if (finishedRef.current || current === null || !to.startsWith("/auth")) return undefined;
    const pending = sendLastAnswers(current, loadedRef.current);
    wipe();
    setLeaving(true);
    return pending;
  });

  // A page loaded after the idle limit sends what it holds as it times out (below), not through the queue,
  // so the server gets one save of the newest answers.
  const idleOnLoad = useRef(loadedHandover.idleExpired);
  useEffect(() => {
    const current = sessionRef.current;
    if (current === null || idleOnLoad.current) return;
    let cancelled = false;
    const queue = createSaveQueue({
      send: sendResult,
      initial: { resultId: current.resultId, unsent: current.unsent },
      persist: (state) => update({ resultId: state.resultId, unsent: state.unsent }),
      onStatus: (status) => {
        if (!cancelled) setSaveStatus(status);
      },
    });
    queueRef.current = queue;
    const resumed = queue.flush();
    if (resumed !== null) {
      if (current.unsent?.isSubmitted) {
        submittingRef.current = true;
        setSubmitting(true);
        void resumed.then((outcome) => {
          if (!cancelled) onSubmitted(outcome);
        });
      } else {
        void resumed.then((outcome) => {
          if (!cancelled) onSaved(outcome);
        });
      }
    }
    const onOnline = () => queue.retry();
    window.addEventListener("online", onOnline);
    const stopLeaveWork = tabletExit.beforeLeave((to) => onLeaveForAuth(to));
    return () => {
      cancelled = true;
      window.removeEventListener("online", onOnline);
      stopLeaveWork();
      queue.dispose();
    };
  }, [sessionKey, update]);

  useEffect(() => {
    const current = sessionRef.current;
    if (current === null || loadedRef.current !== null) return;
    let cancelled = false;
    loadSurvey(current, handover).then(
      (result) => {
        if (cancelled) return;
        void store.saveSurvey(
          {
            clientRequestId: current.clientRequestId,
            survey: result.survey,
            globals: result.globals ?? null,
            idleMs: result.idleMs,
          },
          current.lastActivityAt,
        );
        loadedRef.current = result;
        setLoaded(result);
      },
      () => {
        if (!cancelled) setLoadFailed(true);
      },
    );
    return () => {
      cancelled = true;
    };
  }, [sessionKey, loadAttempt, handover, store]);

  const idleMs = loaded?.idleMs ?? handover.idleTimeoutSeconds * 1000;
  useEffect(() => {
    if (sessionKey === null) return;
    let lastWrite = 0;
    const onActivity = () => {
      const now = Date.now();
      pingHandover(now);
      if (now - lastWrite < 5000) return;
      lastWrite = now;
      update({ lastActivityAt: now });
    };
    const check = () => {
      const current = sessionRef.current;
      if (current === null) return;
      const idleFor = Date.now() - current.lastActivityAt;
      if (idleFor >= idleMs) onIdle();
    };
    const events = ["pointerdown", "keydown", "touchstart"] as const;
    for (const event of events) window.addEventListener(event, onActivity, { passive: true });
    const timer = window.setInterval(check, 5000);
    check();
    return () => {
      for (const event of events) window.removeEventListener(event, onActivity);
      window.clearInterval(timer);
    };
  }, [sessionKey, idleMs, update]);

  // The URL follows the page shown, which the session holds: an edited URL is put back, so it cannot
  // skip pages. The runner stays on screen meanwhile, so a tap arriving before the URL has caught up
  // meets the same runner (and its double-tap guard).
  const expectedUrl = session === null ? null : surveyPageUrl(session.surveyId, session.pageIndex);
  const urlFollows =
    session !== null &&
    params.surveyId === session.surveyId &&
    params.pageNumber === String(session.pageIndex + 1);
  useEffect(() => {
    if (expectedUrl !== null && !urlFollows) navigate(expectedUrl, { replace: true });
  }, [expectedUrl, urlFollows, navigate]);

  const language = session?.language;
  useEffect(() => {
    if (language !== undefined) setPatientLanguage(language);
  }, [language]);

  if (leaving) {
    return (
      <TabletShell>
        <main className="tablet-main tablet-message" aria-busy="true">
          <p role="status">{t("tablet.signingOut")}</p>
        </main>
      </TabletShell>
    );
  }
  if (thanking) {
    return (
      <ThankYou
        onDone={() => {
          setThanking(false);
          setLeaving(true);
          void tabletExit.leave("/auth/logout");
        }}
      />
    );
  }
  if (session === null) return <NoSurvey />;

  const onPageChange = (to: number, from: number, _move: PageMove) => {
    const queue = queueRef.current;
    if (queue && pageHasInputs(loaded?.survey.pages[from])) {
      void queue.save(snapshotOf(session, loaded, false)).then(reportRejected);
    }
    update({ pageIndex: to, lastActivityAt: Date.now() });
  };

  const onSubmit = () => {
    const queue = queueRef.current;
    if (!queue || submittingRef.current) return;
    submittingRef.current = true;
    setSubmitting(true);
    void queue.save(snapshotOf(session, loaded, true)).then(submitted);
  };

  /** Saves the answers so far (waiting at most 5 s), before the patient credential ends. */
  const saveBeforeLeaving = async () => {
    const queue = queueRef.current;
    if (queue && loaded && !submitting) {
      const outcome = await Promise.race([
        queue.save(snapshotOf(session, loaded, false)),
        new Promise<null>((resolve) => setTimeout(() => resolve(null), 5000)),
      ]);
      if (outcome) reportRejected(outcome);
    }
  };

  const leaveForStaff = async (to: string) => {
    if (to !== "/tablet") await saveBeforeLeaving();
    finish(to);
  };

  let status: string | null = null;
  if (submitting && (saveStatus === "offline" || !online)) {
    status = t("tablet.offlineSubmitting");
  } else if (submitting) {
    status = t("tablet.sending");
  } else if (saveStatus === "offline" || !online) {
    status = t("tablet.offline");
  }

  const chooseLanguage = (next: PatientLanguage) => update({ language: next, lastActivityAt: Date.now() });

  return (
    <TabletShell
      actions={
        <div className="tablet-actions">
          <LanguageSwitch value={session.language} onChange={chooseLanguage} />
          <StaffExit onSave={saveBeforeLeaving} onLeave={leaveForStaff} />
        </div>
      }
    >
      <main className="tablet-main">
        {loaded ? (
          <SurveyRunner
            survey={loaded.survey}
            pageIndex={session.pageIndex}
            answers={session.answers}
            {...(loaded.globals ? { context: loaded.globals } : {})}
            onAnswersChange={(answers) => update({ answers, lastActivityAt: Date.now() })}
            onPageChange={onPageChange}
            onSubmit={onSubmit}
            busy={submitting}
            header={<p className="sv-patient">{t("tablet.patient", { name: handover.firstName })}</p>}
            status={
              status === null ? undefined : (
                <p className="tablet-connection" role="status">
                  {status}
                </p>
              )
            }
          />
        ) : loadFailed ? (
          <div className="tablet-message" role="alert">
            <h1>{t("tablet.loadFailedTitle")}</h1>
            <p>{t("tablet.loadFailedText")}</p>
            <button
              type="button"
              className="sv-button sv-button-primary"
              onClick={() => {
                setLoadFailed(false);
                setLoadAttempt((n) => n + 1);
              }}
            >
              {t("tablet.tryAgain")}
            </button>
          </div>
        ) : (
          <p className="tablet-loading" aria-busy="true">
            {t("tablet.loading")}
          </p>
        )}
      </main>
    </TabletShell>
  );
}
