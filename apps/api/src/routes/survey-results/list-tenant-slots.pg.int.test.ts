import { afterAll, beforeAll, describe, expect, test } from "vitest";
import {
  createTestApp,
  createTestDatabase,
  signedInWithPatient,
  postResult,
  type TestApp,
} from "../../../test/helpers.js";
import { heldResults } from "../../../test/held-table.js";
import type { Database } from "../../db/index.js";

let database: Database;
let t: TestApp;

beforeAll(async () => {
  // Five connections: three for the list reads. Each practice may run two list reads at once.
  database = await createTestDatabase();
  t = await createTestApp({ database, config: { listTenantConcurrency: 2, listTenantWaitMs: 300 } });
});
afterAll(async () => {
  await t.close();
  await database.close();
});

async function until(check: () => boolean): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error("timed out waiting");
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe("each practice's cap on concurrent list reads (PostgreSQL)", () => {
  test("one practice's slow results pages hold two list reads at most: another practice's first page answers at once, the first practice's extra reads wait then answer 503 with Retry-After, never 500", async () => {
    const a = await signedInWithPatient(t, {
      mrn: "A-1",
      firstName: "Ann",
      lastName: "Ames",
      dob: "1950-01-01",
      sex: "F",
    });
    const b = await signedInWithPatient(t, {
      mrn: "B-1",
      firstName: "Bo",
      lastName: "Bell",
      dob: "1951-01-01",
      sex: "M",
    });
    await postResult(a.s, a.patient.id, { a: 1 });
    const held = await heldResults(database);
    let answers: Awaited<ReturnType<typeof a.s.inject>>[];
    try {
      // Six of practice A's reads, more than the three list-read connections: without the cap they take
      // all three and practice B's page waits for the lock's end.
      const reads = Array.from({ length: 6 }, () =>
        a.s.inject({ method: "GET", url: "/api/surveyresults?duration=0" }),
      );
      await until(() => t.app.listSlots.stateOf(a.u.tenantId).running === 2);
      const started = Date.now();
      const first = await b.s.inject({ method: "GET", url: "/api/patients" });
      const took = Date.now() - started;
      expect(first.statusCode, first.body).toBe(200);
      expect(first.json<{ items: { mrn: string }[] }>().items.map((p) => p.mrn)).toEqual(["B-1"]);
      expect(took).toBeLessThan(2000);
      // A's two running reads still wait for the lock; its four others have given up their wait.
      await until(() => t.app.listSlots.stateOf(a.u.tenantId).waiting === 0);
      expect(t.app.listSlots.stateOf(a.u.tenantId).running).toBe(2);
      await held.release();
      answers = await Promise.all(reads);
    } finally {
      await held.release();
    }
    const statuses = answers.map((res) => res.statusCode).sort();
    expect(statuses).toEqual([200, 200, 503, 503, 503, 503]);
    for (const res of answers.filter((r) => r.statusCode === 503)) {
      expect(res.headers["retry-after"]).toMatch(/^\d+$/);
      expect(
        res.json<{ responseStatus: { status: number; message: string } }>().responseStatus,
      ).toMatchObject({
        status: 503,
        message: "This practice's lists are busy. Please try again in a moment.",
      });
    }
    // The slots are all given back: A's next page answers.
    expect(t.app.listSlots.stateOf(a.u.tenantId)).toEqual({ running: 0, waiting: 0 });
    const again = await a.s.inject({ method: "GET", url: "/api/surveyresults?duration=0" });
    expect(again.statusCode, again.body).toBe(200);
  });
});
