import { randomBytes } from "node:crypto";
import { and, eq, gt, isNotNull, isNull, lte } from "drizzle-orm";
import type { FastifyBaseLogger } from "fastify";
import {
  checkAnswers,
  objectId,
  pruneHiddenAnswers,
  TELE_AWV_HIDDEN_FIELDS,
  TELE_AWV_SURVEY_ID,
  teleAwvSurvey,
  type Answers,
  type EvalContext,
} from "@core-care/survey-engine";
import type {
  PatientLanguage,
  SendAwvEmailRequest,
  TeleAwvDraft,
  TeleAwvLink,
  TeleAwvSubmitRequest,
  TeleAwvSubmitResponse,
  TenantSettings,
} from "@core-care/schema";
import type { Db } from "../db/index.js";
import { awvInvitations, safetyAlerts, surveyResults, surveys, tenants } from "../db/schema.js";
import { AppError, forbidden, notFound } from "../errors.js";
import type { Mailer } from "./mailer.js";
import { getPatient } from "./patients.js";
import { mailSafetyAlerts, safetyAlertsOf } from "./safety-alerts.js";
import { audit } from "./audit.js";
import { invitationMail } from "./tele-awv-mail.js";
import { hashToken, type InvitationCredential, type SpentInvitation } from "./tele-awv-credential.js";

/** How long an invitation link stays valid. */
export const INVITATION_TTL_MS = 14 * 24 * 60 * 60 * 1000;

/** The refusal of a forged, expired, reused or mismatched link; it never says which, so nothing is probed. */
export const INVALID_INVITATION = "This Tele-AWV link is not valid. Please ask your care team for a new one.";

const invalidInvitation = () => new AppError(403, "INVALID_INVITATION", INVALID_INVITATION);

async function tenantSettings(db: Db, tenantId: string): Promise<TenantSettings | undefined> {
  const [row] = await db.select({ settings: tenants.settings }).from(tenants).where(eq(tenants.id, tenantId));
  return row?.settings;
}

async function tenantOf(db: Db, tenantId: string): Promise<{ name: string; settings: TenantSettings }> {
  const [row] = await db
    .select({ name: tenants.name, settings: tenants.settings })
    .from(tenants)
    .where(eq(tenants.id, tenantId));
  if (row === undefined) throw notFound("Practice");
  return row;
}

const languageOf = (value: string | null | undefined): PatientLanguage => (value === "es" ? "es" : "en");

/**
 * The questionnaire link (SPEC 2): exactly six query pairs in the spec's order, then the token and the
 * tenant's falls question set in the fragment, which browsers never send to a server or a referrer.
 */
export function invitationLink(
  publicUrl: string,
  params: { tenant: string; patientId: string; ptEmail: string; ptS: boolean; ptPY: boolean; pt100: boolean },
  token: string,
  alternateFalls: boolean,
  language: PatientLanguage = "en",
): string {
  const query = [
    ["tenant", params.tenant],
    ["patientId", params.patientId],
    ["ptEmail", params.ptEmail],
    ["ptS", String(params.ptS)],
    ["ptPY", String(params.ptPY)],
    ["pt100", String(params.pt100)],
  ]
    .map(([name, value]) => `${name}=${encodeURIComponent(value as string)}`)
    .join("&");
  return `${publicUrl.replace(/\/+$/, "")}/auth/teleawv?${query}#token=${token}&alternateFalls=${alternateFalls}&lang=${language}`;
}

export interface SendInvitationInput {
  log: FastifyBaseLogger;
  tenantId: string;
  userId: string;
  ip: string;
  request: SendAwvEmailRequest;
  publicUrl: string;
  /** How long the link stays valid; `INVITATION_TTL_MS` unless the configuration says otherwise. */
  ttlMs?: number;
  now?: Date;
}

/**
 * POST /api/auth/sendAWVEmail(2): creates a single-use invitation for a patient of the session's tenant
 * and e-mails its link. Refused for tenants without the Tele-AWV e-mail setting. When the mail cannot be
 * sent the invitation is removed again, so no link exists that nobody received.
 */
