import { memo, useCallback, useId, useState } from "react";
import {
  createQuestion,
  describeQuestion,
  QUESTION_TYPE_DESCRIPTORS,
  QUESTION_TYPES as TYPES,
  questionType,
  type Choice,
  type DesignerField,
  type Question,
  type QuestionType,
} from "@core-care/survey-engine";
import { ConditionList } from "./condition-editor";
import { RemoveButton } from "./remove-button";
import { moveItem, removeAt, replaceAt } from "./survey-fields";
import { SECOND_LANGUAGE, translationOf, withTranslation } from "./translation-fields";

/** Every question type the runner renders, with the name the designer shows (its descriptor's). */
export const QUESTION_TYPES: readonly (readonly [QuestionType, string])[] = TYPES.map(
  (type) => [type, QUESTION_TYPE_DESCRIPTORS[type].designer.label] as const,
);

/** True when the designer edits `field` of questions of the question's type. */
const edits = (question: Pick<Question, "type">, field: DesignerField) =>
  describeQuestion(question).designer.fields.includes(field);

/** A question switched to another type: its shared settings kept, the new type's defaults added. */
export function changeType(question: Question, type: QuestionType): Question {
  const keep: Partial<Question> = {
    id: question.id,
    fieldName: question.fieldName,
    title: question.title,
  };
  if (question.required !== undefined) keep.required = question.required;
  if (question.pii !== undefined) keep.pii = question.pii;
  if (question.visibleWhen !== undefined) keep.visibleWhen = question.visibleWhen;
  if (question.help !== undefined) keep.help = question.help;
  // The choices stay unless the new type brings its own (yes / no).
  const target = questionType(type);
  const ownChoices = (target.designer.defaults().choices?.length ?? 0) > 0;
  if (edits({ type }, "choices") && question.choices && question.choices.length > 0 && !ownChoices) {
    keep.choices = question.choices;
  }
  if (edits({ type }, "fields") && question.fields) keep.fields = question.fields;
  return createQuestion(type, keep);
}

/** Adds a question of the chosen type; the label names what it adds. */
export function AddQuestion({ label, onAdd }: { label: string; onAdd: (question: Question) => void }) {
  const id = useId();
  const [type, setType] = useState<QuestionType>("text");
  return (
    <div className="designer-add">
      <div className="field">
        <label htmlFor={`${id}-type`}>Type of the new {label.toLowerCase()}</label>
        <select id={`${id}-type`} value={type} onChange={(e) => setType(e.target.value as QuestionType)}>
          {QUESTION_TYPES.map(([value, name]) => (
            <option key={value} value={value}>
              {name}
            </option>
          ))}
        </select>
      </div>
      <button type="button" className="button small" onClick={() => onAdd(createQuestion(type))}>
        Add {label.toLowerCase()}
      </button>
    </div>
  );
}

/** Props of {@link QuestionList}. */
export interface QuestionListProps {
  /** 'Question' on a page, 'Field' inside a group. */
  label: string;
  questions: readonly Question[];
  /**
   * Changes the list from what it is when the change is applied. It must keep its identity across
   * renders: each question's editor then renders again only when its own question changes.
   */
  onChange: (update: (questions: Question[]) => Question[]) => void;
}

/** The questions of a page or the fields of a group, each editable, movable and removable. */
export function QuestionList({ label, questions, onChange }: QuestionListProps) {
  return (
    <div className="designer-questions">
      {questions.map((question, index) => (
        <QuestionEditor
          key={question.id}
          name={`${label} ${index + 1}`}
          index={index}
          question={question}
          first={index === 0}
          last={index === questions.length - 1}
          setQuestions={onChange}
        />
      ))}
      <AddQuestion label={label} onAdd={(question) => onChange((list) => [...list, question])} />
    </div>
  );
}

interface QuestionEditorProps {
  name: string;
  index: number;
  question: Question;
  first: boolean;
  last: boolean;
  setQuestions: (update: (questions: Question[]) => Question[]) => void;
}

/**
 * One question's editor. Memoised: typing into one question of a page of hundreds renders that
 * question's editor alone (its props are the question itself and callbacks that keep their identity).
 */
