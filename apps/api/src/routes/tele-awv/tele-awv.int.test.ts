import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { simpleParser } from "mailparser";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { TELE_AWV_SURVEY_ID } from "@core-care/survey-engine";
import { createTestApp, errorFields, login, type TestApp } from "../../../test/helpers.js";
import { NEGATIVE_ANSWERS } from "../../../test/awv-answers.js";
import { surveyResults } from "../../db/schema.js";
import { createPatient } from "../../services/patients.js";

const XHR = { "x-requested-with": "XMLHttpRequest" };
let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

/** A signed-in staff member of a practice with the Tele-AWV e-mail setting, and one of its patients. */
async function practice(teleAwvEmail = true) {
  const staff = await t.createTestTenant({ settings: { teleAwvEmail } });
  const session = await login(t.app, staff.email);
  const patient = await createPatient(t.db, staff.tenantId, {
    mrn: `R${Date.now()}`,
    firstName: "Robin",
    lastName: "Route",
    dob: "1949-11-30",
    sex: "M",
  });
  return { staff, session, patient };
}

/** The link of the newest invitation in the development outbox (no SMTP_URL in tests). */
async function newestLink(to: string): Promise<URL> {
  const dir = join(t.config.dataDir, "outbox");
  const files = (await readdir(dir)).sort().reverse();
  for (const file of files) {
    const mail = await simpleParser(await readFile(join(dir, file)));
    const address = Array.isArray(mail.to) ? mail.to[0]?.text : mail.to?.text;
    const link = /https?:\/\/\S+/.exec(mail.text ?? "")?.[0];
    if (address === to && link !== undefined) return new URL(link);
  }
  throw new Error("no invitation in the outbox");
}

/** The link's token, presented as the request's credential (`Authorization: Bearer`). */
const tokenOf = (link: URL) => new URLSearchParams(link.hash.slice(1)).get("token") ?? "";
const bearer = (token: string) => ({ ...XHR, authorization: `Bearer ${token}` });

function body(link: URL, answers: Record<string, unknown>, overrides: Record<string, unknown> = {}) {
  return {
    ...Object.fromEntries(link.searchParams),
    token: new URLSearchParams(link.hash.slice(1)).get("token"),
    answers,
    ...overrides,
  };
}

describe("POST /api/auth/sendAWVEmail", () => {
  test("e-mails the invitation for a patient of the session's tenant", async () => {
    const { staff, session, patient } = await practice();
    const res = await session.inject({
      method: "POST",
      url: "/api/auth/sendAWVEmail",
      payload: {
        ptEmail: "robin@example.org",
        tenant: staff.tenantId,
        ptId: patient.id,
        ptS: true,
        ptPY: true,
        pt100: false,
      },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ ok: true });
    const link = await newestLink("robin@example.org");
    expect(link.searchParams.get("patientId")).toBe(patient.id);
  });

  test("answers 401 without a session and 403 for another tenant's id", async () => {
    const { staff, session, patient } = await practice();
    const payload = { ptEmail: "robin@example.org", tenant: staff.tenantId, ptId: patient.id };
    const anonymous = await t.app.inject({
      method: "POST",
      url: "/api/auth/sendAWVEmail",
      headers: XHR,
      payload,
    });
    expect(anonymous.statusCode).toBe(401);
    const other = await practice();
    const crossTenant = await session.inject({
      method: "POST",
      url: "/api/auth/sendAWVEmail2",
      payload: { ...payload, tenant: other.staff.tenantId, ptId: other.patient.id },
    });
    expect(crossTenant.statusCode).toBe(403);
  });

  test("answers 403 for a tenant without the Tele-AWV e-mail setting", async () => {
    const { staff, session, patient } = await practice(false);
    const res = await session.inject({
      method: "POST",
      url: "/api/auth/sendAWVEmail2",
      payload: { ptEmail: "robin@example.org", tenant: staff.tenantId, ptId: patient.id },
    });
    expect(res.statusCode).toBe(403);
  });
});

