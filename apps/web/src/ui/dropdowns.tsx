import { useEffect, useId, useState } from "react";
import { ETHNICITIES, RACES, US_STATE_NAMES as US_STATES } from "@core-care/schema/lists";
import { sortSurveys } from "@core-care/survey-engine";
import { api } from "../api/client";
import type { ListResponse, SurveySummary } from "../api/types";

interface SelectFieldProps {
  label: string;
  name: string;
  options: readonly (readonly [value: string, label: string])[];
  /** The choice, or with `multiple` the choices (a single string is one choice, '' none). */
  defaultValue?: string | readonly string[];
  value?: string | readonly string[];
  /** `value` is the first choice ('' for none); `values` every choice in option order. */
  onChange?: (value: string, values: string[]) => void;
  required?: boolean;
  /** The empty first choice; false for none. */
  placeholder?: string | false;
  /** A multi-select: several choices, no placeholder option. */
  multiple?: boolean;
}

/** A choice as a `<select>` takes it: an array for a multi-select, else one string. */
function selectValue(choice: string | readonly string[], multiple: boolean | undefined) {
  if (multiple) return typeof choice === "string" ? (choice === "" ? [] : [choice]) : choice;
  return typeof choice === "string" ? choice : (choice[0] ?? "");
}

/** A labelled select. */
export function SelectField({
  label,
  name,
  options,
  placeholder = "Choose...",
  multiple,
  ...rest
}: SelectFieldProps) {
  const id = useId();
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <select
        id={id}
        name={name}
        multiple={multiple}
        required={rest.required}
        defaultValue={rest.value === undefined ? selectValue(rest.defaultValue ?? "", multiple) : undefined}
        value={rest.value === undefined ? undefined : selectValue(rest.value, multiple)}
        onChange={
          rest.onChange
            ? (e) =>
                rest.onChange?.(
                  e.target.value,
                  Array.from(e.target.selectedOptions, (option) => option.value),
                )
            : undefined
        }
      >
        {!multiple && placeholder !== false && <option value="">{placeholder}</option>}
        {options.map(([value, text]) => (
          <option key={value} value={value}>
            {text}
          </option>
        ))}
      </select>
    </div>
  );
}

const pairs = (list: readonly string[]) => list.map((v) => [v, v] as const);

/** The ethnicity dropdown. */
export function EthnicitySelect(props: Omit<SelectFieldProps, "options" | "label">) {
  return <SelectField label="Ethnicity" {...props} options={pairs(ETHNICITIES)} />;
}

/** The race dropdown. */
export function RaceSelect(props: Omit<SelectFieldProps, "options" | "label">) {
  return <SelectField label="Race" {...props} options={pairs(RACES)} />;
}

/** The US state dropdown (states, DC and territories). */
export function StateSelect(props: Omit<SelectFieldProps, "options" | "label">) {
  return (
    <SelectField
      label="State"
      {...props}
      options={US_STATES.map(([code, name]) => [code, `${name} (${code})`])}
    />
  );
}

/** The surveys of the tenant ordered by `sortSurveys` (SPEC 2), loaded once per mount. */
export function useSurveys(enabled = true): SurveySummary[] | null {
  const [surveys, setSurveys] = useState<SurveySummary[] | null>(null);
  useEffect(() => {
    if (!enabled) return;
    let live = true;
    void api.get<ListResponse<SurveySummary>>("/api/surveys").then(
      (list) => live && setSurveys(sortSurveys(list.items)),
      () => live && setSurveys([]),
    );
    return () => {
      live = false;
    };
  }, [enabled]);
  return surveys;
}

/** The survey dropdown, ordered with 'Core Care Wellness Exam' first (SPEC 2); multi-select optional. */
export function SurveySelect({
  surveys: given,
  ...props
}: Omit<SelectFieldProps, "options" | "label"> & { label?: string; surveys?: SurveySummary[] | null }) {
  const loaded = useSurveys(given === undefined);
  const surveys = given ?? loaded;
  return (
    <SelectField
      label={props.label ?? "Survey"}
      {...props}
      placeholder={surveys ? (props.placeholder ?? "All surveys") : "Loading..."}
      options={(surveys ?? []).map((s) => [s.id, s.title])}
    />
  );
}

export { ETHNICITIES, RACES, US_STATES };
