import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { objectId } from "@core-care/survey-engine";
import type { DocumentVersion, ErrorResponse, Report, ReportSummary } from "@core-care/schema";
import { createTestApp, errorFields, login, type TestApp } from "../../../test/helpers.js";

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

const newReport = () => ({
  id: objectId(),
  title: "Falls",
  script: "",
  markup: "<h1>{{x}}</h1>",
  mock: { x: 1 },
  clinical: true,
  version: 0,
});

async function signedIn(role: "user" | "admin") {
  const u = await t.createTestTenant({ role });
  return { u, s: await login(t.app, u.email) };
}

describe("POST /api/reports/{id}", () => {
  test("saves with version check, lists and reads back", async () => {
    const { s } = await signedIn("admin");
    const report = newReport();
    const first = await s.inject({ method: "POST", url: `/api/reports/${report.id}`, payload: report });
    expect(first.json()).toEqual({ id: report.id, version: 1 });
    const stale = await s.inject({ method: "POST", url: `/api/reports/${report.id}`, payload: report });
    expect(stale.statusCode).toBe(409);
    expect(stale.json<ErrorResponse>().responseStatus.errorCode).toBe(1);
    const second = await s.inject({
      method: "POST",
      url: `/api/reports/${report.id}`,
      payload: { ...report, title: "Falls 2", version: 1 },
    });
    expect(second.json()).toEqual({ id: report.id, version: 2 });
    const list = await s.inject({ method: "GET", url: "/api/reports" });
    expect(list.json<{ items: ReportSummary[] }>().items).toEqual([
      { id: report.id, title: "Falls 2", version: 2, clinical: true, tenantId: expect.any(String) as string },
    ]);
    const read = await s.inject({ method: "GET", url: `/api/reports/${report.id}` });
    expect(read.json<Report>()).toMatchObject({ markup: "<h1>{{x}}</h1>", mock: { x: 1 }, version: 2 });
    expect((await s.inject({ method: "GET", url: `/api/reports/${report.id}?newerThan=2` })).statusCode).toBe(
      204,
    );
    const versions = await s.inject({ method: "GET", url: `/api/reports/${report.id}/versions` });
    expect(versions.json<DocumentVersion[]>().map((v) => v.version)).toEqual([2, 1]);
    expect(
      (await s.inject({ method: "GET", url: `/api/reports/${report.id}/versions/1` })).json<Report>().title,
    ).toBe("Falls");
  });

  test("defaults the title to 'Unnamed Report'", async () => {
    const { s } = await signedIn("admin");
    const id = objectId();
    await s.inject({ method: "POST", url: `/api/reports/${id}`, payload: { id, version: 0 } });
    expect((await s.inject({ method: "GET", url: `/api/reports/${id}` })).json<Report>().title).toBe(
      "Unnamed Report",
    );
  });

  test("answers 400 naming the field for a bad report", async () => {
    const { s } = await signedIn("admin");
    const report = { ...newReport(), clinical: "very" };
    const res = await s.inject({ method: "POST", url: `/api/reports/${report.id}`, payload: report });
    expect(errorFields(res)).toEqual(["clinical"]);
  });

  test("lets a user read and answers 403 to a user writing", async () => {
    const a = await signedIn("admin");
    const report = newReport();
    await a.s.inject({ method: "POST", url: `/api/reports/${report.id}`, payload: report });
    const u = await t.createTestUser(a.u.tenantId, { role: "user" });
    const s = await login(t.app, u.email);
    expect((await s.inject({ method: "GET", url: `/api/reports/${report.id}` })).statusCode).toBe(200);
    expect(
      (
        await s.inject({
          method: "POST",
          url: `/api/reports/${report.id}`,
          payload: { ...report, version: 1 },
        })
      ).statusCode,
    ).toBe(403);
    expect((await s.inject({ method: "DELETE", url: `/api/reports/${report.id}` })).statusCode).toBe(403);
  });

  test("answers 404 for another tenant's report", async () => {
    const a = await signedIn("admin");
    const b = await signedIn("admin");
    const report = newReport();
    await a.s.inject({ method: "POST", url: `/api/reports/${report.id}`, payload: report });
    expect((await b.s.inject({ method: "GET", url: `/api/reports/${report.id}` })).statusCode).toBe(404);
    expect((await b.s.inject({ method: "DELETE", url: `/api/reports/${report.id}` })).statusCode).toBe(404);
    expect((await b.s.inject({ method: "GET", url: `/api/reports/${report.id}/versions` })).statusCode).toBe(
      404,
    );
    const over = await b.s.inject({
      method: "POST",
      url: `/api/reports/${report.id}`,
      payload: { ...report, version: 1 },
    });
    expect(over.statusCode).toBe(409);
    expect(over.json<ErrorResponse>().responseStatus.errorCode).toBe(0);
    expect((await a.s.inject({ method: "DELETE", url: `/api/reports/${report.id}` })).statusCode).toBe(204);
  });
});
