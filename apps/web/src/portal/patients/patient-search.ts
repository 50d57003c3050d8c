import { api } from "../../api/client";
import type { ListResponse, Patient } from "../../api/types";
import { createSuggestionSource, suggestionUrl, TYPEAHEAD } from "../../ui/suggestion-source";

/** The patient typeahead's remote URL, {query} standing for the typed text (SPEC 7, 9). */
export const PATIENT_SUGGESTIONS_URL = `/api/patients?q={query}&limit=${TYPEAHEAD.limit}`;

/** The patient typeahead's source: GET /api/patients?q=&limit=5, cached and capped (SPEC 7, 9). */
export const patientSuggestions = createSuggestionSource<Patient>({
  fetch: (q) =>
    api
      .get<ListResponse<Patient>>(suggestionUrl(PATIENT_SUGGESTIONS_URL, q), { handleErrors: true })
      .then((list) => list.items),
});

/** "Last, First (MRN)" as shown in lists and suggestions. */
export function patientLabel(patient: Pick<Patient, "firstName" | "lastName" | "mrn">): string {
  return `${patient.lastName}, ${patient.firstName} (${patient.mrn})`;
}
