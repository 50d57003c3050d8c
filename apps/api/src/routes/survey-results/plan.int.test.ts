import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { simpleParser } from "mailparser";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { CORE_CARE_WELLNESS_EXAM_ID, objectId, TELE_AWV_SURVEY_ID } from "@core-care/survey-engine";
import type { PreventionPlanResponse } from "@core-care/schema";
import { createTestApp, login, postPatient, type Session, type TestApp } from "../../../test/helpers.js";
import { NEGATIVE_ANSWERS } from "../../../test/awv-answers.js";
import { surveyResults } from "../../db/schema.js";

// GET /api/surveyresults/{id}/plan: the prevention plan of results saved through the API, on the
// result's day, from its answers and its patient's record.

const XHR = { "x-requested-with": "XMLHttpRequest" };
let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

const today = () => new Date().toISOString().slice(0, 10);
/** The birth date of someone `years` old today (their birthday a month ago). */
function bornYearsAgo(years: number): string {
  const d = new Date();
  d.setUTCMonth(d.getUTCMonth() - 1);
  d.setUTCFullYear(d.getUTCFullYear() - years);
  return d.toISOString().slice(0, 10);
}
function yearsAgo(years: number): string {
  const d = new Date();
  d.setUTCFullYear(d.getUTCFullYear() - years);
  d.setUTCDate(d.getUTCDate() - 10);
  return d.toISOString().slice(0, 10);
}

async function practice(patient: { dob: string; sex: "F" | "M"; lastName?: string }) {
  const staff = await t.createTestTenant({ settings: { teleAwvEmail: true } });
  const s = await login(t.app, staff.email);
  const saved = await postPatient(s, {
    mrn: `P-${objectId().slice(-6)}`,
    firstName: "Pat",
    lastName: patient.lastName ?? "Plan",
    dob: patient.dob,
    sex: patient.sex,
  });
  return { staff, s, patient: saved };
}

/** The newest invitation link e-mailed to `to` (the development outbox). */
async function newestLink(to: string): Promise<URL> {
  const dir = join(t.config.dataDir, "outbox");
  for (const file of (await readdir(dir)).sort().reverse()) {
    const mail = await simpleParser(await readFile(join(dir, file)));
    const address = Array.isArray(mail.to) ? mail.to[0]?.text : mail.to?.text;
    const link = /https?:\/\/\S+/.exec(mail.text ?? "")?.[0];
    if (address === to && link !== undefined) return new URL(link);
  }
  throw new Error("no invitation in the outbox");
}

/**
 * The Tele-AWV as a patient takes it: staff e-mail the link (with the smoking questions), the patient
 * submits with the link's token. Answers the result id and the token.
 */
async function invite(s: Session, tenantId: string, patientId: string): Promise<URL> {
  const ptEmail = `p-${objectId().slice(-8)}@example.org`;
  const sent = await s.inject({
    method: "POST",
    url: "/api/auth/sendAWVEmail",
    payload: { ptEmail, tenant: tenantId, ptId: patientId, ptS: true, ptPY: true, pt100: true },
  });
  expect(sent.statusCode, sent.body).toBe(200);
  return newestLink(ptEmail);
}

async function teleAwv(
  s: Session,
  tenantId: string,
  patientId: string,
  social: Record<string, string>,
): Promise<{ id: string; token: string }> {
  const link = await invite(s, tenantId, patientId);
  const token = new URLSearchParams(link.hash.slice(1)).get("token") ?? "";
  const res = await t.app.inject({
    method: "POST",
    url: "/api/auth/teleawv",
    headers: { ...XHR, authorization: `Bearer ${token}` },
    payload: {
      ...Object.fromEntries(link.searchParams),
      answers: { ...NEGATIVE_ANSWERS, social: { ...NEGATIVE_ANSWERS.social, ...social } },
    },
  });
  expect(res.statusCode, res.body).toBe(200);
  return { id: res.json<{ id: string }>().id, token };
}

async function planOf(s: Session, id: string): Promise<PreventionPlanResponse> {
  const res = await s.inject({ method: "GET", url: `/api/surveyresults/${id}/plan` });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<PreventionPlanResponse>();
}

const item = (plan: PreventionPlanResponse, topic: string) => plan.items.find((i) => i.topic === topic);

