import { useEffect, useId, useState } from "react";
import { sortSurveys } from "@core-care/survey-engine";
import { api } from "../api/client";
import type { ListResponse, SurveySummary } from "../api/types";

/** Ethnicity choices (SPEC 3). */
export const ETHNICITIES = ["Hispanic or Latino", "Non Hispanic or Latino", "Other or Undetermined"] as const;

/** Race choices (SPEC 3). */
export const RACES = [
  "Hispanic",
  "Asian",
  "Caucasian",
  "African American",
  "Black or African American",
  "American Indian or Alaska Native",
  "Native American",
  "Other",
  "Undetermined",
  "Chinese",
  "Filipino",
  "Japanese",
  "Native Hawaiian",
  "Multiracial",
  "Pacific Islander",
] as const;

/** US states, DC and territories with their names (SPEC 3). */
export const US_STATES: readonly (readonly [code: string, name: string])[] = [
  ["AL", "Alabama"], ["AK", "Alaska"], ["AS", "American Samoa"], ["AZ", "Arizona"], ["AR", "Arkansas"],
  ["CA", "California"], ["CO", "Colorado"], ["CT", "Connecticut"], ["DE", "Delaware"],
  ["DC", "District of Columbia"], ["FL", "Florida"], ["GA", "Georgia"], ["GU", "Guam"], ["HI", "Hawaii"],
  ["ID", "Idaho"], ["IL", "Illinois"], ["IN", "Indiana"], ["IA", "Iowa"], ["KS", "Kansas"], ["KY", "Kentucky"],
  ["LA", "Louisiana"], ["ME", "Maine"], ["MH", "Marshall Islands"], ["MD", "Maryland"], ["MA", "Massachusetts"],
  ["MI", "Michigan"], ["MN", "Minnesota"], ["MS", "Mississippi"], ["MO", "Missouri"], ["MT", "Montana"],
  ["NE", "Nebraska"], ["NV", "Nevada"], ["NH", "New Hampshire"], ["NJ", "New Jersey"], ["NM", "New Mexico"],
  ["NY", "New York"], ["NC", "North Carolina"], ["ND", "North Dakota"], ["MP", "Northern Mariana Islands"],
  ["OH", "Ohio"], ["OK", "Oklahoma"], ["OR", "Oregon"], ["PW", "Palau"], ["PA", "Pennsylvania"],
  ["PR", "Puerto Rico"], ["RI", "Rhode Island"], ["SC", "South Carolina"], ["SD", "South Dakota"],
  ["TN", "Tennessee"], ["TX", "Texas"], ["UT", "Utah"], ["VT", "Vermont"], ["VI", "U.S. Virgin Islands"],
  ["VA", "Virginia"], ["WA", "Washington"], ["WV", "West Virginia"], ["WI", "Wisconsin"], ["WY", "Wyoming"],
]; // prettier-ignore

interface SelectFieldProps {
  label: string;
  name: string;
  options: readonly (readonly [value: string, label: string])[];
  defaultValue?: string;
  value?: string;
  onChange?: (value: string) => void;
  required?: boolean;
  /** The empty first choice; false for none. */
  placeholder?: string | false;
  multiple?: boolean;
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
        defaultValue={rest.value === undefined ? (rest.defaultValue ?? "") : undefined}
        value={rest.value}
        onChange={rest.onChange ? (e) => rest.onChange?.(e.target.value) : undefined}
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
