/**
 * FHIR R4 (4.0.1) code systems and identifier namespaces.
 *
 * Source: FHIR R4 terminology (http://hl7.org/fhir/R4/terminologies-systems.html) for LOINC and
 * SNOMED CT; the QuestionnaireResponse status and item types are from the R4 value sets
 * questionnaire-answers-status and item-type, checked by `fhir.test.ts` against
 * shared/standards/fhir/fhir.schema.json.
 */
import { LOINC_URI } from "./loinc.js";
import { SNOMED_URI } from "./snomed.js";

export const SYSTEM_URI = { LN: LOINC_URI, SCT: SNOMED_URI } as const;

/** URNs for our own identifiers; a tenant's results and surveys are unique within the tenant. */
export const CORE_CARE_URN = {
  survey: (surveyId: string) => `urn:core-care:survey:${surveyId}`,
  result: (tenantId: string) => `urn:core-care:tenant:${tenantId}:result`,
} as const;

export type QuestionnaireItemType =
  | "group"
  | "choice"
  | "open-choice"
  | "decimal"
  | "integer"
  | "string"
  | "text"
  | "boolean"
  | "date"
  | "dateTime";
