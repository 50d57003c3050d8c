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
  database = await createTestDatabase({ listStatementTimeoutMs: 400 });
  // No cap on the practice's concurrent list reads here (list-tenant-slots.pg.int.test.ts has it): all
  // six reads reach the server and its timeout.
  t = await createTestApp({ database, config: { listTenantConcurrency: 6 } });
});
afterAll(async () => {
  await t.close();
  await database.close();
});

describe("GET /api/surveyresults past the list statement timeout (PostgreSQL)", () => {
  test("a list read held past the timeout answers 503 with Retry-After, never 500, and frees its connection for the next practice's first page", async () => {
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
    await postResult(b.s, b.patient.id, { a: 1 });
    const held = await heldResults(database);
    try {
      // More of practice A's reads than the list reads have connections: each is cancelled at the timeout.
      const answers = await Promise.all(
        Array.from({ length: 6 }, () => a.s.inject({ method: "GET", url: "/api/surveyresults?duration=0" })),
      );
      for (const res of answers) {
        expect(res.statusCode, res.body).toBe(503);
        expect(res.headers["retry-after"]).toMatch(/^\d+$/);
        expect(
          res.json<{ responseStatus: { status: number; message: string } }>().responseStatus,
        ).toMatchObject({
          status: 503,
          message: "This list took too long to read. Please try again in a moment.",
        });
      }
    } finally {
      await held.release();
    }
    // No connection of the list reads is left held: practice B's first page, then A's, answer.
    const first = await b.s.inject({ method: "GET", url: "/api/surveyresults?duration=0" });
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json<{ total: number }>().total).toBe(1);
    const again = await a.s.inject({ method: "GET", url: "/api/surveyresults?duration=0" });
    expect(again.statusCode, again.body).toBe(200);
  });
});
