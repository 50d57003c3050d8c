import { Readable } from "node:stream";
import { and, count, eq } from "drizzle-orm";
import { TELE_AWV_SURVEY_ID } from "@core-care/survey-engine";
import type { BatchUploadResponse, Patient } from "@core-care/schema";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startMllpPeer, type MllpPeer } from "../../test/peers/mllp-peer.js";
import { createTestApp, inspect, login, type Session, type TestApp } from "../../test/helpers.js";
import { auditEvents, surveyResults } from "../db/schema.js";
import { createInterface } from "../services/interfaces.js";
import { createPatient } from "../services/patients.js";

let t: TestApp;
let peer: MllpPeer;

beforeAll(async () => {
  t = await createTestApp();
  peer = await startMllpPeer("AA");
});
afterAll(async () => {
  await peer.close();
  await t.close();
});

async function practice() {
  const admin = await t.createTestTenant({ role: "admin" });
  const s = await login(t.app, admin.email);
  const patient = (id: string) =>
    createPatient(t.db, admin.tenantId, {
      mrn: `MRN-${id}`,
      firstName: "Walter",
      lastName: "Hobbs",
      dob: "1952-11-02",
      sex: "M",
    });
  return { admin, s, walter: await patient("1"), ann: await patient("2") };
}

/** A streamed upload whose body arrives in the given pieces. */
const stream = (s: Session, type: string, pieces: string[], query = "") =>
  s.inject({
    method: "POST",
    url: `/api/surveyresults/batchUpload/stream${query}`,
    headers: { "content-type": type },
    payload: Readable.from(pieces.map((p) => Buffer.from(p, "utf8"))),
  });

const ndjson = (rows: object[]) => rows.map((r) => `${JSON.stringify(r)}\n`).join("");

const row = (externalId: string, patient: Patient, answers: Record<string, unknown> = { notes: "a" }) => ({
  externalId,
  patientId: patient.id,
  surveyId: TELE_AWV_SURVEY_ID,
  answers,
});

const uploadsAudited = (tenantId: string) =>
  inspect(() =>
    t.db
      .select({ details: auditEvents.details })
      .from(auditEvents)
      .where(and(eq(auditEvents.tenantId, tenantId), eq(auditEvents.entity, "survey-result-batch"))),
  );

