import { useEffect, useId, useMemo, useRef, useState } from "react";
import { useLocation, useNavigate } from "react-router-dom";
import {
  isQuestionVisible,
  teleAwvSurvey,
  validateSurvey,
  type Answers,
  type EvalContext,
  type Question,
} from "@core-care/survey-engine";
import { api } from "../api/client";
import { QuestionField, type FieldContext } from "../survey-ui/question-field";
import { Logo } from "../ui/logo";
import {
  buildSubmission,
  hasRequiredParams,
  hiddenFields,
  questionnaireContext,
  readFragment,
  TELE_AWV_ERROR,
  TELE_AWV_LINK_ERROR,
} from "./tele-awv-form";
import "../survey-ui/survey-ui.css";
import "./awv.css";

/**
 * A question that has conditions sits in a panel that slides open or closed whenever an answer changes
 * (SPEC 4). A closed panel is inert: its inputs can be neither reached nor submitted.
 */
function ConditionalQuestion({
  question,
  open,
  ctx,
}: {
  question: Question;
  open: boolean;
  ctx: FieldContext;
}) {
  return (
    <div className={`awv-slide${open ? " is-open" : ""}`} data-slide={question.fieldName} inert={!open}>
      <div className="awv-slide-inner">
        <QuestionField question={question} ctx={ctx} />
      </div>
    </div>
  );
}

function issuesOf(context: EvalContext): Map<string, string> {
  return new Map(validateSurvey(teleAwvSurvey, context.answers, context).map((i) => [i.field, i.message]));
}

/**
 * /auth/teleawv: the Annual Wellness Visit questionnaire a patient opens from the e-mailed link (SPEC 2),
 * every section on one page with the 'Submit AWV' button at the end.
 */
export default function TeleAwvPage() {
  const { search, hash } = useLocation();
  const navigate = useNavigate();
  const idPrefix = `awv${useId().replace(/[^A-Za-z0-9]/g, "")}`;
  const formRef = useRef<HTMLFormElement>(null);
  const linkOk = hasRequiredParams(search);
  const hidden = useMemo(() => hiddenFields(search), [search]);
  const fragment = useMemo(() => readFragment(hash), [hash]);
  const [answers, setAnswers] = useState<Answers>({});
  const [errors, setErrors] = useState<ReadonlyMap<string, string>>(new Map());
  const [attempted, setAttempted] = useState(false);
  const [focusErrors, setFocusErrors] = useState(0);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    document.title = "Annual Wellness Visit · Core Care";
  }, []);

  useEffect(() => {
    if (linkOk) return;
    window.alert(TELE_AWV_LINK_ERROR);
    void navigate("/auth/logout", { replace: true });
  }, [linkOk, navigate]);

  useEffect(() => {
    if (focusErrors === 0) return;
    const first = formRef.current?.querySelector<HTMLElement>(".has-error");
    if (!first) return;
    first.scrollIntoView({ block: "center" });
    first.querySelector<HTMLElement>("input, select, textarea")?.focus({ preventScroll: true });
  }, [focusErrors]);

  const context = useMemo(
    () => questionnaireContext(hidden, fragment.alternateFalls, answers),
    [hidden, fragment.alternateFalls, answers],
  );

  if (!linkOk) return null;

  const fieldContext: FieldContext = {
    answers,
    errors,
    idPrefix,
    onChange(next) {
      setAnswers(next);
      if (attempted) setErrors(issuesOf(questionnaireContext(hidden, fragment.alternateFalls, next)));
    },
  };

  async function submit() {
    if (busy) return;
    const found = issuesOf(context);
    setErrors(found);
    setAttempted(true);
    if (found.size > 0) {
      setFocusErrors((n) => n + 1);
      return;
    }
    setBusy(true);
    try {
      await api.post("/api/auth/teleawv", buildSubmission(context, hidden, fragment.token), {
        handleErrors: true,
      });
      await navigate("/auth/teleawv/complete", { replace: true });
    } catch {
      setBusy(false);
      window.alert(TELE_AWV_ERROR);
    }
  }

  return (
    <div className="awv-page">
      <header className="awv-header">
        <Logo size={40} />
      </header>
      <main className="awv-main">
        <form
          ref={formRef}
          className="sv-runner awv-form"
          noValidate
          aria-labelledby="awv-title"
          onSubmit={(event) => {
            event.preventDefault();
            void submit();
          }}
        >
          <h1 id="awv-title" className="awv-title">
            {teleAwvSurvey.title}
          </h1>
          <p className="awv-intro">{teleAwvSurvey.description}</p>
          {(Object.keys(hidden) as (keyof typeof hidden)[]).map((name) => (
            <input key={name} type="hidden" name={name} value={hidden[name]} />
          ))}
          {teleAwvSurvey.pages.map((page) => (
            <section key={page.id} className="awv-section" aria-labelledby={`${idPrefix}-${page.id}`}>
              <h2 id={`${idPrefix}-${page.id}`} className="awv-section-title">
                {page.title}
              </h2>
              <div className="sv-questions">
                {page.questions.map((question) =>
                  question.visibleWhen && question.visibleWhen.length > 0 ? (
                    <ConditionalQuestion
                      key={question.id}
                      question={question}
                      open={isQuestionVisible(question, context)}
                      ctx={fieldContext}
                    />
                  ) : (
                    <QuestionField key={question.id} question={question} ctx={fieldContext} />
                  ),
                )}
              </div>
            </section>
          ))}
          <div className="sv-error-summary" role="alert">
            {errors.size > 0
              ? errors.size === 1
                ? "One question needs an answer or a correction."
                : `${errors.size} questions need an answer or a correction.`
              : null}
          </div>
          <div className="sv-nav awv-actions">
            <button type="submit" className="sv-button sv-button-primary" disabled={busy}>
              {teleAwvSurvey.submitLabel ?? "Submit AWV"}
            </button>
          </div>
        </form>
      </main>
    </div>
  );
}
