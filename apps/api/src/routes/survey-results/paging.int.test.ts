import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { and, eq, sql } from "drizzle-orm";
import { objectId } from "@core-care/survey-engine";
import { TOTAL_CAP, type PagedList, type SurveyResultListItem } from "@core-care/schema";
import {
  createTestApp,
  errorFields,
  inspect,
  postResult,
  signedInWithPatient,
  type Session,
  type TestApp,
} from "../../../test/helpers.js";
import { surveyResults } from "../../db/schema.js";
import { rowsOf } from "../../db/index.js";
import { encodeCursor } from "../../services/keyset.js";
import { capturedStatements } from "../../../test/tenant-routing.js";

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

type Page = PagedList<SurveyResultListItem>;

/** A practice with one patient and one result saved through the API (the template of inserted rows). */
async function clinic(role: "user" | "admin" = "user") {
  const { u, s, patient } = await signedInWithPatient(
    t,
    { mrn: "WH-1952", firstName: "Walter", lastName: "Hobbs", dob: "1952-11-02", sex: "M" },
    { role },
  );
  const id = await postResult(s, patient.id, { a: 1 });
  const [template] = await inspect(() =>
    t.db
      .select()
      .from(surveyResults)
      .where(and(eq(surveyResults.tenantId, u.tenantId), eq(surveyResults.id, id))),
  );
  return { u, s, patient, template: template! };
}

type Template = Awaited<ReturnType<typeof clinic>>["template"];

/**
 * Results written straight to the table, `perInstant` of them sharing each created_at (to the
 * microsecond), the instants a second apart going back from `newest`.
 */
async function insertResults(template: Template, n: number, newest: Date, perInstant = 3) {
  const rows = Array.from({ length: n }, (_, i) => ({
    ...template,
    id: objectId(),
    clientRequestId: `bulk-${objectId()}`,
    createdAt: new Date(newest.getTime() - Math.floor(i / perInstant) * 1000),
  }));
  for (let i = 0; i < rows.length; i += 500) {
    await inspect(() => t.db.insert(surveyResults).values(rows.slice(i, i + 500)));
  }
}

const list = async (s: Session, query: Record<string, string>): Promise<Page> => {
  const url = `/api/surveyresults?${new URLSearchParams(query).toString()}`;
  const res = await s.inject({ method: "GET", url });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<Page>();
};

