import { useCallback, useEffect, useMemo, useRef, useState, type ReactNode } from "react";
import { useLocation, useNavigate } from "react-router-dom";
import { useTranslation } from "react-i18next";
import {
  TELE_AWV_HIDDEN_FIELDS,
  teleAwvSurvey,
  validatePage,
  validateSurvey,
  type Answers,
} from "@core-care/survey-engine";
import type { PatientLanguage, TeleAwvLink, TeleAwvSubmitResponse } from "@core-care/schema";
import { ApiError, api } from "../api/client";
import { i18n, setPatientLanguage } from "../i18n/i18n";
import { LanguageSwitch } from "../i18n/language-switch";
import { SurveyRunner } from "../survey-ui/survey-runner";
import { Logo } from "../ui/logo";
import { OfflineStore, type OfflineCopy } from "./offline-copy";
import {
  buildSubmission,
  hasRequiredParams,
  hiddenFields,
  minutesLeft,
  questionnaireContext,
  readFragment,
  TELE_AWV_LINK_ERROR,
} from "./tele-awv-form";
import "../survey-ui/survey-ui.css";
import "./awv.css";

/** How long after the last answer the draft is saved (a page move or a language change saves at once). */
const DRAFT_DELAY_MS = 1500;

/** What the completion page is told (kept in the history entry, so a reload of it keeps it too). */
export interface CompletionState {
  safetyAlert: boolean;
  practice: string;
  language: PatientLanguage;
}

type Phase =
  | { kind: "checking" }
  | { kind: "open"; link: TeleAwvLink }
  | { kind: "spent"; state: "used" | "expired"; practice: string }
  | { kind: "invalid" }
  | { kind: "unreachable" };

type SaveState = "idle" | "saved" | "offline";

const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });

function isOffline(error: unknown): boolean {
  return error instanceof ApiError && error.status === 0;
}

/** The frame of every state of the page: the logo, the practice and the language switch. */
function Frame({
  practice,
  language,
  onLanguage,
  children,
}: {
  practice: string | null;
  language: PatientLanguage;
  onLanguage: (language: PatientLanguage) => void;
  children: ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <div className="awv-page">
      <header className="awv-header">
        <Logo size={40} />
        {practice !== null ? <p className="awv-practice">{t("teleAwv.from", { practice })}</p> : null}
        <LanguageSwitch value={language} onChange={onLanguage} />
      </header>
      <main className="awv-main">{children}</main>
    </div>
  );
}

/**
 * /auth/teleawv: the Annual Wellness Visit questionnaire a patient opens from the e-mailed link (SPEC 2),
 * one section per step in the spec's order with the 'Submit AWV' button on the last. The page first asks
 * the server what state its link is in (and says plainly when it was used or has expired), resumes the
 * progress saved against the link, and saves the answers as the patient goes: to the server, or while
 * offline into a sealed copy in the browser that is sent when the connection returns.
 */