describe("GET /api/surveyresults/{id}/plan", () => {
  test("a 67-year-old woman's Tele-AWV, smoking 30 pack-years: lung CT, mammography, bone density and colorectal screening are due, those the questionnaire does not ask to be asked at the visit", async () => {
    const { staff, s, patient } = await practice({ dob: bornYearsAgo(67), sex: "F" });
    const { id } = await teleAwv(s, staff.tenantId, patient.id, {
      smokeYesNoQuit: "yes",
      packYears: "yes",
      smoke100: "yes",
      lungCancer: "no",
    });
    const plan = await planOf(s, id);
    expect(plan).toMatchObject({
      resultId: id,
      surveyId: TELE_AWV_SURVEY_ID,
      isSubmitted: true,
      asOf: today(),
      language: "en",
      practice: { id: staff.tenantId },
      patient: { id: patient.id, mrn: patient.mrn, dob: patient.dob, sex: "F" },
    });
    for (const topic of ["lung-cancer", "breast-cancer", "osteoporosis", "colorectal-cancer"])
      expect(item(plan, topic)?.due, topic).toBe("now");
    expect(item(plan, "lung-cancer")?.reason).toContain("30 pack-years");
    expect(item(plan, "lung-cancer")?.source.url).toMatch(
      /^https:\/\/www\.uspreventiveservicestaskforce\.org\//,
    );
    // Not asked by the Tele-AWV: the plan says what to ask, not that it is known.
    expect(item(plan, "breast-cancer")?.ask).toEqual(["the date of the last mammogram"]);
    expect(item(plan, "osteoporosis")?.ask).toEqual(["the date of the last bone density scan"]);
    expect(plan.askAtVisit.map((a) => a.fact)).toEqual(
      expect.arrayContaining(["history.mammogram", "vaccines.pneumococcal", "measures.bmi"]),
    );
    // Tobacco as a risk factor with its interventions; the schedule spans 10 years from the result's day.
    expect(plan.riskFactors.find((r) => r.id === "tobacco-use")?.interventions.length).toBeGreaterThan(0);
    expect(plan.horizon).toMatchObject({ from: today(), years: 10 });
    expect(plan.schedule.some((e) => e.topic === "lung-cancer" && e.now)).toBe(true);
    // First AWV on record: G0438, and G0444 is not billed with an initial AWV.
    expect(plan.billing?.visit).toMatchObject({ code: "G0438", applies: true });
    expect(plan.billing?.visit.rule).toContain("none on record");
    expect(plan.billing?.addOns.find((a) => a.code === "G0444")?.applies).toBe(false);
  });

  test("the same woman's wellness exam, no colon screening ever and a mammogram 3 years ago, saved by staff: both due", async () => {
    const { s, patient } = await practice({ dob: bornYearsAgo(67), sex: "F" });
    const saved = await s.inject({
      method: "POST",
      url: "/api/surveyresults",
      payload: {
        clientRequestId: `req-${objectId()}`,
        surveyId: CORE_CARE_WELLNESS_EXAM_ID,
        patientId: patient.id,
        answers: {
          prevention: { colonScreening: "never", fluShot: "yes" },
          womensHealth: { lastMammogram: yearsAgo(3) },
        },
      },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    const plan = await planOf(s, saved.json<{ id: string }>().id);
    expect(item(plan, "breast-cancer")).toMatchObject({ due: "now", status: "due" });
    expect(item(plan, "breast-cancer")?.ask).toBeUndefined();
    expect(item(plan, "breast-cancer")?.reason).toContain(`last mammogram ${yearsAgo(3)}`);
    expect(item(plan, "colorectal-cancer")).toMatchObject({ due: "now", status: "due" });
    expect(plan.billing).toBeNull();
  });

  test("a 70-year-old man who quit more than 15 years ago: the one-time AAA ultrasound is due, lung CT is not", async () => {
    const { staff, s, patient } = await practice({ dob: bornYearsAgo(70), sex: "M" });
    const { id } = await teleAwv(s, staff.tenantId, patient.id, { smokeYesNoQuit: "quit" });
    const plan = await planOf(s, id);
    expect(item(plan, "aaa")).toMatchObject({ due: "now", status: "due", ruleId: "aaa-men-ever-smoked" });
    const lung = item(plan, "lung-cancer");
    expect(lung === undefined || lung.due === "not-recommended").toBe(true);
  });

  test("an 82-year-old man is not routinely offered colorectal or prostate screening, or an AAA scan", async () => {
    const { staff, s, patient } = await practice({ dob: bornYearsAgo(82), sex: "M" });
    const { id } = await teleAwv(s, staff.tenantId, patient.id, { smokeYesNoQuit: "never" });
    const plan = await planOf(s, id);
    expect(item(plan, "colorectal-cancer")).toMatchObject({ ruleId: "colorectal-76-85", status: "discuss" });
    expect(item(plan, "prostate-cancer")?.due).toBe("not-recommended");
    expect(item(plan, "aaa")?.due).toBe("not-recommended");
  });

  test("a second AWV counts the patient's earlier one: G0439 more than 11 full months after it, with G0444 for the PHQ", async () => {
    const { staff, s, patient } = await practice({ dob: bornYearsAgo(72), sex: "F" });
    const first = await teleAwv(s, staff.tenantId, patient.id, { smokeYesNoQuit: "never" });
    // The first visit a year and a half ago, as if submitted then.
    const then = new Date(Date.now() - 548 * 86_400_000);
    await t.db
      .update(surveyResults)
      .set({ submittedAt: then })
      .where(and(eq(surveyResults.tenantId, staff.tenantId), eq(surveyResults.id, first.id)));
    const second = await teleAwv(s, staff.tenantId, patient.id, { smokeYesNoQuit: "never" });
    const plan = await planOf(s, second.id);
    const thenDay = then.toISOString().slice(0, 10);
    expect(plan.billing?.awvDates).toEqual([thenDay]);
    expect(plan.billing?.visit).toMatchObject({ code: "G0439", applies: true });
    expect(plan.billing?.visit.rule).toContain(`last AWV ${thenDay}`);
    expect(plan.billing?.addOns.find((a) => a.code === "G0444")?.applies).toBe(true);
  });

  test("the plan is in Spanish for a patient who reads Spanish: the language says so", async () => {
    const { s, patient } = await practice({ dob: bornYearsAgo(66), sex: "F" });
    const put = await s.inject({
      method: "PUT",
      url: `/api/patients/${patient.id}`,
      payload: { ...patient, preferredLanguage: "es" },
    });
    expect(put.statusCode, put.body).toBe(200);
    const saved = await s.inject({
      method: "POST",
      url: "/api/surveyresults",
      payload: {
        clientRequestId: `req-${objectId()}`,
        surveyId: CORE_CARE_WELLNESS_EXAM_ID,
        patientId: patient.id,
        answers: {},
      },
    });
    const plan = await planOf(s, saved.json<{ id: string }>().id);
    expect(plan.language).toBe("es");
    expect(item(plan, "breast-cancer")?.patient.es).toMatch(/mamograf/i);
  });

  test("another practice's result answers 404, and an unknown id too", async () => {
    const a = await practice({ dob: bornYearsAgo(67), sex: "F" });
    const b = await practice({ dob: bornYearsAgo(67), sex: "F" });
    const { id } = await teleAwv(a.s, a.staff.tenantId, a.patient.id, { smokeYesNoQuit: "never" });
    const foreign = await b.s.inject({ method: "GET", url: `/api/surveyresults/${id}/plan` });
    expect(foreign.statusCode).toBe(404);
    const unknown = await a.s.inject({ method: "GET", url: `/api/surveyresults/${objectId()}/plan` });
    expect(unknown.statusCode).toBe(404);
    const bad = await a.s.inject({ method: "GET", url: `/api/surveyresults/not-an-id/plan` });
    expect(bad.statusCode).toBe(400);
    expect(
      bad.json<{ responseStatus: { errors: { field: string }[] } }>().responseStatus.errors[0]?.field,
    ).toBe("id");
  });

  test("a patient's credential is refused: a Tele-AWV link's token for the same patient cannot read the plan", async () => {
    const { staff, s, patient } = await practice({ dob: bornYearsAgo(67), sex: "F" });
    const { id } = await teleAwv(s, staff.tenantId, patient.id, { smokeYesNoQuit: "never" });
    // A second invitation, not yet used: its token is a live patient credential of this practice.
    const open = await invite(s, staff.tenantId, patient.id);
    const token = new URLSearchParams(open.hash.slice(1)).get("token") ?? "";
    const res = await t.app.inject({
      method: "GET",
      url: `/api/surveyresults/${id}/plan`,
      headers: { ...XHR, authorization: `Bearer ${token}` },
    });
    expect([401, 403]).toContain(res.statusCode);
    expect(res.body).not.toContain(patient.mrn);
    const anonymous = await t.app.inject({
      method: "GET",
      url: `/api/surveyresults/${id}/plan`,
      headers: XHR,
    });
    expect(anonymous.statusCode).toBe(401);
  });
});
