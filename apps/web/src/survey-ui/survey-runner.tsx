import { useEffect, useId, useMemo, useRef, useState, type ReactNode } from "react";
import {
  nextPageIndex,
  previousPageIndex,
  validatePage,
  visibleQuestions,
  type Answers,
  type EvalContext,
  type Survey,
} from "@core-care/survey-engine";
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
}

/**
 * Runs a survey one page at a time (SPEC 4, 5): page title and section, the questions whose
 * conditions hold, inline errors under question titles with the first one scrolled into view and
 * focused; Next validates then moves to the next page that shows (Submit on the last one);
 * Previous moves to the nearest earlier page that shows and is disabled on the first.
 * Navigation and validation come from the survey engine; routing and saving belong to the owner.
 */
export function SurveyRunner(props: SurveyRunnerProps) {
  const { survey, pageIndex, answers, context, busy = false } = props;
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

  if (!page) return null;

  const issuesOf = (values: Answers) =>
    new Map(validatePage(page, values, context).map((issue) => [issue.field, issue.message]));

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
      <header className="sv-header">
        <p className="sv-survey-title">{survey.title}</p>
        {section && section.title !== "" ? <p className="sv-section">{section.title}</p> : null}
        <h2 className="sv-page-title" id={`${idPrefix}-page-title`} ref={headingRef} tabIndex={-1}>
          {page.title}
        </h2>
        <progress
          className="sv-progress"
          value={pageIndex + 1}
          max={survey.pages.length}
          aria-label={`Page ${pageIndex + 1} of ${survey.pages.length}`}
        />
      </header>
      <div className="sv-error-summary" role="alert">
        {errorCount > 0
          ? errorCount === 1
            ? "One question on this page needs an answer or a correction."
            : `${errorCount} questions on this page need an answer or a correction.`
          : null}
      </div>
      <div className="sv-questions">
        {questions.map((question) => (
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
          Previous
        </button>
        <button
          type="submit"
          className="sv-button sv-button-primary"
          disabled={busy}
          aria-disabled={settling === "next" ? true : undefined}
        >
          {next === -1 ? (survey.submitLabel ?? "Submit") : "Next"}
        </button>
      </div>
    </form>
  );
}
