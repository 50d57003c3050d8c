import type { PatientLanguage } from "@core-care/schema";
import {
  ALTERNATE_FALLS_TENANT_IDS,
  describeQuestion,
  parseTeleAwvQuery,
  pruneHiddenAnswers,
  shouldDisplayPage,
  visibleQuestions,
  TELE_AWV_HIDDEN_FIELDS,
  teleAwvSurvey,
  type Answers,
  type EvalContext,
  type TeleAwvParams,
} from "@core-care/survey-engine";

/** SPEC 2: the alert when the link lacks patientId, tenant or ptEmail (two spaces after the first sentence). */
export const TELE_AWV_LINK_ERROR =
  "An error has occurred.  Please try loading this page from the email you were sent.";

/** SPEC 8: the alert of a failed Tele-AWV submission or invitation e-mail. */
export const TELE_AWV_ERROR = "An error has occurred.";

/** SPEC 2: the text of /auth/teleawv/complete. */
export const TELE_AWV_COMPLETE_TEXT =
  "Thank you for using Core Care to complete your Annual Wellness Visit. You may now close this browser.";

/** SPEC 7: the alert after the invitation e-mail was sent. */
export const AWV_EMAIL_SENT = "An email with a link to the Tele-AWV has been sent to the patient.";

const REQUIRED_PARAMS = ["patientId", "tenant", "ptEmail"] as const;

/** SPEC 2: the questionnaire needs the query parameters patientId, tenant and ptEmail, none blank. */
export function hasRequiredParams(search: string): boolean {
  const query = new URLSearchParams(search);
  return REQUIRED_PARAMS.every((name) => (query.get(name) ?? "").trim() !== "");
}

/** What the link's fragment carries: the invitation token and, optionally, the tenant's falls question set. */
export interface LinkFragment {
  token: string;
  alternateFalls: boolean | undefined;
  /** The language the e-mail's link opens the questionnaire in, when it says. */
  language: PatientLanguage | undefined;
}

/**
 * Reads `#token=…&alternateFalls=true|false`. The token travels in the fragment so that it never reaches
 * server logs or referrers, and the query keeps exactly the six pairs of SPEC 2.
 */
export function readFragment(hash: string): LinkFragment {
  const params = new URLSearchParams(hash.startsWith("#") ? hash.slice(1) : hash);
  const falls = params.get("alternateFalls");
  const lang = params.get("lang");
  return {
    token: params.get("token") ?? "",
    alternateFalls: falls === "true" ? true : falls === "false" ? false : undefined,
    language: lang === "en" || lang === "es" ? lang : undefined,
  };
}

/** The six hidden fields (SPEC 2), filled only when the query has exactly six pairs; blank otherwise. */
export function hiddenFields(search: string): TeleAwvParams {
  return (
    parseTeleAwvQuery(search) ?? {
      tenant: "",
      patientId: "",
      ptEmail: "",
      ptS: "",
      ptPY: "",
      pt100: "",
    }
  );
}

/** The globals and hidden fields the questionnaire's conditions read, around the patient's answers. */
export function questionnaireContext(
  hidden: TeleAwvParams,
  alternateFalls: boolean | undefined,
  answers: Answers,
): EvalContext {
  // Links from before the fragment carried the setting fall back to the spec's tenant list (SPEC 9).
  const falls = alternateFalls ?? ALTERNATE_FALLS_TENANT_IDS.includes(hidden.tenant);
  return {
    answers: { ...answers, ...hidden },
    tenant: { id: hidden.tenant, settings: { alternateFalls: falls } },
  };
}

/** The body of POST /api/auth/teleawv (docs/api.md). */
export interface TeleAwvSubmission extends TeleAwvParams {
  token: string;
  answers: Answers;
}

/**
 * The submission: the hidden fields and the token at the top, then the answers without those of hidden
 * questions (SPEC 4: inputs inside a hidden section are not submitted) and without the hidden fields.
 */
export function buildSubmission(
  context: EvalContext,
  hidden: TeleAwvParams,
  token: string,
): TeleAwvSubmission {
  const pruned: Answers = { ...pruneHiddenAnswers(teleAwvSurvey, context) };
  for (const field of TELE_AWV_HIDDEN_FIELDS) delete pruned[field];
  return { ...hidden, token, answers: pruned };
}

/** About how long a patient takes over one question, for the time estimate. */
const SECONDS_PER_QUESTION = 10;

/**
 * About how many minutes the steps from `pageIndex` on take with the answers so far (the questions that
 * show on each step that shows), at least 1.
 */
export function minutesLeft(context: EvalContext, pageIndex: number): number {
  let questions = 0;
  teleAwvSurvey.pages.forEach((page, index) => {
    if (index < pageIndex || !shouldDisplayPage(page, context)) return;
    questions += visibleQuestions(page, context).filter(
      (question) => describeQuestion(question).answer !== "none",
    ).length;
  });
  return Math.max(1, Math.ceil((questions * SECONDS_PER_QUESTION) / 60));
}