export default function TeleAwvPage() {
  const { search, hash } = useLocation();
  const navigate = useNavigate();
  const { t } = useTranslation();
  const linkOk = hasRequiredParams(search);
  const hidden = useMemo(() => hiddenFields(search), [search]);
  const fragment = useMemo(() => readFragment(hash), [hash]);
  const [phase, setPhase] = useState<Phase>({ kind: "checking" });
  const [attempt, setAttempt] = useState(0);
  const [answers, setAnswers] = useState<Answers>({});
  const [pageIndex, setPageIndex] = useState(0);
  const [language, setLanguage] = useState<PatientLanguage>(fragment.language ?? "en");
  const [resumed, setResumed] = useState(false);
  const [saveState, setSaveState] = useState<SaveState>("idle");
  const [submitting, setSubmitting] = useState<"no" | "sending" | "offline">("no");
  const storeRef = useRef<OfflineStore | null>(null);
  const latest = useRef({ answers, pageIndex, language });
  latest.current = { answers, pageIndex, language };
  const saveTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const submittingRef = useRef(false);
  // What a browser copy newer than the server's asks for once the page is open: a save, or the submit
  // that was waiting for the connection.
  const flushOnOpen = useRef<"save" | "submit" | null>(null);

  useEffect(() => {
    setPatientLanguage(language);
  }, [language]);
  // Staff screens after this page stay in English.
  useEffect(() => () => setPatientLanguage("en"), []);

  useEffect(() => {
    if (linkOk) return;
    window.alert(TELE_AWV_LINK_ERROR);
    void navigate("/auth/logout", { replace: true });
  }, [linkOk, navigate]);

  const context = useMemo(
    () => questionnaireContext(hidden, fragment.alternateFalls, answers),
    [hidden, fragment.alternateFalls, answers],
  );

  // Open: what state the link is in, and the progress kept for it (the server's, or a newer browser copy).
  useEffect(() => {
    if (!linkOk) return;
    let cancelled = false;
    void (async () => {
      storeRef.current ??= await OfflineStore.open(localStorage, fragment.token);
      let link: TeleAwvLink;
      try {
        link = await api.get<TeleAwvLink>("/api/auth/teleawv/link", {
          handleErrors: true,
          headers: bearer(fragment.token),
        });
      } catch (error) {
        if (cancelled) return;
        setPhase(isOffline(error) ? { kind: "unreachable" } : { kind: "invalid" });
        return;
      }
      if (cancelled) return;
      if (link.state !== "open") {
        storeRef.current?.clear();
        setLanguage(fragment.language ?? link.language);
        setPhase({ kind: "spent", state: link.state, practice: link.practice.name });
        return;
      }
      const local = await storeRef.current?.load();
      const serverAt = link.draft === null ? 0 : Date.parse(link.draft.savedAt);
      const kept = local && local.savedAt > serverAt ? local : link.draft;
      if (cancelled) return;
      if (kept) {
        setAnswers(kept.answers);
        setPageIndex(Math.min(kept.pageIndex, teleAwvSurvey.pages.length - 1));
        setLanguage(kept.language);
        setResumed(Object.keys(kept.answers).length > 0);
      } else {
        setLanguage(fragment.language ?? link.language);
      }
      if (local && local.savedAt > serverAt) flushOnOpen.current = local.submit ? "submit" : "save";
      setPhase({ kind: "open", link });
    })();
    return () => {
      cancelled = true;
    };
    // submitNow and saveNow read the newest state through refs.
  }, [linkOk, fragment.token, fragment.language, attempt]);

  const keepOffline = useCallback(async (submit: boolean) => {
    const { answers: a, pageIndex: p, language: l } = latest.current;
    const copy: OfflineCopy = { answers: a, pageIndex: p, language: l, savedAt: Date.now(), submit };
    await storeRef.current?.save(copy);
  }, []);

  const phaseRef = useRef(phase);
  phaseRef.current = phase;

  async function saveNow() {
    clearTimeout(saveTimer.current);
    if (submittingRef.current) return;
    const { answers: a, pageIndex: p, language: l } = latest.current;
    try {
      await api.put(
        "/api/auth/teleawv/draft",
        { answers: a, pageIndex: p, language: l },
        { handleErrors: true, headers: bearer(fragment.token) },
      );
      storeRef.current?.clear();
      setSaveState("saved");
    } catch (error) {
      if (isOffline(error)) {
        await keepOffline(false);
        setSaveState("offline");
      } else if (error instanceof ApiError && error.status === 403) {
        // Used or expired meanwhile: say which.
        setAttempt((n) => n + 1);
      }
    }
  }

  async function submitNow() {
    const phase = phaseRef.current;
    if (phase.kind !== "open") return;
    submittingRef.current = true;
    clearTimeout(saveTimer.current);
    setSubmitting("sending");
    const context = questionnaireContext(hidden, fragment.alternateFalls, latest.current.answers);
    try {
      const response = await api.post<TeleAwvSubmitResponse>(
        "/api/auth/teleawv",
        buildSubmission(context, hidden, fragment.token),
        { handleErrors: true, headers: bearer(fragment.token) },
      );
      storeRef.current?.clear();
      const state: CompletionState = {
        safetyAlert: response.safetyAlert,
        practice: phase.link.practice.name,
        language: latest.current.language,
      };
      await navigate("/auth/teleawv/complete", { replace: true, state });
    } catch (error) {
      if (isOffline(error)) {
        // Kept for a retry, which happens by itself when the connection returns.
        await keepOffline(true);
        setSubmitting("offline");
        return;
      }
      submittingRef.current = false;
      setSubmitting("no");
      if (error instanceof ApiError && error.status === 403) {
        setAttempt((n) => n + 1);
        return;
      }
      window.alert(t("teleAwv.error"));
    }
  }
  // Effects call the newest of the two, with the newest state.
  const actions = useRef({ saveNow, submitNow });
  actions.current = { saveNow, submitNow };

  useEffect(() => {
    if (phase.kind !== "open" || flushOnOpen.current === null) return;
    const flush = flushOnOpen.current;
    flushOnOpen.current = null;
    if (flush === "submit") void actions.current.submitNow();
    else void actions.current.saveNow();
  }, [phase.kind]);

  useEffect(() => {
    const onOnline = () => {
      if (submitting === "offline") void actions.current.submitNow();
      else if (saveState === "offline") void actions.current.saveNow();
      else if (phase.kind === "unreachable") setAttempt((n) => n + 1);
    };
    window.addEventListener("online", onOnline);
    return () => window.removeEventListener("online", onOnline);
  }, [submitting, saveState, phase.kind]);

  useEffect(() => () => clearTimeout(saveTimer.current), []);

  const scheduleSave = () => {
    clearTimeout(saveTimer.current);
    saveTimer.current = setTimeout(() => void actions.current.saveNow(), DRAFT_DELAY_MS);
  };

  const chooseLanguage = (next: PatientLanguage) => {
    setLanguage(next);
    latest.current = { ...latest.current, language: next };
    if (phase.kind === "open") void saveNow();
  };

  const stepTitle = useCallback(
    (step: string) => i18n.t("teleAwv.pageTitle", { step }),
    // The title follows the language.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [language],
  );

  if (!linkOk) return null;

  const practice =
    phase.kind === "open" ? phase.link.practice.name : phase.kind === "spent" ? phase.practice : null;

  if (phase.kind !== "open") {
    let title: string;
    let text: string | null = null;
    let retry = false;
    switch (phase.kind) {
      case "checking":
        title = t("teleAwv.checking");
        break;
      case "spent":
        title = t(phase.state === "used" ? "teleAwv.usedTitle" : "teleAwv.expiredTitle");
        text = t(phase.state === "used" ? "teleAwv.usedText" : "teleAwv.expiredText", {
          practice: phase.practice,
        });
        break;
      case "invalid":
        title = t("teleAwv.invalidTitle");
        text = t("teleAwv.invalidText");
        break;
      case "unreachable":
        title = t("teleAwv.unreachableTitle");
        text = t("teleAwv.unreachableText");
        retry = true;
        break;
    }
    return (
      <Frame practice={practice} language={language} onLanguage={setLanguage}>
        <DocumentTitle title={title} />
        <div className="awv-message" role={phase.kind === "checking" ? "status" : "alert"}>
          <h1 className="awv-title">{title}</h1>
          {text !== null ? <p>{text}</p> : null}
          {retry ? (
            <button
              type="button"
              className="sv-button sv-button-primary"
              onClick={() => setAttempt((n) => n + 1)}
            >
              {t("teleAwv.tryAgain")}
            </button>
          ) : null}
        </div>
      </Frame>
    );
  }

  let status: string | null = null;
  if (submitting === "offline") status = t("teleAwv.offlineSubmit");
  else if (submitting === "sending") status = t("teleAwv.sending");
  else if (saveState === "offline") status = t("teleAwv.savedOffline");
  else if (saveState === "saved") status = t("teleAwv.saved");

  const minutes = minutesLeft(context, pageIndex);
  return (
    <Frame practice={practice} language={language} onLanguage={chooseLanguage}>
      {resumed ? (
        <p className="awv-resumed" role="status">
          {t("teleAwv.resumed")}
        </p>
      ) : null}
      <SurveyRunner
        survey={teleAwvSurvey}
        pageIndex={pageIndex}
        // The conditions read the link's hidden fields (ptS, ptPY, pt100) beside the answers.
        answers={context.answers}
        context={{ tenant: context.tenant ?? { id: hidden.tenant } }}
        hiddenFields={hidden}
        progress="step"
        slideConditional
        documentTitle={stepTitle}
        header={<p className="awv-time">{t("teleAwv.timeLeft", { count: minutes })}</p>}
        onAnswersChange={(withHidden) => {
          const next: Answers = { ...withHidden };
          for (const field of TELE_AWV_HIDDEN_FIELDS) delete next[field];
          setAnswers(next);
          latest.current = { ...latest.current, answers: next };
          scheduleSave();
        }}
        onPageChange={(to) => {
          setPageIndex(to);
          setResumed(false);
          latest.current = { ...latest.current, pageIndex: to };
          void saveNow();
        }}
        onSubmit={() => {
          if (submittingRef.current) return;
          // Every step was checked on its way past; the whole questionnaire is checked once more, and a
          // step still missing an answer is shown again (its Next then names what is missing).
          const all = questionnaireContext(hidden, fragment.alternateFalls, latest.current.answers);
          const globals = { tenant: all.tenant ?? { id: hidden.tenant } };
          if (validateSurvey(teleAwvSurvey, all.answers, globals).length > 0) {
            const step = teleAwvSurvey.pages.findIndex(
              (page) => validatePage(page, all.answers, globals).length > 0,
            );
            setPageIndex(Math.max(0, step));
            return;
          }
          void submitNow();
        }}
        busy={submitting !== "no"}
        status={
          status === null ? undefined : (
            <p className="awv-save-status" role="status">
              {status}
            </p>
          )
        }
      />
    </Frame>
  );
}

function DocumentTitle({ title }: { title: string }) {
  useEffect(() => {
    document.title = `${title} · Core Care`;
  }, [title]);
  return null;
}