describe("POST /api/surveyresults/batchUpload/stream", () => {
  test("stores a streamed NDJSON upload of several chunks, one audit event with its counts", async () => {
    const { admin, s, walter } = await practice();
    const rows = Array.from({ length: 2_345 }, (_, i) => row(`n-${i}`, walter, { notes: `row ${i}` }));
    const text = ndjson(rows);
    // Pieces that split lines (and JSON) anywhere.
    const pieces = Array.from({ length: Math.ceil(text.length / 997) }, (_, i) =>
      text.slice(i * 997, (i + 1) * 997),
    );
    const res = await stream(s, "application/x-ndjson", pieces);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<BatchUploadResponse>()).toEqual({
      accepted: 2_345,
      created: 2_345,
      updated: 0,
      unchanged: 0,
      rejectedCount: 0,
      rejected: [],
    });
    const [stored] = await inspect(() =>
      t.db.select({ n: count() }).from(surveyResults).where(eq(surveyResults.tenantId, admin.tenantId)),
    );
    expect(stored!.n).toBe(2_345);
    expect(await uploadsAudited(admin.tenantId)).toEqual([
      { details: { created: 2_345, updated: 0, unchanged: 0, rejected: 0 } },
    ]);
    // No result-by-result audit rows.
    const [perResult] = await inspect(() =>
      t.db
        .select({ n: count() })
        .from(auditEvents)
        .where(and(eq(auditEvents.tenantId, admin.tenantId), eq(auditEvents.entity, "survey-result"))),
    );
    expect(perResult!.n).toBe(0);
  });

  test("reads streamed CSV split inside quoted fields, accents and line breaks", async () => {
    const { admin, s, walter } = await practice();
    const text =
      "externalId,mrn,surveyId,notes\r\n" +
      `c-1,${walter.mrn},${TELE_AWV_SURVEY_ID},"José said ""fine"",\r\nthen left"\r\n` +
      `c-2,${walter.mrn},${TELE_AWV_SURVEY_ID},Zoë\r\n`;
    const pieces = [...Buffer.from(text, "utf8")].map((byte) => String.fromCharCode(byte));
    // Byte by byte: a two-byte UTF-8 letter arrives in two pieces.
    const res = await s.inject({
      method: "POST",
      url: "/api/surveyresults/batchUpload/stream",
      headers: { "content-type": "text/csv; charset=utf-8" },
      payload: Readable.from(pieces.map((p) => Buffer.from([p.charCodeAt(0)]))),
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<BatchUploadResponse>()).toMatchObject({ created: 2, rejectedCount: 0 });
    const answers = await inspect(() =>
      t.db
        .select({ answers: surveyResults.answers })
        .from(surveyResults)
        .where(eq(surveyResults.tenantId, admin.tenantId)),
    );
    expect(
      answers.map((a) => a.answers).sort((a, b) => String(a.notes).localeCompare(String(b.notes))),
    ).toEqual([{ notes: 'José said "fine",\r\nthen left' }, { notes: "Zoë" }]);
  });

  test("reports what re-uploading each external id did, by the documented rule", async () => {
    const { admin, s, walter, ann } = await practice();
    const iface = await createInterface(t.db, admin.tenantId, {
      name: "receiver",
      type: "hl7-mllp",
      host: "127.0.0.1",
      port: peer.port,
      sendingApplication: "CORECARE",
      sendingFacility: "DEMO",
      receivingApplication: "EHR",
      receivingFacility: "DEMOHOSP",
    });
    const first = await stream(s, "application/x-ndjson", [
      ndjson([row("same", walter), row("changed", walter), row("moved", walter), row("sent", walter)]),
    ]);
    expect(first.json<BatchUploadResponse>()).toMatchObject({ created: 4 });
    // "sent" goes to the interface (unchanged, and queued there).
    await stream(s, "application/x-ndjson", [ndjson([row("sent", walter)])], `?interfaceId=${iface.id}`);
    const all = (await s.inject({ method: "GET", url: "/api/surveyresults?duration=0" })).json<{
      items: { id: string }[];
    }>().items;
    expect(all).toHaveLength(4);

    const again = await stream(s, "application/x-ndjson", [
      ndjson([
        row("same", walter),
        row("changed", walter, { notes: "corrected" }),
        row("moved", ann),
        row("sent", walter, { notes: "corrected" }),
        row("new", walter),
      ]),
    ]);
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json<BatchUploadResponse>()).toEqual({
      accepted: 3,
      created: 1,
      updated: 1,
      unchanged: 1,
      rejectedCount: 2,
      rejected: [
        {
          row: 3,
          field: "externalId",
          message: "This external id was uploaded before for another patient or survey; it is not changed.",
        },
        {
          row: 4,
          field: "externalId",
          message: "This external id's result has been queued or sent to an interface; it is not changed.",
        },
      ],
    });
    const notes = await inspect(() =>
      t.db
        .select({ answers: surveyResults.answers, patientId: surveyResults.patientId })
        .from(surveyResults)
        .where(eq(surveyResults.tenantId, admin.tenantId)),
    );
    expect(notes.filter((n) => n.answers.notes === "corrected")).toHaveLength(1);
    expect(notes.filter((n) => n.patientId === ann.id)).toHaveLength(0);
    expect((await uploadsAudited(admin.tenantId)).map((e) => e.details)).toContainEqual({
      created: 1,
      updated: 1,
      unchanged: 1,
      rejected: 2,
    });
  });

  test("refuses re-uploading a removed result's external id", async () => {
    const { s, walter } = await practice();
    await stream(s, "application/x-ndjson", [ndjson([row("gone", walter)])]);
    const [result] = (await s.inject({ method: "GET", url: "/api/surveyresults?duration=0" })).json<{
      items: { id: string }[];
    }>().items;
    expect((await s.inject({ method: "DELETE", url: `/api/surveyresults/${result!.id}` })).statusCode).toBe(
      204,
    );
    const again = await stream(s, "application/x-ndjson", [ndjson([row("gone", walter)])]);
    expect(again.json<BatchUploadResponse>()).toMatchObject({
      accepted: 0,
      rejected: [
        {
          row: 1,
          field: "externalId",
          message: "This external id's result has been removed; restore it first.",
        },
      ],
    });
  });

  test("keeps each practice's external ids and patients apart", async () => {
    const a = await practice();
    const b = await practice();
    await stream(a.s, "application/x-ndjson", [ndjson([row("shared-id", a.walter)])]);
    const other = await stream(b.s, "application/x-ndjson", [
      ndjson([row("shared-id", b.walter), row("x", a.walter)]),
    ]);
    expect(other.json<BatchUploadResponse>()).toMatchObject({
      created: 1,
      rejected: [{ row: 2, field: "patientId", message: "No such patient." }],
    });
  });

  test("refuses a row with an answer the survey does not allow, naming the field, and stores the others", async () => {
    const { admin, s, walter } = await practice();
    const res = await stream(s, "application/x-ndjson", [
      ndjson([
        row("fine", walter, { hearing: { aid: "no" } }),
        row("superb", walter, { hearing: { aid: "superb" } }),
      ]),
    ]);
    expect(res.statusCode, res.body).toBe(200);
    const report = res.json<BatchUploadResponse>();
    expect(report).toMatchObject({ created: 1, rejectedCount: 1 });
    expect(report.rejected).toEqual([expect.objectContaining({ row: 2, field: "answers.hearing.aid" })]);
    const stored = await inspect(() =>
      t.db
        .select({ answers: surveyResults.answers })
        .from(surveyResults)
        .where(eq(surveyResults.tenantId, admin.tenantId)),
    );
    expect(stored).toEqual([{ answers: { hearing: { aid: "no" } } }]);
  });

  test("refuses a streamed row holding text PostgreSQL cannot store, and stores the others", async () => {
    const { s, walter } = await practice();
    const res = await stream(s, "application/x-ndjson", [
      ndjson([row("ok-1", walter), row("nul", walter, { notes: "a\u0000b" }), row("ok-2", walter)]),
    ]);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<BatchUploadResponse>()).toMatchObject({
      created: 2,
      rejected: [{ row: 2, field: "answers.notes", message: "Must not contain the character U+0000." }],
    });
  });

  test("refuses a row past a request body's shape limits with the limit, and stores the others", async () => {
    const { s, walter } = await practice();
    const wide = Object.fromEntries(Array.from({ length: 5_000 }, (_, i) => [`k${i}`, "1"]));
    const deep = JSON.parse(`${"[".repeat(100)}${"]".repeat(100)}`) as unknown;
    const res = await stream(s, "application/x-ndjson", [
      ndjson([
        row("ok-1", walter),
        row("wide", walter, wide),
        row("deep", walter, { notes: deep }),
        row("ok-2", walter),
      ]),
    ]);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<BatchUploadResponse>()).toMatchObject({
      created: 2,
      rejected: [
        {
          row: 2,
          field: "row",
          message: "No object or array in it may hold more than 1,000 keys or elements.",
        },
        { row: 3, field: "row", message: "Must not nest deeper than 64 levels." },
      ],
    });
  });

  test("refuses a CSV of more columns than a row's answers may hold", async () => {
    const { s } = await practice();
    const header = ["externalId", "mrn", "surveyId", ...Array.from({ length: 1_000 }, (_, i) => `c${i}`)];
    const res = await stream(s, "text/csv", [`${header.join(",")}\r\n`]);
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json()).toMatchObject({
      responseStatus: {
        errors: [{ field: "content", message: "A row of the CSV has more than 1,000 cells." }],
      },
    });
  });

  test.each([
    ["text/plain", "a\n"],
    ["text/csv", ""],
    ["text/csv", "a,b\n1,2\n"],
    ["text/csv", 'externalId,surveyId\n"open'],
  ])("answers 400 naming content for %s %j", async (type, body) => {
    const { s } = await practice();
    const res = await stream(s, type, [body]);
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json()).toMatchObject({ responseStatus: { errors: [{ field: "content" }] } });
  });
});