describe("GET /api/surveyresults (keyset paging, capped totals)", () => {
  test("no result is skipped or repeated across pages while results are saved", async () => {
    const { u, s, template } = await clinic();
    await insertResults(template, 650, new Date(Date.now() - 60_000));
    const present = await inspect(() =>
      t.db.select({ id: surveyResults.id }).from(surveyResults).where(eq(surveyResults.tenantId, u.tenantId)),
    );
    const ids: string[] = [];
    let page = await list(s, { duration: "0" });
    expect(page.prevCursor).toBeNull();
    ids.push(...page.items.map((r) => r.id));
    let added = 0;
    while (page.nextCursor !== null) {
      // New results arrive (newest) and a back-dated one in the middle of what is still to come.
      await insertResults(template, 3, new Date(), 3);
      await insertResults(template, 1, new Date(Date.now() - 60_000 - 150_000), 1);
      added += 4;
      page = await list(s, { duration: "0", cursor: page.nextCursor });
      ids.push(...page.items.map((r) => r.id));
    }
    expect(new Set(ids).size).toBe(ids.length);
    // Every result there when the reading began, once; of those added meanwhile, only ones behind it.
    expect(present).toHaveLength(651);
    expect(present.filter((r) => !ids.includes(r.id))).toEqual([]);
    expect(ids.length).toBeLessThanOrEqual(651 + added);
  });

  test("results a microsecond apart within one millisecond are neither skipped nor repeated by the cursors", async () => {
    const { u, s, template } = await clinic();
    await insertResults(template, 400, new Date(Date.now() - 60_000), 1);
    // Every result in one millisecond, each a microsecond before the next by id: a cursor that kept
    // only milliseconds would skip or repeat at each page's edge.
    await inspect(() =>
      t.db
        .execute(sql`update survey_results r set created_at = date_trunc('second', now() - interval '1 hour') + interval '123 milliseconds' + o.n * interval '1 microsecond'
        from (select id, row_number() over (order by id) as n from survey_results where tenant_id = ${u.tenantId}) o
        where r.tenant_id = ${u.tenantId} and r.id = o.id`),
    );
    const pages: Page[] = [await list(s, { duration: "0" })];
    while (pages.at(-1)!.nextCursor !== null) {
      pages.push(await list(s, { duration: "0", cursor: pages.at(-1)!.nextCursor! }));
    }
    const ids = pages.flatMap((p) => p.items.map((r) => r.id));
    expect(pages.map((p) => p.items.length)).toEqual([200, 200, 1]);
    expect(new Set(ids).size).toBe(401);
    expect(ids).toEqual([...ids].sort().reverse());
    // All in one millisecond, as the API writes them.
    expect(new Set(pages.flatMap((p) => p.items.map((r) => r.createdAt))).size).toBe(1);
    expect(pages[0]!.items[0]!.createdAt).toMatch(/\.123Z$/);
    const back = await list(s, { duration: "0", cursor: pages[2]!.prevCursor! });
    expect(back.items.map((r) => r.id)).toEqual(pages[1]!.items.map((r) => r.id));
  });

  test("Previous reads back the same pages as Next read", async () => {
    const { s, template } = await clinic();
    await insertResults(template, 450, new Date(Date.now() - 1000), 7);
    const pages: Page[] = [await list(s, { duration: "0" })];
    while (pages.at(-1)!.nextCursor !== null) {
      pages.push(await list(s, { duration: "0", cursor: pages.at(-1)!.nextCursor! }));
    }
    expect(pages.map((p) => p.items.length)).toEqual([200, 200, 51]);
    const back = await list(s, { duration: "0", cursor: pages[2]!.prevCursor! });
    expect(back.items.map((r) => r.id)).toEqual(pages[1]!.items.map((r) => r.id));
    const first = await list(s, { duration: "0", cursor: back.prevCursor! });
    expect(first.items.map((r) => r.id)).toEqual(pages[0]!.items.map((r) => r.id));
    expect(first.prevCursor).toBeNull();
    // The spec's page numbers still answer the same rows.
    const byNumber = await list(s, { duration: "0", page: "2" });
    expect(byNumber.items.map((r) => r.id)).toEqual(pages[1]!.items.map((r) => r.id));
  });

  test(`counts no further than ${TOTAL_CAP}; each filter's total is its own`, async () => {
    const { s, template, patient } = await clinic();
    await insertResults(template, TOTAL_CAP + 10, new Date(Date.now() - 1000));
    expect(await list(s, { duration: "0" })).toMatchObject({ total: TOTAL_CAP, totalCapped: true });
    expect(await list(s, { duration: "0", patientId: patient.id })).toMatchObject({
      total: TOTAL_CAP,
      totalCapped: true,
    });
    const today = await list(s, { duration: "1", patientId: objectId() });
    expect(today).toMatchObject({ total: 0, totalCapped: false, items: [], nextCursor: null });
  });

  test("a list counted past the cap is not counted again until a result or its patient leaves it", async () => {
    const { u, s, template, patient } = await clinic("admin");
    await insertResults(template, TOTAL_CAP + 2, new Date(Date.now() - 1000));
    const capped = { total: TOTAL_CAP, totalCapped: true };
    const uncounted = () =>
      [...capturedStatements].filter(
        (text) => text.includes('from "survey_results" left join') && !text.includes("capped_total"),
      );
    expect(await list(s, { duration: "5" })).toMatchObject(capped);
    expect(uncounted()).toEqual([]);
    // The second read sends the page's statement without the count, and still says "1,000+".
    const again = await list(s, { duration: "5" });
    expect(again).toMatchObject(capped);
    expect(again.items).toHaveLength(200);
    expect(uncounted()).toHaveLength(1);
    // Removed through the API: this server's next page counts again (1,003 - 3 = 1,000, not capped).
    const ids = again.items.slice(0, 3).map((r) => r.id);
    for (const id of ids) {
      const res = await s.inject({ method: "DELETE", url: `/api/surveyresults/${id}` });
      expect(res.statusCode, res.body).toBe(204);
    }
    expect(await list(s, { duration: "5" })).toMatchObject({ total: TOTAL_CAP, totalCapped: false });
    const restored = await s.inject({ method: "POST", url: `/api/surveyresults/${ids[0]}/restore` });
    expect(restored.statusCode, restored.body).toBe(200);
    expect(await list(s, { duration: "5" })).toMatchObject(capped);
    expect(await list(s, { duration: "5" })).toMatchObject(capped);
    // Removed by anything else (another server, a hand-made statement): the database's trigger tells.
    await inspect(() =>
      t.db
        .update(surveyResults)
        .set({ deletedAt: new Date() })
        .where(and(eq(surveyResults.tenantId, u.tenantId), eq(surveyResults.id, ids[0]!))),
    );
    await expect
      .poll(() => list(s, { duration: "5" }))
      .toMatchObject({ total: TOTAL_CAP, totalCapped: false });
    await inspect(() =>
      t.db
        .update(surveyResults)
        .set({ deletedAt: null })
        .where(and(eq(surveyResults.tenantId, u.tenantId), eq(surveyResults.id, ids[0]!))),
    );
    expect(await list(s, { duration: "5" })).toMatchObject(capped);
    expect(await list(s, { duration: "5" })).toMatchObject(capped);
    // The patient removed: every result goes with them.
    const removed = await s.inject({ method: "DELETE", url: `/api/patients/${patient.id}` });
    expect(removed.statusCode, removed.body).toBe(204);
    expect(await list(s, { duration: "5" })).toMatchObject({ total: 0, totalCapped: false, items: [] });
  });

  test(`page numbers reach the ${TOTAL_CAP} rows the capped count shows, each the rows an OFFSET read gives; beyond, 400 naming page`, async () => {
    const { u, s, template } = await clinic();
    await insertResults(template, TOTAL_CAP + 250, new Date(Date.now() - 1000));
    const last = TOTAL_CAP / 200;
    // Refused before the list is read (keyset.ts's pageOffset).
    for (const page of [String(last + 1), "2000", "1000000"]) {
      const res = await s.inject({ method: "GET", url: `/api/surveyresults?duration=0&page=${page}` });
      expect(res.statusCode, res.body).toBe(400);
      expect(errorFields(res)).toEqual(["page"]);
      expect(res.json<{ responseStatus: { message: string } }>().responseStatus.message).toBe(
        `Page: Must be at most ${last}; follow nextCursor past it.`,
      );
    }
    // The same rows as reading the list in its order and dropping the earlier pages' rows.
    const byOffset = await inspect(() =>
      t.db.execute(sql`select id from survey_results where tenant_id = ${u.tenantId}
        order by created_at desc, id desc limit 200 offset ${(last - 1) * 200}`),
    );
    const deepest = await list(s, { duration: "0", page: String(last) });
    expect(deepest.items.map((r) => r.id)).toEqual(rowsOf<{ id: string }>(byOffset).map((r) => r.id));
    // Past it the list goes on by cursor, one index probe at any depth.
    expect(deepest.nextCursor).not.toBeNull();
    const after = await list(s, { duration: "0", cursor: deepest.nextCursor! });
    expect(after.items).toHaveLength(200);
  });

  test("a page number past a short list's end answers 400 naming page and the last page", async () => {
    const { s, template } = await clinic();
    await insertResults(template, 250, new Date(Date.now() - 1000));
    expect((await list(s, { duration: "0", page: "2" })).items).toHaveLength(51);
    const res = await s.inject({ method: "GET", url: "/api/surveyresults?duration=0&page=3" });
    expect(res.statusCode, res.body).toBe(400);
    expect(errorFields(res)).toEqual(["page"]);
    expect(res.body).toContain("Must be at most 2;");
    // An empty list's first page is still a page.
    const empty = await list(s, { duration: "1", patientId: objectId() });
    expect(empty).toMatchObject({ items: [], total: 0 });
  });

  test("a page past the end is empty and still tells the list's total", async () => {
    const { s, template } = await clinic();
    await insertResults(template, 5, new Date(Date.now() - 1000));
    const beyond = encodeCursor({ dir: "next", key: ["0", "0".repeat(24)] });
    expect(await list(s, { duration: "0", cursor: beyond })).toMatchObject({
      items: [],
      total: 6,
      totalCapped: false,
      nextCursor: null,
    });
  });

  test("items carry the patient's names, MRN and birth date", async () => {
    const { s, patient, template } = await clinic();
    const page = await list(s, { duration: "0" });
    // Times are written as the API writes every time (toISOString), though PostgreSQL formats them.
    expect(page.items[0]).toMatchObject({
      createdAt: template.createdAt.toISOString(),
      updatedAt: template.updatedAt.toISOString(),
    });
    expect(page.items[0]?.surveyTitle).toMatch(/\S/);
    expect(page.items[0]).toMatchObject({
      patientId: patient.id,
      patientName: "Walter Hobbs",
      patientFirstName: "Walter",
      patientLastName: "Hobbs",
      patientMrn: "WH-1952",
      patientDob: "1952-11-02",
    });
    expect(page).toMatchObject({ total: 1, totalCapped: false, nextCursor: null, prevCursor: null });
  });

  test("another practice's cursor reads nothing of theirs", async () => {
    const a = await clinic();
    const b = await clinic();
    await insertResults(a.template, 250, new Date(Date.now() - 1000));
    const aPage = await list(a.s, { duration: "0" });
    const bPage = await list(b.s, { duration: "0", cursor: aPage.nextCursor! });
    const aIds = new Set(
      (await list(a.s, { duration: "0", cursor: aPage.nextCursor! })).items.map((r) => r.id),
    );
    expect(bPage.items.some((r) => aIds.has(r.id))).toBe(false);
  });

  test.each([
    "cursor=%25%25",
    `cursor=${Buffer.from('["next","12x","0123456789abcdef01234567"]').toString("base64url")}`,
    `cursor=${Buffer.from('["next","1","not-an-id"]').toString("base64url")}`,
    `cursor=${Buffer.from("{}").toString("base64url")}`,
  ])("answers 400 naming cursor for ?%s", async (query) => {
    const { s } = await clinic();
    const res = await s.inject({ method: "GET", url: `/api/surveyresults?${query}` });
    expect(res.statusCode, res.body).toBe(400);
    expect(errorFields(res)).toEqual(["cursor"]);
  });
});
