import { memo, useId, useMemo, useState } from "react";
import type { Answers, EvalContext, Survey } from "@core-care/survey-engine";
import { SurveyRunner } from "../survey-ui/survey-runner";

/** Props of {@link SurveyPreview}. */
export interface SurveyPreviewProps {
  survey: Survey;
  tenantId: string;
}

function parseAnswers(text: string): Answers | string {
  if (text.trim() === "") return {};
  try {
    const value = JSON.parse(text) as unknown;
    if (typeof value === "object" && value !== null && !Array.isArray(value)) return value as Answers;
    return "Sample answers must be a JSON object.";
  } catch (error) {
    return `Sample answers are not valid JSON: ${error instanceof Error ? error.message : String(error)}`;
  }
}

/**
 * A live preview of any page through the tablet's runner, with sample answers (JSON) and the
 * globals conditions read (sex, age, tenant location). Answers typed into the runner update the sample.
 * Memoised: the designer gives it a deferred copy of the survey, and while typing goes on it keeps the
 * last one without rendering again.
 */
export const SurveyPreview = memo(function SurveyPreview({ survey, tenantId }: SurveyPreviewProps) {
  const id = useId();
  const [pageIndex, setPageIndex] = useState(0);
  const [text, setText] = useState("{}");
  const [sex, setSex] = useState("");
  const [age, setAge] = useState("");
  const [locationId, setLocationId] = useState("");
  const [finished, setFinished] = useState(false);
  const parsed = parseAnswers(text);
  const [lastGood, setLastGood] = useState<Answers>({});
  const answers = typeof parsed === "string" ? lastGood : parsed;
  const shownIndex = Math.min(pageIndex, Math.max(survey.pages.length - 1, 0));

  const context = useMemo<Omit<EvalContext, "answers">>(() => {
    const globals: Omit<EvalContext, "answers"> = {
      tenant: locationId === "" ? { id: tenantId } : { id: tenantId, location: { id: locationId } },
    };
    if (sex !== "") globals.sex = sex;
    if (age.trim() !== "" && Number.isFinite(Number(age))) globals.age = Number(age);
    return globals;
  }, [tenantId, locationId, sex, age]);

  const setAnswers = (next: Answers) => {
    setLastGood(next);
    setText(JSON.stringify(next, null, 2));
  };

  return (
    <section className="card designer-preview" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Preview</h2>
      {survey.pages.length === 0 ? (
        <p className="hint">Add a page to preview it.</p>
      ) : (
        <>
          <div className="form-grid">
            <div className="field">
              <label htmlFor={`${id}-page`}>Preview page</label>
              <select
                id={`${id}-page`}
                value={shownIndex}
                onChange={(e) => {
                  setFinished(false);
                  setPageIndex(Number(e.target.value));
                }}
              >
                {survey.pages.map((page, index) => (
                  <option key={page.id} value={index}>
                    {index + 1}. {page.title}
                  </option>
                ))}
              </select>
            </div>
            <div className="field">
              <label htmlFor={`${id}-sex`}>Sample sex</label>
              <select id={`${id}-sex`} value={sex} onChange={(e) => setSex(e.target.value)}>
                <option value="">Not set</option>
                <option value="F">F</option>
                <option value="M">M</option>
                <option value="U">U</option>
              </select>
            </div>
            <div className="field">
              <label htmlFor={`${id}-age`}>Sample age</label>
              <input id={`${id}-age`} type="number" value={age} onChange={(e) => setAge(e.target.value)} />
            </div>
            <div className="field">
              <label htmlFor={`${id}-location`}>Sample location id</label>
              <input
                id={`${id}-location`}
                type="text"
                value={locationId}
                onChange={(e) => setLocationId(e.target.value)}
              />
            </div>
            <div className="field span-2">
              <label htmlFor={`${id}-answers`}>Sample answers (JSON)</label>
              <textarea
                id={`${id}-answers`}
                rows={4}
                className="code"
                value={text}
                onChange={(e) => {
                  setText(e.target.value);
                  const next = parseAnswers(e.target.value);
                  if (typeof next !== "string") setLastGood(next);
                }}
                aria-describedby={`${id}-answers-error`}
              />
              <p id={`${id}-answers-error`} className="form-error" role="status">
                {typeof parsed === "string" ? parsed : ""}
              </p>
            </div>
          </div>
          <div className="designer-runner" data-testid="survey-preview">
            {finished ? (
              <p role="status">The preview reached the end of the survey.</p>
            ) : (
              <SurveyRunner
                survey={survey}
                pageIndex={shownIndex}
                answers={answers}
                context={context}
                onAnswersChange={setAnswers}
                onPageChange={(to) => setPageIndex(to)}
                onSubmit={() => setFinished(true)}
              />
            )}
          </div>
        </>
      )}
    </section>
  );
});
