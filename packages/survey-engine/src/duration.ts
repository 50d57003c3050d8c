/** The result-list duration filters of SPEC 3. */
export const DURATION_FILTERS = [
  { value: 0, name: "Yesterday", label: "Since Yesterday" },
  { value: 1, name: "Today", label: "Today" },
  { value: 5, name: "All", label: "All" },
] as const;

/** A duration filter value: Yesterday 0, Today 1, All 5. */
export type DurationFilter = (typeof DURATION_FILTERS)[number]["value"];

/**
 * The earliest moment a duration filter includes: Today from the start of the current UTC day, Yesterday
 * one day earlier, All 100 years earlier than the start of today.
 */
export function durationStart(filter: DurationFilter, now: Date): Date {
  const start = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
  switch (filter) {
    case 0:
      start.setUTCDate(start.getUTCDate() - 1);
      return start;
    case 1:
      return start;
    case 5:
      start.setUTCFullYear(start.getUTCFullYear() - 100);
      return start;
  }
}
