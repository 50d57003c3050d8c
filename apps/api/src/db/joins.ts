import { and, eq } from "drizzle-orm";
import { patients, surveyResults, surveyVersions } from "./schema.js";

/** A result's patient: the patient of that id in the result's own tenant. */
export const resultPatient = and(
  eq(patients.tenantId, surveyResults.tenantId),
  eq(patients.id, surveyResults.patientId),
)!;

/**
 * The survey version a result answers, in the survey's own tenant (a built-in survey belongs to the
 * system's tenant, not the result's).
 */
export const resultSurveyVersion = and(
  eq(surveyVersions.tenantId, surveyResults.surveyTenantId),
  eq(surveyVersions.surveyId, surveyResults.surveyId),
  eq(surveyVersions.version, surveyResults.surveyVersion),
)!;
