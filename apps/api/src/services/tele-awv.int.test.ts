import Fastify from "fastify";
import type { ParsedMail } from "mailparser";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "vitest";
import {
  getAnswer,
  isQuestionVisible,
  setAnswer,
  setSelectedValues,
  TELE_AWV_SURVEY_ID,
  teleAwvSurvey,
  type Answers,
  type EvalContext,
} from "@core-care/survey-engine";
import { TeleAwvSubmitRequestSchema, type TenantSettings } from "@core-care/schema";
import { createTestDatabase, createTestTenant, testConfig } from "../../test/helpers.js";
import { startSmtpPeer } from "../../test/mail.js";
import type { Database, Db } from "../db/index.js";
import { awvInvitations, safetyAlerts, surveyResults, tenants } from "../db/schema.js";
import { AppError } from "../errors.js";
import { createMailer, type Mailer } from "./mailer.js";
import { createPatient } from "./patients.js";
import { SELF_HARM_ALERT_KIND } from "./safety-alerts.js";
import {
  INVITATION_TTL_MS,
  linkState,
  purgeExpiredDrafts,
  saveDraft,
  sendInvitation,
  submitTeleAwv,
  type SubmitInput,
} from "./tele-awv.js";
import { hashToken } from "./tele-awv-credential.js";
import { findInvitationCredential, resolveInvitationToken } from "./tele-awv-credential.js";

const PUBLIC_URL = "http://127.0.0.1:4173";
const log = Fastify({ logger: false }).log;

// A real SMTP server on 127.0.0.1 receives every message the mailer sends.
let smtp: Awaited<ReturnType<typeof startSmtpPeer>>;
let inbox: ParsedMail[] = [];
let database: Database;
let db: Db;
let mailer: Mailer;

beforeAll(async () => {
  smtp = await startSmtpPeer();
  inbox = smtp.messages;
  mailer = createMailer(testConfig({ smtpUrl: `${smtp.url}?ignoreTLS=true` }), log);
  database = await createTestDatabase();
  db = database.db;
});
afterAll(async () => {
  await database.close();
  await smtp.close();
});
beforeEach(() => {
  inbox.length = 0;
});

async function practice(
  settings: Partial<TenantSettings> = { teleAwvEmail: true },
  preferredLanguage?: "en" | "es",
) {
  const staff = await createTestTenant(db, { settings });
  const patient = await createPatient(db, staff.tenantId, {
    mrn: `M${Date.now()}`,
    firstName: "Pat",
    lastName: "Example",
    dob: "1950-02-03",
    sex: "F",
    email: "pat@example.org",
    ...(preferredLanguage === undefined ? {} : { preferredLanguage }),
  });
  return { staff, patient };
}

type Practice = Awaited<ReturnType<typeof practice>>;

async function invite(p: Practice, flags = { ptS: true, ptPY: true, pt100: true }) {
  await sendInvitation(db, mailer, {
    log,
    tenantId: p.staff.tenantId,
    userId: p.staff.userId,
    ip: "127.0.0.1",
    publicUrl: PUBLIC_URL,
    request: { ptEmail: "pat@example.org", tenant: p.staff.tenantId, ptId: p.patient.id, ...flags },
  });
  const mail = inbox.at(-1);
  const link = /https?:\/\/\S+/.exec(mail?.text ?? "")?.[0];
  if (link === undefined) throw new Error("no link in the invitation");
  return new URL(link);
}

/**
 * Answers every required question that shows and `extra` leaves open, with the first choice ('never'
 * smoked, no diet, alone).
 */
function completeAnswers(extra: Answers = {}): Answers {
  let answers: Answers = { ...extra };
  const context: EvalContext = { answers: { ...answers, ptS: "true", ptPY: "true", pt100: "true" } };
  for (const question of teleAwvSurvey.pages.flatMap((page) => page.questions)) {
    if (!question.required || !isQuestionVisible(question, context)) continue;
    if (getAnswer(answers, question.fieldName) !== undefined) continue;
    if (question.type === "checkbox") {
      answers = setSelectedValues(question, answers, [
        question.noneValue ?? question.choices?.[0]?.value ?? "",
      ]);
    } else if (question.fieldName === "social.smokeYesNoQuit") {
      answers = setAnswer(answers, question.fieldName, "never");
    } else {
      answers = setAnswer(answers, question.fieldName, question.choices?.[0]?.value ?? "yes");
    }
  }
  return answers;
}

