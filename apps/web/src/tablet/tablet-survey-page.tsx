import { useCallback, useEffect, useEffectEvent, useRef, useState } from "react";
import { Link, useNavigate, useParams } from "react-router-dom";
import {
  answerPaths,
  pruneHiddenAnswers,
  type EvalContext,
  type Page,
  type Survey,
} from "@core-care/survey-engine";
import type { ClientConfig, Patient, Tenant } from "@core-care/schema";
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
import {
  clearTabletSession,
  readStoredSurvey,
  readTabletSession,
  writeStoredSurvey,
  writeTabletSession,
  type TabletSession,
} from "./tablet-session";
import { globalsFor, surveyNeedsGlobals } from "./survey-context";
import { isTabletPath } from "@core-care/schema/paths";
import { tabletExit } from "./leave";
import { StaffExit } from "./staff-exit";
import { TabletShell } from "./tablet-shell";
import { DEFAULT_IDLE_SECONDS, TIMEOUT_MESSAGE, surveyPageUrl } from "./urls";

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
  return `Failed to save results: ${outcome.message}`;
}

function storedLoad(session: TabletSession | null): Loaded | null {
  const stored = session === null ? null : readStoredSurvey(localStorage, session.clientRequestId);
  return stored === null
    ? null
    : { survey: stored.survey, globals: stored.globals ?? undefined, idleMs: stored.idleMs };
}

async function loadSurvey(session: TabletSession): Promise<Loaded> {
  const [survey, config] = await Promise.all([
    api.get<Survey>(`/api/surveys/${encodeURIComponent(session.surveyId)}`),
    api.get<ClientConfig>("/api/config").catch(() => undefined),
  ]);
  let globals: Globals | undefined;
  if (surveyNeedsGlobals(survey)) {
    const [patient, tenant] = await Promise.all([
      api.get<Patient>(`/api/patients/${encodeURIComponent(session.patientId)}`),
      api.get<Tenant>("/api/tenants/me"),
    ]);
    globals = globalsFor(patient, tenant, new Date());
  }
  return { survey, globals, idleMs: (config?.idleTimeoutSeconds ?? DEFAULT_IDLE_SECONDS) * 1000 };
}

/** Shown when the tablet holds no survey in progress (never any patient data). */
function NoSurvey() {
  return (
    <TabletShell>
      <main className="tablet-main tablet-message">
        <h1>No survey in progress</h1>
        <p>Please hand the tablet to a member of staff.</p>
        <p>
          <Link className="tablet-link" to="/tablet">
            Staff: start a survey
          </Link>
        </p>
      </main>
    </TabletShell>
  );
}

/**
 * `/tablet/patient-survey/{surveyId}/pg/{pageNumber}` (SPEC 2, 4): the patient's survey on the tablet.
 * The page shown, the answers and any save the server has not acknowledged live in browser storage,
 * so a reload resumes and a network drop loses nothing; all of it is wiped after submit, logout or
 * the idle timeout.
 */
