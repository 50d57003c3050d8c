import { useCallback, useDeferredValue, useEffect, useId, useMemo, useRef, useState } from "react";
import { Link, useParams } from "react-router-dom";
import {
  createPage,
  objectId,
  type Page,
  type Question,
  type Section,
  type Survey,
} from "@core-care/survey-engine";
import { useMe } from "../api/session";
import { ConditionList, FieldOptionsContext } from "./condition-editor";
import { DesignerPageFrame, SaveState, type DesignerView } from "./designer-page-frame";
import { QuestionList, TranslationField } from "./question-editor";
import { SurveyPreview } from "./survey-preview";
import { downloadText, exportSurvey, fileNameOf, importSurvey } from "./survey-json";
import { fieldOptions, moveItem, removeAt, replaceAt, type FieldOption } from "./survey-fields";
import { RemoveButton } from "./remove-button";
import { savedFields } from "./remote-save";
import { VersionHistory } from "./version-history";
import "./designer.css";

/** How long typing must pause before the preview shows the change. */
const PREVIEW_PAUSE_MS = 250;

/** `value` once it has stayed the same for `ms` (at once the first time). */
function usePaused<T>(value: T, ms: number): T {
  const [paused, setPaused] = useState(value);
  useEffect(() => {
    if (Object.is(paused, value)) return;
    const timer = setTimeout(() => setPaused(value), ms);
    return () => clearTimeout(timer);
  }, [paused, value, ms]);
  return paused;
}

/** The survey designer at /surveys/:surveyId (SPEC 1, 3, 4). */
export default function SurveyDesignerPage() {
  const { surveyId = "" } = useParams();
  return (
    <DesignerPageFrame entity="survey" id={surveyId}>
      {(view) => <SurveyDesigner {...view} />}
    </DesignerPageFrame>
  );
}