function submission(link: URL, answers: Answers, overrides: Record<string, unknown> = {}): SubmitInput {
  const query = Object.fromEntries(link.searchParams);
  const token = new URLSearchParams(link.hash.slice(1)).get("token");
  return {
    request: TeleAwvSubmitRequestSchema.parse({ ...query, token, answers, ...overrides }),
    publicUrl: PUBLIC_URL,
    ip: "127.0.0.1",
    log,
  };
}

const resultsOf = (tenantId: string) =>
  db.select().from(surveyResults).where(eq(surveyResults.tenantId, tenantId));

async function refusal(promise: Promise<unknown>): Promise<AppError> {
  const error = await promise.then(
    () => undefined,
    (cause: unknown) => cause,
  );
  expect(error).toBeInstanceOf(AppError);
  return error as AppError;
}

describe("sendInvitation", () => {
  test("e-mails over SMTP a link with the six query pairs in order and the token in the fragment", async () => {
    const p = await practice();
    const link = await invite(p, { ptS: true, ptPY: false, pt100: true });
    const mail = inbox[0];
    expect(mail?.to).toMatchObject({ text: "pat@example.org" });
    expect(mail?.subject).toMatch(/^Your Annual Wellness Visit questionnaire from /);
    expect(link.pathname).toBe("/auth/teleawv");
    expect([...link.searchParams]).toEqual([
      ["tenant", p.staff.tenantId],
      ["patientId", p.patient.id],
      ["ptEmail", "pat@example.org"],
      ["ptS", "true"],
      ["ptPY", "false"],
      ["pt100", "true"],
    ]);
    const fragment = new URLSearchParams(link.hash.slice(1));
    const token = fragment.get("token") ?? "";
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(fragment.get("alternateFalls")).toBe("false");

    const [row] = await db.select().from(awvInvitations).where(eq(awvInvitations.tenantId, p.staff.tenantId));
    expect(row?.tokenHash).toBe(hashToken(token));
    expect(JSON.stringify(row)).not.toContain(token);
    expect((row?.expiresAt.getTime() ?? 0) - (row?.createdAt.getTime() ?? 0)).toBe(INVITATION_TTL_MS);
  });

  test("carries the tenant's alternate falls setting in the fragment", async () => {
    const link = await invite(await practice({ teleAwvEmail: true, alternateFalls: true }));
    expect(new URLSearchParams(link.hash.slice(1)).get("alternateFalls")).toBe("true");
  });

  test("answers 502 and keeps no invitation when the mail server refuses the connection", async () => {
    const p = await practice();
    const closed = await startSmtpPeer();
    await closed.close();
    const deadMailer = createMailer(testConfig({ smtpUrl: `${closed.url}?ignoreTLS=true` }), log);
    const error = await refusal(
      sendInvitation(db, deadMailer, {
        log,
        tenantId: p.staff.tenantId,
        userId: p.staff.userId,
        ip: "127.0.0.1",
        publicUrl: PUBLIC_URL,
        request: {
          ptEmail: "pat@example.org",
          tenant: p.staff.tenantId,
          ptId: p.patient.id,
          ptS: false,
          ptPY: false,
          pt100: false,
        },
      }),
    );
    expect(error.statusCode).toBe(502);
    expect(
      await db.select().from(awvInvitations).where(eq(awvInvitations.tenantId, p.staff.tenantId)),
    ).toEqual([]);
  });

  test("refuses a tenant without the Tele-AWV e-mail setting and sends nothing", async () => {
    const p = await practice({ teleAwvEmail: false });
    const error = await refusal(invite(p));
    expect(error.statusCode).toBe(403);
    expect(inbox).toEqual([]);
  });

  test("refuses another tenant's patient", async () => {
    const p = await practice();
    const other = await practice();
    const error = await refusal(
      sendInvitation(db, mailer, {
        log,
        tenantId: p.staff.tenantId,
        userId: p.staff.userId,
        ip: "127.0.0.1",
        publicUrl: PUBLIC_URL,
        request: {
          ptEmail: "x@example.org",
          tenant: p.staff.tenantId,
          ptId: other.patient.id,
          ptS: false,
          ptPY: false,
          pt100: false,
        },
      }),
    );
    expect(error.statusCode).toBe(404);
    expect(inbox).toEqual([]);
  });
});