export async function sendInvitation(db: Db, mailer: Mailer, input: SendInvitationInput): Promise<string> {
  const { tenantId, request } = input;
  if (request.tenant !== tenantId) throw forbidden();
  const practice = await tenantOf(db, tenantId);
  const settings = practice.settings;
  if (settings.teleAwvEmail !== true) throw forbidden("Tele-AWV e-mail is not enabled for this practice.");
  const patient = await getPatient(db, tenantId, request.ptId);
  // The e-mail, and the questionnaire it opens, in the language kept on the patient's record.
  const language = languageOf(patient.preferredLanguage);

  const token = randomBytes(32).toString("base64url");
  const now = input.now ?? new Date();
  const ttlMs = input.ttlMs ?? INVITATION_TTL_MS;
  const id = objectId();
  await db.insert(awvInvitations).values({
    tenantId,
    id,
    tokenHash: hashToken(token),
    patientId: request.ptId,
    ptEmail: request.ptEmail.trim().toLowerCase(),
    ptS: request.ptS,
    ptPY: request.ptPY,
    pt100: request.pt100,
    createdBy: input.userId,
    createdAt: now,
    expiresAt: new Date(now.getTime() + ttlMs),
    language,
  });

  const params = {
    tenant: tenantId,
    patientId: request.ptId,
    ptEmail: request.ptEmail.trim(),
    ptS: request.ptS,
    ptPY: request.ptPY,
    pt100: request.pt100,
  };
  const linkIn = (lang: PatientLanguage) =>
    invitationLink(input.publicUrl, params, token, settings.alternateFalls, lang);
  const mail = invitationMail(language, {
    practice: practice.name,
    link: linkIn(language),
    otherLink: linkIn(language === "es" ? "en" : "es"),
    days: Math.max(1, Math.round(ttlMs / 86_400_000)),
  });
  try {
    await mailer.send({ to: request.ptEmail.trim(), subject: mail.subject, text: mail.text });
  } catch (cause) {
    await db
      .delete(awvInvitations)
      .where(and(eq(awvInvitations.tenantId, tenantId), eq(awvInvitations.id, id)));
    // Mail errors can quote the recipient's address: log only their code.
    input.log.error(
      { code: (cause as { code?: unknown }).code, invitationId: id },
      "awv invitation mail failed",
    );
    throw new AppError(502, "MAIL_FAILED", "The e-mail could not be sent. Please try again later.");
  }
  await audit(db, {
    tenantId,
    userId: input.userId,
    action: "send",
    entity: "awv-invitation",
    entityId: id,
    ip: input.ip,
  });
  return id;
}

function hiddenFieldAnswers(
  request: TeleAwvSubmitRequest,
  invitation: { ptS: boolean; ptPY: boolean; pt100: boolean },
) {
  return {
    tenant: request.tenant,
    patientId: request.patientId,
    ptEmail: request.ptEmail,
    ptS: String(invitation.ptS),
    ptPY: String(invitation.ptPY),
    pt100: String(invitation.pt100),
  };
}

export interface SubmitInput {
  request: TeleAwvSubmitRequest;
  publicUrl: string;
  ip: string;
  log: FastifyBaseLogger;
  now?: Date;
}

/**
 * POST /api/auth/teleawv (forwarded to sendAWV): accepts the answers only with the valid, unused,
 * unexpired invitation of that tenant, patient and e-mail. In one transaction it stores a submitted
 * result of the Tele-AWV survey, marks the invitation used and opens a safety alert when PHQ-9 item 9 is
 * above 'not at all'; then it e-mails the tenant's safety address. Anything else is refused with nothing
 * stored. The flags and the falls question set come from the invitation and the tenant, not the browser.
 */
export async function submitTeleAwv(
  db: Db,
  mailer: Mailer,
  input: SubmitInput,
): Promise<TeleAwvSubmitResponse> {
  const { request } = input;
  const now = input.now ?? new Date();
  const [invitation] = await db
    .select()
    .from(awvInvitations)
    .where(eq(awvInvitations.tokenHash, hashToken(request.token)))
    .limit(1);
  const matches =
    invitation !== undefined &&
    invitation.tenantId === request.tenant &&
    invitation.patientId === request.patientId &&
    invitation.ptEmail === request.ptEmail.trim().toLowerCase() &&
    invitation.usedAt === null &&
    invitation.expiresAt.getTime() > now.getTime();
  if (!matches) throw invalidInvitation();
  const tenantId = invitation.tenantId;
  const settings = await tenantSettings(db, tenantId);
  const context: EvalContext = {
    answers: { ...request.answers, ...hiddenFieldAnswers(request, invitation) },
    tenant: { id: tenantId, settings: { alternateFalls: settings?.alternateFalls === true } },
  };
  // Every required question that shows, and every answer the questionnaire allows (choices, ranges).
  const issues = checkAnswers(teleAwvSurvey, context.answers, { submit: true, context });
  if (issues.length > 0) {
    throw new AppError(400, "BAD_REQUEST", "Some answers are missing or invalid.", {
      errors: issues.map((issue) => ({ field: issue.field, message: issue.message })),
    });
  }
  const answers: Answers = { ...pruneHiddenAnswers(teleAwvSurvey, context) };
  for (const field of TELE_AWV_HIDDEN_FIELDS) delete answers[field];
  const [survey] = await db
    .select({ version: surveys.version })
    .from(surveys)
    .where(and(eq(surveys.tenantId, tenantId), eq(surveys.id, TELE_AWV_SURVEY_ID)));
  if (survey === undefined) throw notFound("Survey");

  const resultId = objectId();
  const alerts = safetyAlertsOf(answers);
  await db.transaction(async (tx) => {
    // Under concurrent submissions PostgreSQL re-checks `used_at is null` after the first one commits,
    // so exactly one claims the invitation and the others store nothing.
    const claimed = await tx
      .update(awvInvitations)
      // The draft goes in the same commit: once submitted, the link holds nothing of the patient.
      .set({
        usedAt: now,
        resultId,
        draftAnswers: null,
        draftPage: null,
        draftLanguage: null,
        draftSavedAt: null,
      })
      .where(
        and(
          eq(awvInvitations.tenantId, tenantId),
          eq(awvInvitations.id, invitation.id),
          isNull(awvInvitations.usedAt),
          gt(awvInvitations.expiresAt, now),
        ),
      )
      .returning({ id: awvInvitations.id });
    if (claimed.length === 0) throw invalidInvitation();
    await tx.insert(surveyResults).values({
      tenantId,
      id: resultId,
      surveyId: TELE_AWV_SURVEY_ID,
      surveyTenantId: tenantId,
      surveyVersion: survey.version,
      patientId: invitation.patientId,
      clientRequestId: `teleawv-${invitation.id}`,
      answers,
      isSubmitted: true,
      submittedAt: now,
      createdBy: null,
      createdAt: now,
      updatedAt: now,
    });
    if (alerts.length > 0) {
      await tx
        .insert(safetyAlerts)
        .values(
          alerts.map((alert) => ({
            tenantId,
            resultId,
            patientId: invitation.patientId,
            ...alert,
            createdAt: now,
          })),
        )
        .onConflictDoNothing();
    }
    await audit(tx, {
      tenantId,
      userId: null,
      action: "submit",
      entity: "survey-result",
      entityId: resultId,
      ip: input.ip,
    });
  });

  await mailSafetyAlerts(
    { db, mailer, log: input.log, publicUrl: input.publicUrl },
    tenantId,
    resultId,
    alerts,
  );
  return { id: resultId, safetyAlert: alerts.length > 0 };
}

