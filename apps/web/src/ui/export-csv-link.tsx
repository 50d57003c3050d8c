/** The filters of each list that has a CSV export, as its list call takes them (docs/api.md). */
export interface ExportFilters {
  results: { duration?: 0 | 1 | 5; patientId?: string | undefined; surveyId?: string | undefined };
  patients: { q?: string | undefined; sort?: string | undefined; order?: "asc" | "desc" | undefined };
  deliveries: { status?: string | undefined };
}

const EXPORT_PATHS: Record<keyof ExportFilters, string> = {
  results: "/api/surveyresults/export",
  patients: "/api/patients/export",
  deliveries: "/api/deliveries/export",
};

const WHAT: Record<keyof ExportFilters, string> = {
  results: "survey results",
  patients: "patients",
  deliveries: "deliveries",
};

/** The export's address: the list's path with the filters that are set. */
export function exportUrl<L extends keyof ExportFilters>(list: L, filters: ExportFilters[L]): string {
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(filters)) {
    if (value !== undefined && value !== "") query.set(key, String(value));
  }
  const search = query.toString();
  return search === "" ? EXPORT_PATHS[list] : `${EXPORT_PATHS[list]}?${search}`;
}

/**
 * "Export CSV": downloads the rows a list's filters select (every page, not only the one shown) as a
 * spreadsheet file; the server writes any cell a spreadsheet would run as a formula as text.
 */
export function ExportCsvLink<L extends keyof ExportFilters>({
  list,
  filters,
  label,
}: {
  list: L;
  filters: ExportFilters[L];
  /** What the rows are, for a screen reader ("survey results of Walter Hobbs"); the list's name otherwise. */
  label?: string;
}) {
  return (
    <a className="button" href={exportUrl(list, filters)} download>
      Export CSV<span className="visually-hidden"> of {label ?? WHAT[list]}</span>
    </a>
  );
}