describe("submitTeleAwv", () => {
  test("stores a submitted Tele-AWV result without hidden answers and marks the invitation used", async () => {
    const p = await practice();
    const link = await invite(p);
    const answers = completeAnswers({ social: { alcoholfrequency: "never", drinksPerDay: "5" } });
    const { id, safetyAlert } = await submitTeleAwv(db, mailer, submission(link, answers));
    expect(safetyAlert).toBe(false);
    const [result] = await resultsOf(p.staff.tenantId);
    expect(result).toMatchObject({
      id,
      surveyId: TELE_AWV_SURVEY_ID,
      patientId: p.patient.id,
      isSubmitted: true,
      createdBy: null,
    });
    expect((result?.answers.social as Record<string, unknown>).drinksPerDay).toBeUndefined();
    expect(result?.answers.patientId).toBeUndefined();
    const [invitation] = await db
      .select()
      .from(awvInvitations)
      .where(eq(awvInvitations.tenantId, p.staff.tenantId));
    expect(invitation?.usedAt).not.toBeNull();
    expect(invitation?.resultId).toBe(id);
  });

  test("refuses a reused link and stores nothing more", async () => {
    const p = await practice();
    const link = await invite(p);
    await submitTeleAwv(db, mailer, submission(link, completeAnswers()));
    const error = await refusal(submitTeleAwv(db, mailer, submission(link, completeAnswers())));
    expect(error.statusCode).toBe(403);
    expect(await resultsOf(p.staff.tenantId)).toHaveLength(1);
  });

  test("refuses a forged token and stores nothing", async () => {
    const p = await practice();
    const link = await invite(p);
    const error = await refusal(
      submitTeleAwv(db, mailer, submission(link, completeAnswers(), { token: "f".repeat(43) })),
    );
    expect(error.statusCode).toBe(403);
    expect(await resultsOf(p.staff.tenantId)).toEqual([]);
  });

  test("refuses an expired link and stores nothing", async () => {
    const p = await practice();
    const link = await invite(p);
    const later = new Date(Date.now() + INVITATION_TTL_MS + 1000);
    const error = await refusal(
      submitTeleAwv(db, mailer, { ...submission(link, completeAnswers()), now: later }),
    );
    expect(error.statusCode).toBe(403);
    expect(await resultsOf(p.staff.tenantId)).toEqual([]);
    const [invitation] = await db
      .select()
      .from(awvInvitations)
      .where(eq(awvInvitations.tenantId, p.staff.tenantId));
    expect(invitation?.usedAt).toBeNull();
  });

  test.each([
    ["patientId", { patientId: "64a1c0de00000000000000ff" }],
    ["ptEmail", { ptEmail: "someone@example.org" }],
    ["tenant", { tenant: "t-another-practice" }],
  ])("refuses the token with another %s and stores nothing", async (_name, overrides) => {
    const p = await practice();
    const link = await invite(p);
    const error = await refusal(submitTeleAwv(db, mailer, submission(link, completeAnswers(), overrides)));
    expect(error.statusCode).toBe(403);
    expect(await resultsOf(p.staff.tenantId)).toEqual([]);
  });

  test("refuses incomplete answers with the field errors and leaves the link usable", async () => {
    const p = await practice();
    const link = await invite(p);
    const answers = setAnswer(completeAnswers(), "pain.hadPain", "2");
    const error = await refusal(submitTeleAwv(db, mailer, submission(link, answers)));
    expect(error.statusCode).toBe(400);
    expect(error.errors).toContainEqual({
      field: "pain.locations",
      message:
        "You indicated you experienced pain in the last 3 months.  Please indicate where you are hurting.",
    });
    expect(await resultsOf(p.staff.tenantId)).toEqual([]);
    await submitTeleAwv(db, mailer, submission(link, completeAnswers()));
    expect(await resultsOf(p.staff.tenantId)).toHaveLength(1);
  });

  test("opens a safety alert and e-mails the practice when PHQ-9 item 9 is above 'not at all'", async () => {
    const p = await practice({ teleAwvEmail: true, safetyAlertEmail: "safety@practice.test" });
    const link = await invite(p);
    inbox.length = 0;
    const answers = completeAnswers({
      depression: { phq9LittleInterest: "several days", phq9SelfHarm: "more than half the days" },
    });
    const { id, safetyAlert } = await submitTeleAwv(db, mailer, submission(link, answers));
    expect(safetyAlert).toBe(true);
    const alerts = await db
      .select()
      .from(safetyAlerts)
      .where(and(eq(safetyAlerts.tenantId, p.staff.tenantId), eq(safetyAlerts.resultId, id)));
    expect(alerts).toMatchObject([
      { kind: SELF_HARM_ALERT_KIND, patientId: p.patient.id, acknowledgedAt: null },
    ]);
    expect(inbox).toHaveLength(1);
    expect(inbox[0]?.to).toMatchObject({ text: "safety@practice.test" });
    expect(inbox[0]?.text).toContain(`${PUBLIC_URL}/results/${id}`);
    expect(inbox[0]?.text).not.toContain("Pat");
  });

  test("opens no safety alert when item 9 is 'not at all'", async () => {
    const p = await practice({ teleAwvEmail: true, safetyAlertEmail: "safety@practice.test" });
    const link = await invite(p);
    inbox.length = 0;
    const answers = completeAnswers({
      depression: { phq9LittleInterest: "several days", phq9SelfHarm: "not at all" },
    });
    await submitTeleAwv(db, mailer, submission(link, answers));
    expect(await db.select().from(safetyAlerts).where(eq(safetyAlerts.tenantId, p.staff.tenantId))).toEqual(
      [],
    );
    expect(inbox).toEqual([]);
  });
});