function SurveyDesigner(view: DesignerView<Survey>) {
  const { document: survey, readOnly, shared, onEdit } = view;
  const id = useId();
  const me = useMe();
  const [pageIndex, setPageIndex] = useState(0);
  const [importProblems, setImportProblems] = useState<string[]>([]);
  const pages = survey.pages;
  const fields = useSameFields(useMemo(() => fieldOptions({ pages }), [pages]));
  const selected = Math.min(pageIndex, Math.max(survey.pages.length - 1, 0));
  const page = survey.pages[selected];
  // The preview follows the document once typing pauses, and then at a lower priority than typing: on a
  // page of hundreds of questions it renders them all, which no keystroke may wait for.
  const previewed = useDeferredValue(usePaused(survey, PREVIEW_PAUSE_MS));

  const setPages = (change: (pages: Page[]) => Page[]) => onEdit((s) => ({ ...s, pages: change(s.pages) }));
  const editPage = useCallback(
    (index: number, change: (page: Page) => Page) =>
      onEdit((s) => {
        const current = s.pages[index];
        return current === undefined ? s : { ...s, pages: replaceAt(s.pages, index, change(current)) };
      }),
    [onEdit],
  );
  const setSections = (change: (sections: Section[]) => Section[]) =>
    onEdit((s) => ({ ...s, sections: change(s.sections) }));

  const onImport = async (file: File) => {
    const result = importSurvey(await file.text(), survey);
    if (!result.ok) {
      setImportProblems(result.problems);
      return;
    }
    setImportProblems([]);
    setPageIndex(0);
    onEdit(() => result.survey);
  };

  return (
    <section className="designer">
      <div className="page-header">
        <h1>Survey designer</h1>
        <div className="designer-actions">
          <SaveState view={view} />
          <button
            type="button"
            className="button"
            onClick={() =>
              downloadText(fileNameOf(survey.title, "json"), exportSurvey(survey), "application/json")
            }
          >
            Export JSON
          </button>
          {readOnly ? null : (
            <label className="button designer-file">
              Import JSON
              <input
                type="file"
                accept="application/json,.json"
                className="visually-hidden"
                onChange={(e) => {
                  const file = e.target.files?.[0];
                  e.target.value = "";
                  if (file) void onImport(file);
                }}
              />
            </label>
          )}
          <Link to="/surveys" className="button ghost">
            All surveys
          </Link>
        </div>
      </div>
      {shared ? (
        <p className="notice">
          This survey is shared by another practice. You may use it, but only its owner can change it.
        </p>
      ) : readOnly ? (
        <p className="notice">Only administrators can change surveys.</p>
      ) : null}
      {importProblems.length > 0 ? (
        <div className="notice error" role="alert">
          <p>The file is not a valid survey:</p>
          <ul>
            {importProblems.slice(0, 10).map((problem) => (
              <li key={problem}>{problem}</li>
            ))}
          </ul>
        </div>
      ) : null}
      <div className="designer-columns">
        <FieldOptionsContext value={fields}>
          <fieldset className="designer-editor" disabled={readOnly}>
            <legend className="visually-hidden">Survey</legend>
            <section className="card" aria-labelledby={`${id}-settings`}>
              <h2 id={`${id}-settings`}>Survey</h2>
              <div className="form-grid">
                <div className="field span-2">
                  <label htmlFor={`${id}-title`}>Survey title</label>
                  <input
                    id={`${id}-title`}
                    type="text"
                    value={survey.title}
                    onChange={(e) => onEdit((s) => ({ ...s, title: e.target.value }))}
                  />
                </div>
                <div className="field span-2">
                  <label htmlFor={`${id}-description`}>Description</label>
                  <textarea
                    id={`${id}-description`}
                    rows={2}
                    value={survey.description}
                    onChange={(e) => onEdit((s) => ({ ...s, description: e.target.value }))}
                  />
                </div>
              </div>
              <label className="designer-check">
                <input
                  type="checkbox"
                  checked={survey.canSubscribeTo}
                  onChange={(e) => onEdit((s) => ({ ...s, canSubscribeTo: e.target.checked }))}
                />{" "}
                Other practices may subscribe to this survey
              </label>
            </section>

            <section className="card" aria-labelledby={`${id}-sections`}>
              <h2 id={`${id}-sections`}>Sections</h2>
              {survey.sections.length === 0 ? <p className="hint">No sections.</p> : null}
              {survey.sections.map((section, index) => (
                <div className="designer-row" key={section.id}>
                  <div className="field">
                    <label htmlFor={`${id}-section-${section.id}`}>Section {index + 1} title</label>
                    <input
                      id={`${id}-section-${section.id}`}
                      type="text"
                      value={section.title}
                      onChange={(e) =>
                        setSections((list) => replaceAt(list, index, { ...section, title: e.target.value }))
                      }
                    />
                  </div>
                  <RemoveButton
                    label="Remove"
                    className="button small"
                    ariaLabel={`Remove section ${index + 1}`}
                    what={section.title ? `section ${index + 1} "${section.title}"` : `section ${index + 1}`}
                    consequence="Its pages stay, in no section."
                    onRemove={() =>
                      onEdit((s) => {
                        const at = s.sections.findIndex((x) => x.id === section.id);
                        return at === -1
                          ? s
                          : {
                              ...s,
                              sections: removeAt(s.sections, at),
                              pages: s.pages.map((p) => (p.section === section.id ? withoutSection(p) : p)),
                            };
                      })
                    }
                  />
                </div>
              ))}
              <button
                type="button"
                className="button small"
                onClick={() => setSections((list) => [...list, { id: objectId(), title: "" }])}
              >
                Add section
              </button>
            </section>

            <section className="card" aria-labelledby={`${id}-pages`}>
              <h2 id={`${id}-pages`}>Pages</h2>
              <ol className="designer-page-list">
                {survey.pages.map((p, index) => (
                  <li key={p.id}>
                    <button
                      type="button"
                      className={index === selected ? "link-button current" : "link-button"}
                      aria-current={index === selected ? "true" : undefined}
                      onClick={() => setPageIndex(index)}
                    >
                      {p.title || "Unnamed page"}
                      {p.conditions.length > 0 ? " (conditional)" : ""}
                    </button>
                  </li>
                ))}
              </ol>
              <button
                type="button"
                className="button small"
                onClick={() => {
                  setPageIndex(survey.pages.length);
                  setPages((pages) => [...pages, createPage()]);
                }}
              >
                Add page
              </button>
            </section>

            {page ? (
              <PageEditor
                key={page.id}
                page={page}
                index={selected}
                count={survey.pages.length}
                sections={survey.sections}
                editPage={editPage}
                onMove={(step) => {
                  setPages((pages) => moveItem(pages, selected, step));
                  setPageIndex(Math.min(Math.max(selected + step, 0), survey.pages.length - 1));
                }}
                onRemove={() => {
                  setPages((pages) => removeAt(pages, selected));
                  setPageIndex(Math.max(selected - 1, 0));
                }}
              />
            ) : null}
          </fieldset>
        </FieldOptionsContext>
        <div className="designer-side">
          <SurveyPreview survey={previewed} tenantId={me?.tenant.id ?? ""} />
          <VersionHistory
            entity="survey"
            id={survey.id}
            onRestore={
              readOnly
                ? undefined
                : (restored) =>
                    onEdit((s) => ({ ...savedFields("survey", restored), id: s.id, version: s.version }))
            }
          />
        </div>
      </div>
    </section>
  );
}