const QuestionEditor = memo(function QuestionEditor({
  name,
  index,
  question,
  first,
  last,
  setQuestions,
}: QuestionEditorProps) {
  const id = useId();
  const onChange = useCallback(
    (next: Question) => setQuestions((list) => replaceAt(list, index, next)),
    [setQuestions, index],
  );
  const setNested = useCallback(
    (update: (fields: Question[]) => Question[]) =>
      setQuestions((list) => {
        const current = list[index];
        return current === undefined
          ? list
          : replaceAt(list, index, { ...current, fields: update([...(current.fields ?? [])]) });
      }),
    [setQuestions, index],
  );
  const onMove = (step: number) => setQuestions((list) => moveItem(list, index, step));
  const onRemove = () => setQuestions((list) => removeAt(list, index));
  const set = (patch: Partial<Question>) => onChange({ ...question, ...patch });
  const flag = (key: "required" | "pii", on: boolean) => {
    const next = { ...question };
    if (on) next[key] = true;
    else delete next[key];
    onChange(next);
  };
  const hasChoices = edits(question, "choices");
  const staticText = edits(question, "text");
  const help = edits(question, "help");
  const flags = edits(question, "required") || edits(question, "pii");
  return (
    <fieldset className="designer-question" aria-label={name}>
      <legend>
        {name}: {QUESTION_TYPES.find(([type]) => type === question.type)?.[1] ?? question.type}
      </legend>
      <div className="form-grid">
        <div className="field">
          <label htmlFor={`${id}-type`}>Type</label>
          <select
            id={`${id}-type`}
            value={question.type}
            onChange={(e) => onChange(changeType(question, e.target.value as QuestionType))}
          >
            {QUESTION_TYPES.map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
        </div>
        <TextInput
          label="Field name"
          value={question.fieldName}
          onChange={(fieldName) => set({ fieldName })}
        />
        <div className="field span-2">
          <label htmlFor={`${id}-title`}>{staticText ? "Text" : "Title"}</label>
          <textarea
            id={`${id}-title`}
            rows={staticText ? 3 : 1}
            value={question.title}
            onChange={(e) => set({ title: e.target.value })}
          />
        </div>
        <TranslationField
          label={staticText ? "Contenido (español)" : "Título (español)"}
          multiline={staticText}
          item={question}
          textKey="title"
          onChange={onChange}
        />
        {help ? (
          <div className="field span-2">
            <label htmlFor={`${id}-help`}>Help text</label>
            <input
              id={`${id}-help`}
              type="text"
              value={question.help ?? ""}
              onChange={(e) => {
                const next: Question = { ...question, help: e.target.value };
                if (e.target.value === "") delete next.help;
                onChange(next);
              }}
            />
          </div>
        ) : null}
        {help ? (
          <TranslationField label="Ayuda (español)" item={question} textKey="help" onChange={onChange} />
        ) : null}
        {edits(question, "range") ? (
          <>
            <NumberInput
              label="Minimum"
              value={question.min}
              onChange={(min) => patchNumber(question, "min", min, onChange)}
            />
            <NumberInput
              label="Maximum"
              value={question.max}
              onChange={(max) => patchNumber(question, "max", max, onChange)}
            />
          </>
        ) : null}
      </div>
      {flags ? (
        <div className="designer-flags">
          {!edits(question, "required") ? null : (
            <label>
              <input
                type="checkbox"
                checked={question.required === true}
                onChange={(e) => flag("required", e.target.checked)}
              />{" "}
              Required
            </label>
          )}
          {!edits(question, "pii") ? null : (
            <label>
              <input
                type="checkbox"
                checked={question.pii === true}
                onChange={(e) => flag("pii", e.target.checked)}
              />{" "}
              Protected (PII)
            </label>
          )}
        </div>
      ) : null}
      {hasChoices ? (
        <ChoiceList name={name} choices={question.choices ?? []} onChange={(choices) => set({ choices })} />
      ) : null}
      {edits(question, "fields") ? (
        <div className="designer-nested">
          <h4>Fields of {name.toLowerCase()}</h4>
          <QuestionList label="Field" questions={question.fields ?? []} onChange={setNested} />
        </div>
      ) : null}
      <ConditionList
        legend="Visible when"
        conditions={question.visibleWhen ?? []}
        exclude={question.fieldName}
        onChange={(visibleWhen) => {
          const next: Question = { ...question, visibleWhen };
          if (visibleWhen.length === 0) delete next.visibleWhen;
          onChange(next);
        }}
      />
      <div className="row-actions">
        <button type="button" className="button small" disabled={first} onClick={() => onMove(-1)}>
          Move up
        </button>
        <button type="button" className="button small" disabled={last} onClick={() => onMove(1)}>
          Move down
        </button>
        <RemoveButton
          label={`Remove ${name.toLowerCase()}`}
          what={
            question.title.trim() ? `${name.toLowerCase()} "${question.title.trim()}"` : name.toLowerCase()
          }
          consequence={edits(question, "fields") ? "Its fields go with it." : undefined}
          onRemove={onRemove}
        />
      </div>
    </fieldset>
  );
});

function patchNumber(
  question: Question,
  key: "min" | "max",
  value: number | undefined,
  onChange: (question: Question) => void,
): void {
  const next = { ...question };
  if (value === undefined) delete next[key];
  else next[key] = value;
  onChange(next);
}

function NumberInput(props: {
  label: string;
  value: number | undefined;
  onChange: (value: number | undefined) => void;
}) {
  const id = useId();
  return (
    <div className="field">
      <label htmlFor={id}>{props.label}</label>
      <input
        id={id}
        type="number"
        value={props.value ?? ""}
        onChange={(e) => props.onChange(e.target.value === "" ? undefined : Number(e.target.value))}
      />
    </div>
  );
}

function TextInput(props: {
  label: string;
  value: string;
  lang?: string;
  onChange: (value: string) => void;
}) {
  const id = useId();
  return (
    <div className="field">
      <label htmlFor={id} lang={props.lang}>
        {props.label}
      </label>
      <input
        id={id}
        type="text"
        lang={props.lang}
        value={props.value}
        onChange={(e) => props.onChange(e.target.value)}
      />
    </div>
  );
}

/**
 * A text's translation beside the English one, labelled in Spanish ("Título (español)") as the person
 * translating reads it; empty means none, and patients who read Spanish then see the English text.
 */
export function TranslationField<I extends object>({
  label,
  item,
  textKey,
  onChange,
  multiline = false,
  className = "field span-2",
}: {
  label: string;
  item: I;
  textKey: string;
  onChange: (item: I) => void;
  multiline?: boolean;
  className?: string;
}) {
  const id = useId();
  const value = translationOf(item, textKey);
  const change = (text: string) => onChange(withTranslation(item, textKey, text));
  return (
    <div className={className}>
      <label htmlFor={id} lang={SECOND_LANGUAGE.code}>
        {label}
      </label>
      {multiline ? (
        <textarea
          id={id}
          rows={3}
          lang={SECOND_LANGUAGE.code}
          value={value}
          onChange={(e) => change(e.target.value)}
        />
      ) : (
        <input
          id={id}
          type="text"
          lang={SECOND_LANGUAGE.code}
          value={value}
          onChange={(e) => change(e.target.value)}
        />
      )}
    </div>
  );
}

function ChoiceList({
  name,
  choices,
  onChange,
}: {
  name: string;
  choices: readonly Choice[];
  onChange: (choices: Choice[]) => void;
}) {
  return (
    <fieldset className="designer-choices">
      <legend>Choices</legend>
      {choices.map((choice, index) => (
        <div className="designer-choice" key={index} role="group" aria-label={`Choice ${index + 1}`}>
          <TextInput
            label="Label"
            value={choice.label}
            onChange={(label) => onChange(replaceAt(choices, index, { ...choice, label }))}
          />
          <TextInput
            label="Etiqueta (español)"
            lang={SECOND_LANGUAGE.code}
            value={translationOf(choice, "label")}
            onChange={(label) => onChange(replaceAt(choices, index, withTranslation(choice, "label", label)))}
          />
          <TextInput
            label="Value"
            value={choice.value}
            onChange={(value) => onChange(replaceAt(choices, index, { ...choice, value }))}
          />
          <button
            type="button"
            className="button small"
            aria-label={`Remove choice ${index + 1} of ${name.toLowerCase()}`}
            onClick={() => onChange(removeAt(choices, index))}
          >
            Remove
          </button>
        </div>
      ))}
      <button
        type="button"
        className="button small"
        onClick={() => onChange([...choices, { value: String(choices.length + 1), label: "" }])}
      >
        Add choice
      </button>
    </fieldset>
  );
}
