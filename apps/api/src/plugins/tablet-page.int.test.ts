import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { brotliDecompressSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { Patient } from "@core-care/schema";
import {
  CORE_CARE_WELLNESS_EXAM_ID,
  createPage,
  createQuestion,
  type Survey,
} from "@core-care/survey-engine";
import { asSession, createTestApp, login, sessionCookie, type TestApp } from "../../test/helpers.js";
import { TABLET_BOOT_ID } from "@core-care/schema/pages";

/** The JSON block the tablet page carries, parsed, or null when it has none. */
function bootOf(html: string): unknown {
  const match = new RegExp(`<script type="application/json" id="${TABLET_BOOT_ID}">([^<]*)</script>`).exec(
    html,
  );
  return match?.[1] === undefined ? null : JSON.parse(match[1]);
}

describe("the tablet page for a patient credential", () => {
  let t: TestApp;
  let webDist: string;
  beforeAll(async () => {
    webDist = mkdtempSync(join(tmpdir(), "core-care-web-"));
    mkdirSync(join(webDist, "assets"));
    writeFileSync(join(webDist, "index.html"), "<!doctype html><html><head></head><body></body></html>");
    writeFileSync(
      join(webDist, "tablet.html"),
      '<!doctype html><html><head></head><body class="tablet"><div id="root"></div></body></html>',
    );
    t = await createTestApp({ config: { webDist } });
  });
  afterAll(async () => {
    await t.close();
    rmSync(webDist, { recursive: true, force: true });
  });

  /** A tenant whose admin hands the tablet over for `surveyId`: the staff and the patient sessions. */
  async function handOver(
    surveyId: string,
    prepare?: (admin: Awaited<ReturnType<typeof login>>) => Promise<void>,
  ) {
    const tenant = await t.createTestTenant({ role: "admin" });
    const staff = await login(t.app, tenant.email);
    await prepare?.(staff);
    const patient = (
      await staff.inject({
        method: "POST",
        url: "/api/patients",
        payload: { mrn: "TP-1", firstName: "Tess", lastName: "Page", dob: "1950-02-03", sex: "F" },
      })
    ).json<Patient>();
    const res = await staff.inject({
      method: "POST",
      url: "/api/tablet/handovers",
      payload: { patientId: patient.id, surveyId },
    });
    expect(res.statusCode, res.body).toBe(201);
    const cookie = sessionCookie(res);
    if (cookie === undefined) throw new Error("no patient cookie");
    return { staff: await login(t.app, tenant.email), tablet: asSession(t.app, cookie, staff.me) };
  }

  test("carries the hand-over and its survey exactly as the API answers them", async () => {
    const { tablet } = await handOver(CORE_CARE_WELLNESS_EXAM_ID);
    const page = await tablet.inject({
      method: "GET",
      url: `/tablet/patient-survey/${CORE_CARE_WELLNESS_EXAM_ID}/pg/1`,
    });
    expect(page.statusCode).toBe(200);
    expect(page.headers["cache-control"]).toBe("no-store");
    const handover = await tablet.inject({ method: "GET", url: "/api/tablet/handover" });
    const survey = await tablet.inject({ method: "GET", url: `/api/surveys/${CORE_CARE_WELLNESS_EXAM_ID}` });
    expect(bootOf(page.body)).toEqual({ handover: handover.json<unknown>(), survey: survey.json<unknown>() });
    // The patient credential is no staff session: no user is put on the page.
    expect(page.body).not.toContain("data-user");
  });

  test("sends the page with its survey compressed", async () => {
    const { tablet } = await handOver(CORE_CARE_WELLNESS_EXAM_ID);
    const page = await tablet.inject({ method: "GET", url: "/tablet", headers: { "accept-encoding": "br" } });
    expect(page.headers["content-encoding"]).toBe("br");
    const html = brotliDecompressSync(page.rawPayload).toString("utf8");
    expect(bootOf(html)).toMatchObject({ survey: { id: CORE_CARE_WELLNESS_EXAM_ID } });
  });

  test("carries nothing for staff, for no one, and on the staff app's pages", async () => {
    const { staff, tablet } = await handOver(CORE_CARE_WELLNESS_EXAM_ID);
    for (const res of [
      await staff.inject({ method: "GET", url: "/tablet" }),
      await t.app.inject({ method: "GET", url: `/tablet/patient-survey/${CORE_CARE_WELLNESS_EXAM_ID}/pg/1` }),
      await tablet.inject({ method: "GET", url: "/auth/login" }),
    ]) {
      expect(res.statusCode).toBe(200);
      expect(res.body).not.toContain(TABLET_BOOT_ID);
    }
  });

  test("keeps a survey's text from ending the block or opening a tag", async () => {
    const hostile = "</script><script>alert(1)</script><!-- \u2028 & more";
    const { tablet } = await handOver("hostile-survey", async (admin) => {
      const page = { ...createPage(), questions: [{ ...createQuestion("text"), title: hostile }] };
      const survey: Survey = {
        id: "hostile-survey",
        title: hostile,
        description: "",
        canSubscribeTo: false,
        sections: [],
        pages: [page],
        version: 0,
      };
      const saved = await admin.inject({
        method: "POST",
        url: "/api/surveys/hostile-survey",
        payload: survey,
      });
      expect(saved.statusCode, saved.body).toBe(200);
    });
    const page = await tablet.inject({ method: "GET", url: "/tablet/patient-survey/hostile-survey/pg/1" });
    const block = page.body.slice(page.body.indexOf(TABLET_BOOT_ID));
    expect(block.indexOf("</script>")).toBe(block.indexOf("</body>") - "</script>".length);
    expect(page.body).not.toContain("<script>alert");
    expect(page.body).not.toContain("<!--");
    expect(bootOf(page.body)).toMatchObject({ survey: { title: hostile } });
  });
});