export function TabletSurveyPage() {
  const params = useParams();
  const navigate = useNavigate();
  const online = useOnline();
  const [session, setSession] = useState<TabletSession | null>(() =>
    readTabletSession(localStorage, Date.now(), DEFAULT_IDLE_SECONDS * 1000),
  );
  const sessionRef = useRef(session);
  // A reload shows the page from what was stored for the session, even with the network down.
  const [loaded, setLoaded] = useState<Loaded | null>(() => storedLoad(session));
  const loadedRef = useRef<Loaded | null>(loaded);
  const [loadFailed, setLoadFailed] = useState(false);
  const [loadAttempt, setLoadAttempt] = useState(0);
  const [saveStatus, setSaveStatus] = useState<SaveStatus>("idle");
  const [submitting, setSubmitting] = useState(false);
  const submittingRef = useRef(false);
  const [leaving, setLeaving] = useState(false);
  const queueRef = useRef<SaveQueue | null>(null);
  const finishedRef = useRef(false);

  const update = useCallback((patch: Partial<TabletSession>) => {
    const current = sessionRef.current;
    if (current === null || finishedRef.current) return;
    const next = { ...current, ...patch };
    sessionRef.current = next;
    writeTabletSession(localStorage, next);
    setSession(next);
  }, []);

  /** Removes every trace of the patient from the page and storage. */
  const wipe = useCallback(() => {
    finishedRef.current = true;
    queueRef.current?.dispose();
    clearTabletSession(localStorage);
    sessionRef.current = null;
    loadedRef.current = null;
    setSession(null);
    setLoaded(null);
  }, []);

  /**
   * Wipes the patient, then leaves for `to`: a /tablet page in place, any other page (the staff
   * app, /auth) with a full page load once `pending` (a last save) has settled.
   */
  const finish = useCallback(
    (to: string, pending?: Promise<unknown>) => {
      wipe();
      if (isTabletPath(to)) {
        void navigate(to);
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
      if (outcome.kind === "saved") finish("/auth/logout");
      else {
        submittingRef.current = false;
        setSubmitting(false);
        reportRejected(outcome);
      }
    },
    [finish, reportRejected],
  );

  const sessionKey = session === null ? null : `${session.patientId}:${session.clientRequestId}`;

  // Effect events: the queue must outlive re-renders (navigate changes with every page move).
  const onSubmitted = useEffectEvent((outcome: SaveOutcome) => submitted(outcome));
  const onSaved = useEffectEvent((outcome: SaveOutcome) => reportRejected(outcome));
  const onIdle = useEffectEvent(() => {
    const current = sessionRef.current;
    const pending = current === null ? undefined : sendLastAnswers(current, loadedRef.current);
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

  useEffect(() => {
    const current = sessionRef.current;
    if (current === null) return;
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
    loadSurvey(current).then(
      (result) => {
        if (cancelled) return;
        writeStoredSurvey(localStorage, {
          clientRequestId: current.clientRequestId,
          survey: result.survey,
          globals: result.globals ?? null,
          idleMs: result.idleMs,
        });
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
  }, [sessionKey, loadAttempt]);

  const idleMs = loaded?.idleMs ?? DEFAULT_IDLE_SECONDS * 1000;
  useEffect(() => {
    if (sessionKey === null) return;
    let lastWrite = 0;
    const onActivity = () => {
      const now = Date.now();
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
    if (expectedUrl !== null && !urlFollows) void navigate(expectedUrl, { replace: true });
  }, [expectedUrl, urlFollows, navigate]);

  if (leaving) {
    return (
      <TabletShell>
        <main className="tablet-main tablet-message" aria-busy="true">
          <p role="status">Signing out…</p>
        </main>
      </TabletShell>
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

  const leaveForStaff = async (to: string) => {
    const queue = queueRef.current;
    if (queue && loaded && !submitting) {
      const outcome = await Promise.race([
        queue.save(snapshotOf(session, loaded, false)),
        new Promise<null>((resolve) => setTimeout(() => resolve(null), 5000)),
      ]);
      if (outcome) reportRejected(outcome);
    }
    finish(to);
  };

  let status: string | null = null;
  if (submitting && (saveStatus === "offline" || !online)) {
    status =
      "No connection. Your answers are kept on this tablet and will be sent as soon as the connection returns. Please wait.";
  } else if (submitting) {
    status = "Sending your answers…";
  } else if (saveStatus === "offline" || !online) {
    status =
      "No connection. Your answers are kept on this tablet and will be sent when the connection returns.";
  }

  return (
    <TabletShell actions={<StaffExit onLeave={leaveForStaff} />}>
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
            <h1>The survey could not be loaded</h1>
            <p>Please check the connection and try again.</p>
            <button
              type="button"
              className="sv-button sv-button-primary"
              onClick={() => {
                setLoadFailed(false);
                setLoadAttempt((n) => n + 1);
              }}
            >
              Try again
            </button>
          </div>
        ) : (
          <p className="tablet-loading" aria-busy="true">
            Loading the survey…
          </p>
        )}
      </main>
    </TabletShell>
  );
}
