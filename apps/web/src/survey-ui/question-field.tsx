import { useState, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import type { TFunction } from "i18next";
import {
  formatPhone,
  getAnswer,
  questionPath,
  selectedValues,
  setAnswer,
  setSelectedValues,
  type Answers,
  type Choice,
  type Question,
  type QuestionType,
} from "@core-care/survey-engine";

/** What every question component needs from the page it sits on. */
export interface FieldContext {
  answers: Answers;
  /** Error messages keyed by the full dotted field path. */
  errors: ReadonlyMap<string, string>;
  /** Prefix that makes element ids unique on the page. */
  idPrefix: string;
  onChange(next: Answers, field: string): void;
}

/** SPEC 5: a phone number is digits only; the hyphens `formatPhone` puts in may stay while it is edited. */
function phoneText(text: string): string {
  return text.replace(/[^0-9-]/g, "");
}

/** The DOM id of the element holding a field's input (or its fieldset). */
export function fieldElementId(idPrefix: string, path: string): string {
  return `${idPrefix}-${path.replace(/[^A-Za-z0-9_-]/g, "_")}`;
}

function describedBy(...ids: (string | false | undefined)[]): string | undefined {
  const list = ids.filter((id): id is string => typeof id === "string");
  return list.length > 0 ? list.join(" ") : undefined;
}

function RequiredMark({ required }: { required: boolean | undefined }) {
  if (!required) return null;
  return (
    <span className="sv-required" aria-hidden="true">
      {" "}
      *
    </span>
  );
}

function ErrorText({ id, message }: { id: string; message: string | undefined }) {
  if (message === undefined) return null;
  return (
    <p className="sv-error" id={id}>
      {message}
    </p>
  );
}

function HelpText({ id, help }: { id: string; help: string | undefined }) {
  if (help === undefined || help === "") return null;
  return (
    <p className="sv-help" id={id}>
      {help}
    </p>
  );
}

function textOf(value: unknown): string {
  if (value === undefined || value === null) return "";
  if (typeof value === "string") return value;
  return typeof value === "number" || typeof value === "boolean" ? String(value) : "";
}

/** Blank text is no answer (SPEC 5: blank values are omitted). */
function textAnswer(text: string): string | undefined {
  return text === "" ? undefined : text;
}

function numberAnswer(text: string): number | string | undefined {
  if (text.trim() === "") return undefined;
  const number = Number(text);
  return Number.isFinite(number) ? number : text;
}

interface InputProps {
  question: Question;
  path: string;
  ctx: FieldContext;
}

/** Keeps what the patient types ("1." on the way to "1.5") while the answer holds a number. */
function NumberInput({
  question,
  path,
  ctx,
  inputProps,
}: InputProps & { inputProps: Record<string, unknown> }) {
  const value = getAnswer(ctx.answers, path);
  const [draft, setDraft] = useState(textOf(value));
  const shown =
    numberAnswer(draft) === value || (draft === "" && value === undefined) ? draft : textOf(value);
  return (
    <input
      {...inputProps}
      type="text"
      inputMode="decimal"
      autoComplete="off"
      value={shown}
      min={question.min}
      max={question.max}
      onChange={(event) => {
        setDraft(event.target.value);
        ctx.onChange(setAnswer(ctx.answers, path, numberAnswer(event.target.value)), path);
      }}
    />
  );
}

/** What the input of a text-like question is drawn from. */
interface ControlProps extends InputProps {
  inputProps: Record<string, unknown>;
  value: string;
  set: (text: string) => void;
  t: TFunction;
}

type Control = (props: ControlProps) => ReactNode;

function TextLikeField({ question, path, ctx, control }: InputProps & { control: Control }) {
  const { t } = useTranslation();
  const id = fieldElementId(ctx.idPrefix, path);
  const error = ctx.errors.get(path);
  const errorId = `${id}-error`;
  const helpId = `${id}-help`;
  const exampleId = `${id}-example`;
  // An example value is shown beside the box, never in it, where it would look like an answer.
  const example = question.placeholder?.trim() ? question.placeholder.trim() : undefined;
  const inputProps = {
    id,
    name: path,
    className: "sv-input",
    "aria-describedby": describedBy(
      error !== undefined && errorId,
      question.help ? helpId : undefined,
      example !== undefined && exampleId,
    ),
    "aria-invalid": error !== undefined ? true : undefined,
    "aria-required": question.required ? true : undefined,
  };
  const value = textOf(getAnswer(ctx.answers, path));
  const set = (text: string) => ctx.onChange(setAnswer(ctx.answers, path, textAnswer(text)), path);

  return (
    <div className={`sv-question${error !== undefined ? " has-error" : ""}`} data-field={path}>
      <label className="sv-title" htmlFor={id}>
        {question.title}
        <RequiredMark required={question.required} />
      </label>
      <ErrorText id={errorId} message={error} />
      <HelpText id={helpId} help={question.help} />
      {example !== undefined ? (
        <p className="sv-help" id={exampleId}>
          {t("runner.example", { example })}
        </p>
      ) : null}
      {control({ question, path, ctx, inputProps, value, set, t })}
    </div>
  );
}

function scaleChoices(question: Question): Choice[] {
  if (question.choices && question.choices.length > 0) return question.choices;
  const min = question.min ?? 0;
  const max = question.max ?? 10;
  const choices: Choice[] = [];
  for (let n = min; n <= max && choices.length <= 100; n++)
    choices.push({ value: String(n), label: String(n) });
  return choices;
}

/** How a choice question offers its choices: several or one, which ones, and whether the answer is a number. */
interface ChoiceOptions {
  multiple: boolean;
  choicesOf: (question: Question, t: TFunction) => Choice[];
  numeric: (question: Question) => boolean;
}

function ChoiceField({
  question,
  path,
  ctx,
  prefix,
  options,
}: InputProps & { prefix: string; options: ChoiceOptions }) {
  const { t } = useTranslation();
  const id = fieldElementId(ctx.idPrefix, path);
  const error = ctx.errors.get(path);
  const errorId = `${id}-error`;
  const helpId = `${id}-help`;
  const { multiple } = options;
  const numericScale = options.numeric(question);
  const choices = options.choicesOf(question, t);
  const selected = selectedValues(question, ctx.answers, prefix);

  const choose = (value: string, checked: boolean) => {
    let next: string[];
    if (!multiple) next = [value];
    else if (!checked) next = selected.filter((v) => v !== value);
    else if (question.noneValue !== undefined && value === question.noneValue) next = [value];
    else next = [...selected.filter((v) => v !== question.noneValue), value];
    const answers = numericScale
      ? setAnswer(ctx.answers, path, Number(next[0]))
      : setSelectedValues(question, ctx.answers, next, prefix);
    ctx.onChange(answers, path);
  };

  return (
    <fieldset
      className={`sv-question sv-choices sv-${question.type}${error !== undefined ? " has-error" : ""}`}
      data-field={path}
      id={id}
      aria-describedby={describedBy(error !== undefined && errorId, question.help ? helpId : undefined)}
      role={multiple ? undefined : "radiogroup"}
      aria-required={!multiple && question.required ? true : undefined}
    >
      <legend className="sv-title">
        {question.title}
        <RequiredMark required={question.required} />
      </legend>
      <ErrorText id={errorId} message={error} />
      <HelpText id={helpId} help={question.help} />
      <div className="sv-options">
        {choices.map((choice, index) => {
          const checked = selected.includes(choice.value);
          return (
            <label key={choice.value} className={`sv-option${checked ? " is-checked" : ""}`}>
              <input
                type={multiple ? "checkbox" : "radio"}
                name={path}
                id={`${id}-${index}`}
                value={choice.value}
                checked={checked}
                aria-invalid={error !== undefined ? true : undefined}
                onChange={(event) => choose(choice.value, event.target.checked)}
              />
              <span>{choice.label}</span>
            </label>
          );
        })}
      </div>
    </fieldset>
  );
}

function GroupField({ question, path, ctx }: InputProps) {
  const id = fieldElementId(ctx.idPrefix, path);
  const helpId = `${id}-help`;
  return (
    <fieldset
      className="sv-question sv-group"
      data-field={path}
      id={id}
      aria-describedby={question.help ? helpId : undefined}
    >
      <legend className="sv-title">{question.title}</legend>
      <HelpText id={helpId} help={question.help} />
      {(question.fields ?? []).map((field) => (
        <QuestionField key={field.id} question={field} prefix={path} ctx={ctx} />
      ))}
    </fieldset>
  );
}

/** What a renderer is given: the question, its full path, its group's prefix and the page. */
interface RendererProps extends InputProps {
  prefix: string;
}

/** Draws one question of its type. */
export type QuestionRenderer = (props: RendererProps) => ReactNode;

const textLike =
  (control: Control): QuestionRenderer =>
  ({ question, path, ctx }) => <TextLikeField question={question} path={path} ctx={ctx} control={control} />;

const plainText: Control = ({ inputProps, value, set }) => (
  <input {...inputProps} type="text" autoComplete="off" value={value} onChange={(e) => set(e.target.value)} />
);

const ownChoices = (question: Question) => question.choices ?? [];
const never = () => false;

const choice =
  (options: ChoiceOptions): QuestionRenderer =>
  ({ question, path, ctx, prefix }) => (
    <ChoiceField question={question} path={path} ctx={ctx} prefix={prefix} options={options} />
  );

/**
 * The renderer of every question type, in one registry: a type the engine describes
 * (QUESTION_TYPE_DESCRIPTORS) is drawn by its entry here.
 */
export const QUESTION_RENDERERS: Readonly<Record<QuestionType, QuestionRenderer>> = {
  text: textLike(plainText),
  textarea: textLike(({ inputProps, value, set }) => (
    <textarea {...inputProps} rows={4} value={value} onChange={(e) => set(e.target.value)} />
  )),
  number: textLike(({ question, path, ctx, inputProps }) => (
    <NumberInput question={question} path={path} ctx={ctx} inputProps={inputProps} />
  )),
  date: textLike(({ question, inputProps, value, set }) => (
    <input
      {...inputProps}
      type="date"
      value={value}
      min={question.min === undefined ? undefined : String(question.min)}
      onChange={(e) => set(e.target.value)}
    />
  )),
  phone: textLike(({ inputProps, value, set }) => (
    <input
      {...inputProps}
      type="tel"
      inputMode="numeric"
      autoComplete="off"
      value={value}
      onChange={(e) => set(phoneText(e.target.value))}
      onBlur={(e) => {
        const formatted = formatPhone(e.target.value);
        if (formatted !== e.target.value) set(formatted);
      }}
    />
  )),
  email: textLike(({ inputProps, value, set }) => (
    <input
      {...inputProps}
      type="email"
      inputMode="email"
      autoComplete="off"
      value={value}
      onChange={(e) => set(e.target.value)}
    />
  )),
  select: textLike(({ question, inputProps, value, set, t }) => (
    <select {...inputProps} value={value} onChange={(e) => set(e.target.value)}>
      <option value="">{t("runner.choose")}</option>
      {(question.choices ?? []).map((option) => (
        <option key={option.value} value={option.value}>
          {option.label}
        </option>
      ))}
    </select>
  )),
  radio: choice({ multiple: false, choicesOf: ownChoices, numeric: never }),
  checkbox: choice({ multiple: true, choicesOf: ownChoices, numeric: never }),
  yesno: choice({
    multiple: false,
    choicesOf: (question, t) =>
      question.choices && question.choices.length > 0
        ? question.choices
        : [
            { value: "yes", label: t("runner.yes") },
            { value: "no", label: t("runner.no") },
          ],
    numeric: never,
  }),
  scale: choice({
    multiple: false,
    choicesOf: scaleChoices,
    numeric: (question) => !(question.choices && question.choices.length > 0),
  }),
  group: ({ question, path, ctx }) => <GroupField question={question} path={path} ctx={ctx} />,
  html: ({ question, path }) => (
    <div className="sv-question sv-static" data-field={path}>
      {question.title.split(/\n{2,}/).map((paragraph, index) => (
        <p key={index}>{paragraph}</p>
      ))}
      {question.help ? <p className="sv-help">{question.help}</p> : null}
    </div>
  ),
};

/**
 * One question of any type, with its label or legend, the inline error under the title
 * (SPEC 2, 5) and large touch targets. Designer text is shown as text, never as markup. A type
 * without a renderer (a survey stored by a newer designer) shows nothing.
 */
export function QuestionField({
  question,
  prefix = "",
  ctx,
}: {
  question: Question;
  prefix?: string;
  ctx: FieldContext;
}) {
  const path = questionPath(question, prefix);
  if (!Object.hasOwn(QUESTION_RENDERERS, question.type)) return null;
  return QUESTION_RENDERERS[question.type]({ question, path, prefix, ctx });
}