/**
 * GET /api/auth/teleawv/link: what the patient's page opens with. An open link gives the practice, the
 * language of its e-mail and the progress saved so far; a used or expired one only which it is and
 * whom to ask for a new one.
 */
export async function linkState(
  db: Db,
  credential: InvitationCredential | SpentInvitation,
): Promise<TeleAwvLink> {
  const [row] = await db
    .select({
      name: tenants.name,
      language: awvInvitations.language,
      expiresAt: awvInvitations.expiresAt,
      draftAnswers: awvInvitations.draftAnswers,
      draftPage: awvInvitations.draftPage,
      draftLanguage: awvInvitations.draftLanguage,
      draftSavedAt: awvInvitations.draftSavedAt,
    })
    .from(awvInvitations)
    .innerJoin(tenants, eq(tenants.id, awvInvitations.tenantId))
    .where(
      and(eq(awvInvitations.tenantId, credential.tenantId), eq(awvInvitations.id, credential.invitationId)),
    );
  if (row === undefined) throw invalidInvitation();
  const state = "state" in credential ? credential.state : "open";
  const draft =
    state === "open" && row.draftAnswers !== null && row.draftSavedAt !== null
      ? {
          answers: row.draftAnswers,
          pageIndex: row.draftPage ?? 0,
          language: languageOf(row.draftLanguage ?? row.language),
          savedAt: row.draftSavedAt.toISOString(),
        }
      : null;
  return {
    state,
    practice: { name: row.name },
    language: languageOf(row.language),
    expiresAt: row.expiresAt.toISOString(),
    draft,
  };
}

/**
 * PUT /api/auth/teleawv/draft: keeps the patient's progress against their own invitation while it is
 * open. The answers are stored as given (they are checked when submitted); a link used or expired
 * meanwhile stores nothing.
 */
export async function saveDraft(
  db: Db,
  credential: InvitationCredential,
  draft: TeleAwvDraft,
  now = new Date(),
): Promise<string> {
  const saved = await db
    .update(awvInvitations)
    .set({
      draftAnswers: draft.answers,
      draftPage: draft.pageIndex,
      draftLanguage: draft.language,
      draftSavedAt: now,
    })
    .where(
      and(
        eq(awvInvitations.tenantId, credential.tenantId),
        eq(awvInvitations.id, credential.invitationId),
        isNull(awvInvitations.usedAt),
        gt(awvInvitations.expiresAt, now),
      ),
    )
    .returning({ id: awvInvitations.id });
  if (saved.length === 0) throw invalidInvitation();
  return now.toISOString();
}

/** Clears the drafts of links that expired unsubmitted: what a patient typed is not kept past the link. */
export async function purgeExpiredDrafts(db: Db, now = new Date()): Promise<number> {
  const purged = await db
    .update(awvInvitations)
    .set({ draftAnswers: null, draftPage: null, draftLanguage: null, draftSavedAt: null })
    .where(and(isNotNull(awvInvitations.draftAnswers), lte(awvInvitations.expiresAt, now)))
    .returning({ id: awvInvitations.id });
  return purged.length;
}
