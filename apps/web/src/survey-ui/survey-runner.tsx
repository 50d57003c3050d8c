import { useEffect, useId, useMemo, useRef, useState, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import {
  isQuestionVisible,
  localizeSurvey,
  nextPageIndex,
  previousPageIndex,
  shouldDisplayPage,
  validatePage,
  visibleQuestions,
  type Answers,
  type EvalContext,
  type Page,
  type Question,
  type Survey,
} from "@core-care/survey-engine";
import { issueText } from "../i18n/i18n";
import { QuestionField, type FieldContext } from "./question-field";
import "./survey-ui.css";

/** Which way a page move went. */
export type PageMove = "next" | "previous";

/**
 * How long after a page move the button that made it ignores presses: the second tap of a double
 * tap lands on the same button of the page just shown and must neither move on nor save again.
 */
export const DOUBLE_TAP_MS = 500;

export interface SurveyRunnerProps {
  survey: Survey;
  /** 0-based index of the page on screen. */
  pageIndex: number;
  answers: Answers;
  /** Globals conditions may read (tenant, sex, age); the answers come from `answers`. */
  context?: Omit<EvalContext, "answers">;
  onAnswersChange(answers: Answers): void;
  /** A valid Next or a Previous chose page `to`; the owner shows it (and saves). */
  onPageChange(to: number, from: number, move: PageMove): void;
  /** Next on the last page that shows, with the page valid. */
  onSubmit(): void;
  /** Disables the buttons, e.g. while the result is being submitted. */
  busy?: boolean;
  /** Shown above the buttons, e.g. the connection state. */
  status?: ReactNode;
  /** Shown in the header under the survey title: the patient's name, the practice, a time estimate. */
  header?: ReactNode;
  /** Whether the progress counts pages ("Page 2 of 5") or steps ("Step 2 of 8"). */
  progress?: "page" | "step";
  /**
   * Renders every question of the page, those whose conditions do not hold in a closed panel that slides
   * open when they come to (SPEC 4: the Tele-AWV's conditional sections), instead of leaving them out.
   */
  slideConditional?: boolean;
  /** Hidden inputs of the form (SPEC 2: the Tele-AWV's six hidden fields). */
  hiddenFields?: Readonly<Record<string, string>>;
  /** The browser tab's title for a page; by default the page's title and the survey's. */
  documentTitle?: (pageTitle: string, surveyTitle: string) => string;
}

/**
 * A question that has conditions sits in a panel that slides open or closed whenever an answer changes
 * (SPEC 4). A closed panel is inert: its inputs can be neither reached nor submitted.
 */
function SlidingQuestion({ question, open, ctx }: { question: Question; open: boolean; ctx: FieldContext }) {
  return (
    <div className={`sv-slide${open ? " is-open" : ""}`} data-slide={question.fieldName} inert={!open}>
      <div className="sv-slide-inner">
        <QuestionField question={question} ctx={ctx} />
      </div>
    </div>
  );
}

/**
 * Runs a survey one page at a time (SPEC 4, 5) in the patient's language (the i18next language; texts
 * the survey has no translation for stay as written): the page title as the page's level-1 heading with
 * the survey title and section above it, "Page 2 of 5" counting only the pages that will show, the
 * questions whose conditions hold, inline errors under question titles with the first one scrolled into
 * view and focused; Next validates then moves to the next page that shows (Submit on the last one);
 * Previous moves to the nearest earlier page that shows and is disabled on the first. The buttons stay
 * in view at the bottom of the screen. Navigation and validation come from the survey engine; routing
 * and saving belong to the owner.
 */
export function SurveyRunner(props: SurveyRunnerProps) {
  const { pageIndex, answers, context, busy = false } = props;
  const { t, i18n } = useTranslation();
  const language = i18n.language;
  const survey = useMemo(() => localizeSurvey(props.survey, language), [props.survey, language]);
  const idPrefix = `sv${useId().replace(/[^A-Za-z0-9]/g, "")}`;
  const formRef = useRef<HTMLFormElement>(null);
  const headingRef = useRef<HTMLHeadingElement>(null);
  const [errors, setErrors] = useState<ReadonlyMap<string, string>>(new Map());
  const [attempted, setAttempted] = useState(false);
  const [focusErrors, setFocusErrors] = useState(0);
  const [errorsForPage, setErrorsForPage] = useState(pageIndex);
  // A ref as well as state: two presses can arrive before React renders again.
  const settlingRef = useRef<PageMove | null>(null);
  const [settling, setSettling] = useState<PageMove | null>(null);
  const settleTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(settleTimer.current), []);

  if (errorsForPage !== pageIndex) {
    setErrorsForPage(pageIndex);
    setErrors(new Map());
    setAttempted(false);
  }

  const page = survey.pages[pageIndex];
  const evalContext: EvalContext = useMemo(() => ({ ...context, answers }), [context, answers]);
  const questions = useMemo(() => (page ? visibleQuestions(page, evalContext) : []), [page, evalContext]);
  const next = nextPageIndex(survey, pageIndex, evalContext);
  const previous = previousPageIndex(survey, pageIndex, evalContext);
  const section = page?.section ? survey.sections.find((s) => s.id === page.section) : undefined;
  // The pages that will show with the answers so far: the count a patient can trust.
  const shown = survey.pages
    .map((_page, index) => index)
    .filter((index) => index === pageIndex || shouldDisplayPage(survey.pages[index] as Page, evalContext));
  const position = shown.indexOf(pageIndex) + 1;

  const firstRender = useRef(true);
  useEffect(() => {
    if (firstRender.current) {
      firstRender.current = false;
      return;
    }
    window.scrollTo({ top: 0 });
    headingRef.current?.focus();
  }, [pageIndex]);

  useEffect(() => {
    if (focusErrors === 0) return;
    const first = formRef.current?.querySelector<HTMLElement>(".has-error");
    if (!first) return;
    first.scrollIntoView({ block: "center" });
    first.querySelector<HTMLElement>("input, select, textarea")?.focus({ preventScroll: true });
  }, [focusErrors]);

  const pageTitle = page?.title ?? "";
  const { documentTitle } = props;
  useEffect(() => {
    if (pageTitle === "") return;
    document.title = documentTitle
      ? documentTitle(pageTitle, survey.title)
      : t("tablet.pageTitle", { page: pageTitle, survey: survey.title });
  }, [pageTitle, survey.title, documentTitle, t]);

  if (!page) return null;

  const issuesOf = (values: Answers) =>
    new Map(validatePage(page, values, context).map((issue) => [issue.field, issueText(issue, t)]));

  const fieldContext: FieldContext = {
    answers,
    errors,
    idPrefix,
    onChange(nextAnswers) {
      if (attempted) setErrors(issuesOf(nextAnswers));
      props.onAnswersChange(nextAnswers);
    },
  };

  const settle = (move: PageMove) => {
    settlingRef.current = move;
    setSettling(move);
    clearTimeout(settleTimer.current);
    settleTimer.current = setTimeout(() => {
      settlingRef.current = null;
      setSettling(null);
    }, DOUBLE_TAP_MS);
  };

  const goNext = () => {
    if (busy || settlingRef.current === "next") return;
    const found = issuesOf(answers);
    setErrors(found);
    setAttempted(true);
    if (found.size > 0) {
      setFocusErrors((n) => n + 1);
      return;
    }
    settle("next");
    if (next === -1) props.onSubmit();
    else props.onPageChange(next, pageIndex, "next");
  };

  const goPrevious = () => {
    if (busy || previous === pageIndex || settlingRef.current === "previous") return;
    settle("previous");
    props.onPageChange(previous, pageIndex, "previous");
  };

  const progressText = t(props.progress === "step" ? "teleAwv.stepOf" : "runner.pageOf", {
    current: position,
    total: shown.length,
  });
  const errorCount = errors.size;
  return (
    <form
      ref={formRef}
      className="sv-runner"
      noValidate
      aria-labelledby={`${idPrefix}-page-title`}
      onSubmit={(event) => {
        event.preventDefault();
        goNext();
      }}
    >
      {props.hiddenFields
        ? Object.entries(props.hiddenFields).map(([name, value]) => (
            <input key={name} type="hidden" name={name} value={value} />
          ))
        : null}
      <header className="sv-header">
        <p className="sv-survey-title">{survey.title}</p>
        {props.header}
        {section && section.title !== "" && section.title !== page.title ? (
          <p className="sv-section">{section.title}</p>
        ) : null}
        <h1 className="sv-page-title" id={`${idPrefix}-page-title`} ref={headingRef} tabIndex={-1}>
          {page.title}
        </h1>
        <p className="sv-progress-text" id={`${idPrefix}-progress`}>
          {progressText}
        </p>
        <progress
          className="sv-progress"
          value={position}
          max={shown.length}
          aria-labelledby={`${idPrefix}-progress`}
        />
      </header>
      <div className="sv-error-summary" role="alert">
        {errorCount > 0 ? t("runner.errors", { count: errorCount }) : null}
      </div>
      <div className="sv-questions">
        {props.slideConditional
          ? page.questions.map((question) =>
              question.visibleWhen && question.visibleWhen.length > 0 ? (
                <SlidingQuestion
                  key={question.id}
                  question={question}
                  open={isQuestionVisible(question, evalContext)}
                  ctx={fieldContext}
                />
              ) : (
                <QuestionField key={question.id} question={question} ctx={fieldContext} />
              ),
            )
          : questions.map((question) => (
              <QuestionField key={question.id} question={question} ctx={fieldContext} />
            ))}
      </div>
      {props.status ? <div className="sv-status">{props.status}</div> : null}
      <div className="sv-nav">
        <button
          type="button"
          className="sv-button sv-button-secondary"
          onClick={goPrevious}
          disabled={busy || previous === pageIndex}
          aria-disabled={settling === "previous" ? true : undefined}
        >
          {t("runner.previous")}
        </button>
        <button
          type="submit"
          className="sv-button sv-button-primary"
          disabled={busy}
          aria-disabled={settling === "next" ? true : undefined}
        >
          {next === -1 ? (survey.submitLabel ?? t("runner.submit")) : t("runner.next")}
        </button>
      </div>
    </form>
  );
}