describe("POST /api/surveyresults/batchUpload", () => {
  const upload = (s: Session, content: string) =>
    s.inject({ method: "POST", url: "/api/surveyresults/batchUpload", payload: { format: "json", content } });

  test("reads the JSON content a row at a time: a row past the shape limits is refused, the others stored", async () => {
    const { admin, s, walter } = await practice();
    const wide = Object.fromEntries(Array.from({ length: 1_001 }, (_, i) => [`k${i}`, "1"]));
    const rows = [row("j-1", walter), row("j-wide", walter, wide), row("j-2", walter, { notes: '[],{"' })];
    const res = await upload(s, JSON.stringify(rows, null, 1));
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<BatchUploadResponse>()).toMatchObject({
      created: 2,
      rejected: [
        {
          row: 2,
          field: "row",
          message: "No object or array in it may hold more than 1,000 keys or elements.",
        },
      ],
    });
    const stored = await inspect(() =>
      t.db.select({ n: count() }).from(surveyResults).where(eq(surveyResults.tenantId, admin.tenantId)),
    );
    expect(stored[0]!.n).toBe(2);
  });

  test("stores nothing from JSON content whose array is not JSON, wherever it breaks", async () => {
    const { admin, s, walter } = await practice();
    const rows = Array.from({ length: 2_500 }, (_, i) => JSON.stringify(row(`b-${i}`, walter)));
    for (const content of [`[${rows.join(",")}`, `[${rows.join(",")}] x`, `[${rows.join(" ")}]`, "[1,]"]) {
      const res = await upload(s, content);
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json()).toMatchObject({ responseStatus: { errors: [{ field: "content" }] } });
    }
    const stored = await inspect(() =>
      t.db.select({ n: count() }).from(surveyResults).where(eq(surveyResults.tenantId, admin.tenantId)),
    );
    expect(stored[0]!.n).toBe(0);
  });
});
