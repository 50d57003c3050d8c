import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { CORE_CARE_WELLNESS_EXAM_ID, objectId } from "@core-care/survey-engine";
import type { Patient } from "@core-care/schema";
import { createDeliveryFixture } from "../../test/peers/delivery-fixtures.js";
import { createTestApp, login, type Session, type TestApp } from "../../test/helpers.js";
import { deliveries } from "../db/schema.js";

const TOKEN = "scrape-token-for-tests-0123456789abcdef";
let t: TestApp;
let sysAdmin: Session;
let admin: Session;

beforeAll(async () => {
  t = await createTestApp({ config: { metricsToken: TOKEN } });
  const u = await t.createTestTenant({ role: "sysAdmin" });
  sysAdmin = await login(t.app, u.email);
  admin = await login(t.app, (await t.createTestUser(u.tenantId, { role: "admin" })).email);
});
afterAll(async () => {
  await t.close();
});

const scrape = async () => {
  const res = await t.app.inject({
    method: "GET",
    url: "/metrics",
    headers: { authorization: `Bearer ${TOKEN}` },
  });
  expect(res.statusCode).toBe(200);
  expect(res.headers["content-type"]).toMatch(/^text\/plain; version=0\.0\.4/);
  return res.body;
};

describe("GET /metrics", () => {
  test("counts requests per route as registered, with their latency, and never a raw URL", async () => {
    const p = (
      await admin.inject({
        method: "POST",
        url: "/api/patients",
        payload: {
          mrn: `M-${objectId().slice(-6)}`,
          firstName: "Mia",
          lastName: "Trix",
          dob: "1950-01-01",
          sex: "F",
        },
      })
    ).json<Patient>();
    expect((await admin.inject({ method: "GET", url: `/api/patients/${p.id}` })).statusCode).toBe(200);
    const text = await scrape();
    expect(text).toMatch(
      /http_request_duration_seconds_count\{method="GET",route="\/api\/patients\/:id",status_code="200"\} [1-9]/,
    );
    expect(text).toMatch(
      /http_request_duration_seconds_bucket\{le="0\.1",method="POST",route="\/api\/patients"/,
    );
    expect(text).not.toContain(p.id);
    expect(text).not.toContain("Trix");
  });

  test("reports save batch sizes, the delivery queue per interface and the database pool", async () => {
    const tenantId = (await sysAdmin.inject({ method: "GET", url: "/api/tenants/me" })).json<{ id: string }>()
      .id;
    const fixture = await createDeliveryFixture(t.db, tenantId, { type: "hl7-mllp", port: 9 });
    const p = (
      await admin.inject({
        method: "POST",
        url: "/api/patients",
        payload: {
          mrn: `M-${objectId().slice(-6)}`,
          firstName: "Bo",
          lastName: "Batch",
          dob: "1950-01-01",
          sex: "M",
        },
      })
    ).json<Patient>();
    const saves = await Promise.all(
      Array.from({ length: 5 }, () =>
        admin.inject({
          method: "POST",
          url: "/api/surveyresults",
          payload: {
            clientRequestId: objectId(),
            surveyId: CORE_CARE_WELLNESS_EXAM_ID,
            patientId: p.id,
            answers: {},
          },
        }),
      ),
    );
    expect(saves.map((s) => s.statusCode)).toEqual([200, 200, 200, 200, 200]);
    // The test server runs no delivery worker: a send stays queued.
    const sent = await admin.inject({
      method: "POST",
      url: `/api/surveyresults/${fixture.resultId}/sendhl7`,
      payload: { interfaceId: fixture.interfaceId },
    });
    expect(sent.statusCode, sent.body).toBeLessThan(300);

    const text = await scrape();
    const batches = /corecare_save_batch_size_count (\d+)/.exec(text);
    const saved = /corecare_save_batch_size_sum (\d+)/.exec(text);
    expect(Number(batches?.[1])).toBeGreaterThan(0);
    expect(Number(saved?.[1])).toBeGreaterThanOrEqual(5);
    expect(text).toContain(
      `corecare_delivery_queue_depth{tenant="${tenantId}",interface="${fixture.interfaceId}"} 1`,
    );
    expect(text).toMatch(/corecare_db_pool_connections\{state="open"\} [1-9]/);
    expect(text).toMatch(/corecare_db_pool_connections\{state="waiting"\} \d/);
  });

  test("names each queue a failed delivery has held past the stall minutes, with how long", async () => {
    const tenantId = (await sysAdmin.inject({ method: "GET", url: "/api/tenants/me" })).json<{ id: string }>()
      .id;
    const fixture = await createDeliveryFixture(t.db, tenantId, { type: "hl7-mllp", port: 9 });
    const sent = await admin.inject({
      method: "POST",
      url: `/api/surveyresults/${fixture.resultId}/sendhl7`,
      payload: { interfaceId: fixture.interfaceId },
    });
    const { deliveryId } = sent.json<{ deliveryId: string }>();
    const mark = (minutesAgo: number) =>
      t.db
        .update(deliveries)
        .set({ status: "failed", updatedAt: new Date(Date.now() - minutesAgo * 60_000) })
        .where(and(eq(deliveries.tenantId, tenantId), eq(deliveries.id, deliveryId)));
    const stalled = (text: string) =>
      new RegExp(
        `corecare_delivery_queue_stalled_seconds\\{tenant="${tenantId}",interface="${fixture.interfaceId}"\\} (\\d+)`,
      ).exec(text);
    // Failed 5 minutes ago: under the 15 stall minutes, not stalled yet.
    await mark(5);
    expect(stalled(await scrape())).toBeNull();
    await mark(20);
    const held = Number(stalled(await scrape())?.[1]);
    expect(held).toBeGreaterThanOrEqual(20 * 60);
    expect(held).toBeLessThan(21 * 60);
  });

  test("answers a system admin and the scrape token only", async () => {
    expect((await sysAdmin.inject({ method: "GET", url: "/metrics" })).statusCode).toBe(200);
    expect((await admin.inject({ method: "GET", url: "/metrics" })).statusCode).toBe(403);
    expect((await t.app.inject({ method: "GET", url: "/metrics" })).statusCode).toBe(401);
    const wrong = await t.app.inject({
      method: "GET",
      url: "/metrics",
      headers: { authorization: `Bearer ${TOKEN.replace(/.$/, "x")}` },
    });
    expect(wrong.statusCode).toBe(401);
  });

  test("takes no token when none is configured", async () => {
    const other = await createTestApp({ database: t.database });
    try {
      const res = await other.app.inject({
        method: "GET",
        url: "/metrics",
        headers: { authorization: `Bearer ${TOKEN}` },
      });
      expect(res.statusCode).toBe(401);
    } finally {
      await other.close();
    }
  });
});