function withoutSection(page: Page): Page {
  const { section: _section, ...rest } = page;
  return rest;
}

/** The same list as the last render's when nothing in it changed, so the condition editors need not render. */
function useSameFields(fields: FieldOption[]): FieldOption[] {
  const last = useRef(fields);
  const same =
    last.current.length === fields.length &&
    last.current.every((f, i) => {
      const g = fields[i];
      return (
        g !== undefined &&
        f.path === g.path &&
        f.label === g.label &&
        f.kind === g.kind &&
        JSON.stringify(f.choices) === JSON.stringify(g.choices)
      );
    });
  if (!same) last.current = fields;
  return last.current;
}

interface PageEditorProps {
  page: Page;
  index: number;
  count: number;
  sections: readonly Section[];
  /** Changes the page at an index from what it is then; keeps its identity across renders. */
  editPage: (index: number, change: (page: Page) => Page) => void;
  onMove: (step: number) => void;
  onRemove: () => void;
}

function PageEditor({ page, index, count, sections, editPage, onMove, onRemove }: PageEditorProps) {
  const id = useId();
  const number = index + 1;
  const onChange = (next: Page) => editPage(index, () => next);
  const setQuestions = useCallback(
    (update: (questions: Question[]) => Question[]) =>
      editPage(index, (p) => ({ ...p, questions: update([...p.questions]) })),
    [editPage, index],
  );
  return (
    <section className="card designer-page" aria-labelledby={`${id}-heading`}>
      <h2 id={`${id}-heading`}>
        Page {number} of {count}
      </h2>
      <div className="form-grid">
        <div className="field">
          <label htmlFor={`${id}-title`}>Page title</label>
          <input
            id={`${id}-title`}
            type="text"
            value={page.title}
            onChange={(e) => onChange({ ...page, title: e.target.value })}
          />
        </div>
        <TranslationField
          className="field"
          label="Título de la página (español)"
          item={page}
          textKey="title"
          onChange={onChange}
        />
        <div className="field">
          <label htmlFor={`${id}-section`}>Section</label>
          <select
            id={`${id}-section`}
            value={page.section ?? ""}
            onChange={(e) =>
              onChange(e.target.value === "" ? withoutSection(page) : { ...page, section: e.target.value })
            }
          >
            <option value="">No section</option>
            {sections.map((section, index) => (
              <option key={section.id} value={section.id}>
                {section.title || `Section ${index + 1}`}
              </option>
            ))}
          </select>
        </div>
      </div>
      <div className="row-actions">
        <button type="button" className="button small" disabled={number === 1} onClick={() => onMove(-1)}>
          Move page up
        </button>
        <button type="button" className="button small" disabled={number === count} onClick={() => onMove(1)}>
          Move page down
        </button>
        <RemoveButton
          label="Remove page"
          what={page.title ? `page ${number} "${page.title}"` : `page ${number}`}
          consequence={
            page.questions.length > 0
              ? `Its ${page.questions.length === 1 ? "question goes" : `${page.questions.length} questions go`} with it.`
              : undefined
          }
          onRemove={onRemove}
        />
      </div>
      <ConditionList
        legend="Page conditions"
        conditions={page.conditions}
        onChange={(conditions) => onChange({ ...page, conditions })}
      />
      <h3>Questions</h3>
      <QuestionList label="Question" questions={page.questions} onChange={setQuestions} />
    </section>
  );
}
