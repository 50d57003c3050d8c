/** SPEC 9: idle timeout when the server's configuration cannot be read. */
export const DEFAULT_IDLE_SECONDS = 1440;

/** SPEC 4: the login page's message after the idle timeout. */
export const TIMEOUT_MESSAGE = "Your session has timed out due to inactivity.";

/** The runner's URL for a 0-based page index (SPEC 2: page numbers are 1-based). */
export function surveyPageUrl(surveyId: string, pageIndex: number): string {
  return `/tablet/patient-survey/${encodeURIComponent(surveyId)}/pg/${pageIndex + 1}`;
}