const tokenOf = (link: URL) => new URLSearchParams(link.hash.slice(1)).get("token") ?? "";

async function credentialOf(link: URL) {
  const credential = await findInvitationCredential(db, tokenOf(link));
  if (credential === null) throw new Error("the link is not open");
  return credential;
}

describe("the invitation's language", () => {
  test("writes the e-mail in the patient's preferred language, naming the practice, with a link to each", async () => {
    const p = await practice({ teleAwvEmail: true }, "es");
    const link = await invite(p);
    const mail = inbox.at(-1);
    const [tenant] = await db.select().from(tenants).where(eq(tenants.id, p.staff.tenantId));
    expect(mail?.subject).toBe(`Su cuestionario de la Visita Anual de Bienestar de ${tenant?.name}`);
    expect(mail?.text).toContain("Abra este enlace para contestar las preguntas");
    expect(new URLSearchParams(link.hash.slice(1)).get("lang")).toBe("es");
    const english = /To answer in English, open this link:\n(\S+)/.exec(mail?.text ?? "")?.[1];
    expect(new URLSearchParams(new URL(english ?? "").hash.slice(1)).get("lang")).toBe("en");
    expect([...link.searchParams.keys()]).toEqual(["tenant", "patientId", "ptEmail", "ptS", "ptPY", "pt100"]);
    expect((await linkState(db, await credentialOf(link))).language).toBe("es");
  });

  test("writes in English for a patient with no preferred language", async () => {
    const p = await practice();
    const link = await invite(p);
    expect(inbox.at(-1)?.subject).toMatch(/^Your Annual Wellness Visit questionnaire from /);
    expect(new URLSearchParams(link.hash.slice(1)).get("lang")).toBe("en");
  });
});

describe("drafts", () => {
  test("keeps the progress against the link, gives it back, and clears it in the submitting commit", async () => {
    const p = await practice();
    const link = await invite(p);
    const credential = await credentialOf(link);
    expect((await linkState(db, credential)).draft).toBeNull();
    const answers = { functional: { eating: "0" } };
    await saveDraft(db, credential, { answers, pageIndex: 1, language: "es" });
    expect((await linkState(db, credential)).draft).toMatchObject({ answers, pageIndex: 1, language: "es" });

    await submitTeleAwv(db, mailer, submission(link, completeAnswers()));
    const [row] = await db.select().from(awvInvitations).where(eq(awvInvitations.tenantId, p.staff.tenantId));
    expect(row?.draftAnswers).toBeNull();
    expect(row?.draftSavedAt).toBeNull();
    const spent = await resolveInvitationToken(db, tokenOf(link));
    if (spent.kind !== "spent") throw new Error("the link should be spent");
    expect(await linkState(db, spent.spent)).toMatchObject({ state: "used", draft: null });
    const error = await refusal(saveDraft(db, credential, { answers, pageIndex: 0, language: "en" }));
    expect(error.statusCode).toBe(403);
  });

  test("says a link expired, and the purge clears its draft", async () => {
    const p = await practice();
    const link = await invite(p);
    const credential = await credentialOf(link);
    await saveDraft(db, credential, { answers: { pain: { hadPain: "1" } }, pageIndex: 1, language: "en" });
    const later = new Date(Date.now() + INVITATION_TTL_MS + 1000);
    const spent = await resolveInvitationToken(db, tokenOf(link), later);
    expect(spent).toMatchObject({ kind: "spent", spent: { state: "expired" } });
    expect(await purgeExpiredDrafts(db, later)).toBeGreaterThanOrEqual(1);
    const [row] = await db.select().from(awvInvitations).where(eq(awvInvitations.tenantId, p.staff.tenantId));
    expect(row?.draftAnswers).toBeNull();
  });

  test("one link's draft is never another's", async () => {
    const p = await practice();
    const first = await invite(p);
    const second = await invite(p);
    await saveDraft(db, await credentialOf(first), {
      answers: { pain: { hadPain: "3" } },
      pageIndex: 2,
      language: "en",
    });
    expect((await linkState(db, await credentialOf(second))).draft).toBeNull();
  });
});