describe("POST /api/auth/teleawv", () => {
  test("stores the answers once without a session, then refuses the reused link", async () => {
    const { staff, session, patient } = await practice();
    const email = `robin-${patient.id}@example.org`;
    await session.inject({
      method: "POST",
      url: "/api/auth/sendAWVEmail",
      payload: { ptEmail: email, tenant: staff.tenantId, ptId: patient.id },
    });
    const link = await newestLink(email);
    const first = await t.app.inject({
      method: "POST",
      url: "/api/auth/teleawv",
      headers: bearer(tokenOf(link)),
      payload: body(link, NEGATIVE_ANSWERS),
    });
    expect(first.statusCode).toBe(200);
    const { id } = first.json<{ id: string }>();
    const stored = await session.inject({ method: "GET", url: `/api/surveyresults/${id}` });
    expect(stored.json()).toMatchObject({
      surveyId: TELE_AWV_SURVEY_ID,
      patientId: patient.id,
      isSubmitted: true,
    });

    const again = await t.app.inject({
      method: "POST",
      url: "/api/auth/sendAWV",
      headers: bearer(tokenOf(link)),
      payload: body(link, NEGATIVE_ANSWERS),
    });
    expect(again.statusCode).toBe(403);
    expect(again.json()).toMatchObject({ responseStatus: { status: 403 } });
    const rows = await t.db.select().from(surveyResults).where(eq(surveyResults.tenantId, staff.tenantId));
    expect(rows).toHaveLength(1);
  });

  test.each([
    [
      "a choice the questionnaire does not offer",
      { pain: { ...NEGATIVE_ANSWERS.pain, hadPain: "superb" } },
      "pain.hadPain",
    ],
    ["a partial questionnaire", { pain: NEGATIVE_ANSWERS.pain }, "functional.eating"],
  ])(
    "refuses %s with 400 naming the field, storing nothing and keeping the link usable",
    async (_name, changed, field) => {
      const { staff, session, patient } = await practice();
      const email = `robin-${patient.id}@example.org`;
      await session.inject({
        method: "POST",
        url: "/api/auth/sendAWVEmail",
        payload: { ptEmail: email, tenant: staff.tenantId, ptId: patient.id },
      });
      const link = await newestLink(email);
      const answers = field === "pain.hadPain" ? { ...NEGATIVE_ANSWERS, ...changed } : changed;
      const refused = await t.app.inject({
        method: "POST",
        url: "/api/auth/teleawv",
        headers: bearer(tokenOf(link)),
        payload: body(link, answers),
      });
      expect(refused.statusCode, refused.body).toBe(400);
      expect(errorFields(refused)).toContain(field);
      expect(
        await t.db.select().from(surveyResults).where(eq(surveyResults.tenantId, staff.tenantId)),
      ).toEqual([]);
      const accepted = await t.app.inject({
        method: "POST",
        url: "/api/auth/teleawv",
        headers: bearer(tokenOf(link)),
        payload: body(link, NEGATIVE_ANSWERS),
      });
      expect(accepted.statusCode).toBe(200);
    },
  );

  test("refuses a forged or malformed token with 403 and no token with 401, storing nothing", async () => {
    const { staff, session, patient } = await practice();
    const email = `robin-${patient.id}@example.org`;
    await session.inject({
      method: "POST",
      url: "/api/auth/sendAWVEmail",
      payload: { ptEmail: email, tenant: staff.tenantId, ptId: patient.id },
    });
    const link = await newestLink(email);
    for (const token of ["A".repeat(43), "short"]) {
      const refused = await t.app.inject({
        method: "POST",
        url: "/api/auth/teleawv",
        headers: bearer(token),
        payload: body(link, NEGATIVE_ANSWERS),
      });
      expect(refused.statusCode).toBe(403);
      expect(refused.json()).toMatchObject({ responseStatus: { status: 403 } });
    }
    const none = await t.app.inject({
      method: "POST",
      url: "/api/auth/teleawv",
      headers: XHR,
      payload: body(link, NEGATIVE_ANSWERS),
    });
    expect(none.statusCode).toBe(401);
    const rows = await t.db.select().from(surveyResults).where(eq(surveyResults.tenantId, staff.tenantId));
    expect(rows).toEqual([]);
  });
});
