import { SelectField } from "../../ui/dropdowns";

/** Duration filters of the results lists (SPEC 3). */
export const DURATIONS = [
  [0, "Since Yesterday"],
  [1, "Today"],
  [5, "All"],
] as const;

/** The duration filter dropdown. */
export function DurationSelect({
  value,
  onChange,
}: {
  value: 0 | 1 | 5;
  onChange: (value: 0 | 1 | 5) => void;
}) {
  return (
    <SelectField
      label="Duration"
      name="duration"
      value={String(value)}
      placeholder={false}
      onChange={(v) => onChange(v === "1" ? 1 : v === "5" ? 5 : 0)}
      options={DURATIONS.map(([v, label]) => [String(v), label])}
    />
  );
}
