import { createContext, useContext, useId, useState } from "react";
import {
  CONDITION_ACTIONS,
  createCondition,
  normalizeAction,
  type Condition,
  type JoinType,
} from "@core-care/survey-engine";
import { conditionText, conditionValue, removeAt, replaceAt, type FieldOption } from "./survey-fields";

/**
 * The fields a condition may read (the survey's answer paths and the globals), given to every condition
 * editor of a designer. A context, not a prop: a title typed anywhere changes the list, and only the
 * editors that show conditions read it, so the other questions' editors need not render again.
 */
export const FieldOptionsContext = createContext<readonly FieldOption[]>([]);

/** Props of {@link ConditionList}. */
export interface ConditionListProps {
  legend: string;
  conditions: readonly Condition[];
  /** A field the conditions may not read (the question's own). */
  exclude?: string;
  onChange: (conditions: Condition[]) => void;
}

/**
 * Edits a list of conditions (SPEC 3, 4): the field from the survey's fields and the globals, the
 * action from the engine's one list (so the designer and the evaluator agree), the value, and how it
 * joins the condition before it.
 */
export function ConditionList({ legend, conditions, exclude, onChange }: ConditionListProps) {
  return (
    <fieldset className="designer-conditions">
      <legend>{legend}</legend>
      {conditions.length === 0 ? (
        <p className="hint">No conditions: always shown.</p>
      ) : (
        <ConditionRows legend={legend} conditions={conditions} exclude={exclude} onChange={onChange} />
      )}
      <button
        type="button"
        className="button small"
        onClick={() => onChange([...conditions, createCondition()])}
      >
        Add condition
      </button>
    </fieldset>
  );
}

function ConditionRows({ legend, conditions, exclude, onChange }: ConditionListProps) {
  const id = useId();
  const all = useContext(FieldOptionsContext);
  const fields = exclude === undefined ? all : all.filter((f) => f.path !== exclude);
  return conditions.map((condition, index) => {
    const prefix = `${id}-${index}`;
    const action = normalizeAction(condition.action) ?? "Equals";
    const field = fields.find((f) => f.path === condition.fieldName);
    const kind = field?.kind;
    const choices = field?.choices;
    const known = fields.some((f) => f.path === condition.fieldName);
    const set = (patch: Partial<Condition>) =>
      onChange(replaceAt(conditions, index, { ...condition, ...patch }));
    return (
      <div className="designer-condition" key={index} role="group" aria-label={`${legend} ${index + 1}`}>
        {index > 0 ? (
          <div className="field">
            <label htmlFor={`${prefix}-join`}>Join</label>
            <select
              id={`${prefix}-join`}
              value={condition.joinType ?? "and"}
              onChange={(e) => set({ joinType: e.target.value as JoinType })}
            >
              <option value="and">and</option>
              <option value="or">or</option>
            </select>
          </div>
        ) : null}
        <div className="field">
          <label htmlFor={`${prefix}-field`}>Field</label>
          <select
            id={`${prefix}-field`}
            value={condition.fieldName}
            onChange={(e) => {
              const nextKind = fields.find((f) => f.path === e.target.value)?.kind;
              set({
                fieldName: e.target.value,
                fieldValue: conditionValue(conditionText(condition.fieldValue), action, nextKind),
              });
            }}
          >
            <option value="">Choose a field</option>
            {!known && condition.fieldName !== "" ? (
              <option value={condition.fieldName}>{condition.fieldName}</option>
            ) : null}
            {fields.map((field) => (
              <option key={field.path} value={field.path}>
                {field.label}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor={`${prefix}-action`}>Action</label>
          <select
            id={`${prefix}-action`}
            value={action}
            onChange={(e) =>
              set({
                action: e.target.value,
                fieldValue: conditionValue(conditionText(condition.fieldValue), e.target.value, kind),
              })
            }
          >
            {CONDITION_ACTIONS.map((name) => (
              <option key={name} value={name}>
                {name}
              </option>
            ))}
          </select>
        </div>
        {action === "Has Response" ? null : (
          <div className="field">
            <label htmlFor={`${prefix}-value`}>
              {action === "One Of" ? "Values (comma separated)" : "Value"}
            </label>
            {choices !== undefined && action !== "One Of" ? (
              <ChoiceValueSelect
                id={`${prefix}-value`}
                value={condition.fieldValue}
                choices={choices}
                onCommit={(fieldValue) => set({ fieldValue })}
              />
            ) : (
              <ValueInput
                id={`${prefix}-value`}
                value={condition.fieldValue}
                parse={(text) => conditionValue(text, action, kind)}
                onCommit={(fieldValue) => set({ fieldValue })}
              />
            )}
          </div>
        )}
        <button
          type="button"
          className="button small"
          aria-label={`Remove ${legend.toLowerCase()} ${index + 1}`}
          onClick={() => onChange(removeAt(conditions, index))}
        >
          Remove
        </button>
      </div>
    );
  });
}

/** A value input that keeps what is typed (a trailing comma, '1.') while storing the parsed value. */
function ValueInput(props: {
  id: string;
  value: unknown;
  parse: (text: string) => unknown;
  onCommit: (value: unknown) => void;
}) {
  const [text, setText] = useState(() => conditionText(props.value));
  const shown =
    JSON.stringify(props.parse(text)) === JSON.stringify(props.value) ? text : conditionText(props.value);
  return (
    <input
      id={props.id}
      type="text"
      value={shown}
      onChange={(e) => {
        setText(e.target.value);
        props.onCommit(props.parse(e.target.value));
      }}
    />
  );
}

/**
 * A choice value as an option's value: a text as it is (what people and tests pick it by), a number or
 * a boolean with its type before it, so 1 and "1" stay apart.
 */
function choiceKey(value: unknown): string {
  if (typeof value === "string") return /^(number|boolean|string):/.test(value) ? `string:${value}` : value;
  if (typeof value === "number" || typeof value === "boolean") return `${typeof value}:${String(value)}`;
  return JSON.stringify(value) ?? "";
}

/**
 * The value of a condition on a field with choices, picked from them: the stored value is the choice's
 * own (a number stays a number), since conditions compare strictly. A value no choice holds any more
 * stays listed, so opening a survey never changes its conditions.
 */
function ChoiceValueSelect(props: {
  id: string;
  value: unknown;
  choices: NonNullable<FieldOption["choices"]>;
  onCommit: (value: unknown) => void;
}) {
  const key = choiceKey;
  const current = key(props.value);
  const known = props.choices.some((choice) => key(choice.value) === current);
  const blank = props.value === undefined || props.value === "";
  return (
    <select
      id={props.id}
      value={blank ? "" : current}
      onChange={(e) => {
        const chosen = props.choices.find((choice) => key(choice.value) === e.target.value);
        props.onCommit(chosen === undefined ? "" : chosen.value);
      }}
    >
      <option value="">Choose a value</option>
      {!known && !blank ? <option value={current}>{conditionText(props.value)}</option> : null}
      {props.choices.map((choice) => (
        <option key={key(choice.value)} value={key(choice.value)}>
          {choice.label.trim() === "" || choice.label === String(choice.value)
            ? String(choice.value)
            : `${choice.label} (${String(choice.value)})`}
        </option>
      ))}
    </select>
  );
}
