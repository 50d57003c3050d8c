import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { and, eq, sql } from "drizzle-orm";
import { objectId } from "@core-care/survey-engine";
import { TOTAL_CAP, type PagedList, type Patient, type PatientInput } from "@core-care/schema";
import {
  createTestApp,
  errorFields,
  inspect,
  login,
  type Session,
  type TestApp,
} from "../../../test/helpers.js";
import { patients } from "../../db/schema.js";
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

type Page = PagedList<Patient>;

async function signedIn() {
  const u = await t.createTestTenant({ role: "user" });
  return { u, s: await login(t.app, u.email) };
}

async function create(s: Session, patient: Partial<PatientInput>): Promise<Patient> {
  const res = await s.inject({
    method: "POST",
    url: "/api/patients",
    payload: {
      mrn: `M-${objectId().slice(-8)}`,
      firstName: "Pat",
      lastName: "Doe",
      dob: "1970-01-01",
      sex: "U",
      ...patient,
    },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json<Patient>();
}

const list = async (s: Session, query: Record<string, string>): Promise<Page> => {
  const res = await s.inject({
    method: "GET",
    url: `/api/patients?${new URLSearchParams(query).toString()}`,
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<Page>();
};

/** Rows written straight to the table: many patients without a request each. */
async function insertPatients(tenantId: string, rows: Partial<typeof patients.$inferInsert>[]) {
  await inspect(() =>
    t.db.insert(patients).values(
      rows.map((row) => ({
        tenantId,
        id: objectId(),
        mrn: `B-${objectId().slice(-10)}`,
        firstName: "Pat",
        lastName: "Doe",
        dob: "1970-01-01",
        sex: "U" as const,
        ...row,
      })),
    ),
  );
}

describe("GET /api/patients?q= (find a patient the way clinics search)", () => {
  let s: Session;
  let walter: Patient;

  beforeAll(async () => {
    ({ s } = await signedIn());
    walter = await create(s, {
      firstName: "Walter",
      lastName: "Hobbs",
      mrn: "WH-1952",
      dob: "1952-11-02",
      email: "walter.hobbs@example.test",
      phone: "555-201-3344",
    });
    // Each shares some of Walter's words, never all of them.
    await create(s, { firstName: "Walter", lastName: "Smith", dob: "1952-11-03", phone: "555-201-9999" });
    await create(s, { firstName: "Ann", lastName: "Hobbs", dob: "1952-02-11", email: "ann@example.test" });
    await create(s, { firstName: "José", lastName: "Núñez", mrn: "JN-7" });
    await create(s, { firstName: "ZOË", lastName: "Ångström" });
  });

  test.each([
    "Walter Hobbs",
    "Hobbs, Walter",
    "Hobbs Walter",
    "hobbs,walter",
    "  WALTER   hobbs ",
    "Hobbs, Walter (WH-1952)",
    "wh-1952",
    "1952-11-02",
    "11/02/1952",
    "Hobbs 11/02/1952",
    "walter.hobbs@example.test",
    "Walter.Hobbs@Example.TEST",
    "555-201-3344",
    "(555) 201-3344",
    "5552013344",
    "555.201.3344",
  ])("finds Walter Hobbs and only him by %j", async (q) => {
    const page = await list(s, { q });
    expect(page.items.map((p) => p.id)).toEqual([walter.id]);
    expect(page).toMatchObject({ total: 1, totalCapped: false });
  });

  test.each([
    ["jose nunez", "Núñez"],
    ["NÚÑEZ José", "Núñez"],
    ["zoe angstrom", "Ångström"],
    ["Ångström, Zoë", "Ångström"],
  ])("folds case and accents: %j finds %s", async (q, lastName) => {
    const page = await list(s, { q });
    expect(page.items.map((p) => p.lastName)).toEqual([lastName]);
  });

  test("searches of one shape share a prepared statement, and each finds its own matches every time", async () => {
    // Four rounds: past the five runs after which PostgreSQL may keep one plan for the statement.
    const expected: [string, string[]][] = [
      ["hobbs", ["Hobbs", "Hobbs"]],
      ["smith", ["Smith"]],
      ["nunez", ["Núñez"]],
      ["angstrom", ["Ångström"]],
      ["walter", ["Hobbs", "Smith"]],
    ];
    for (let round = 0; round < 4; round++) {
      for (const [q, lastNames] of expected) {
        const page = await list(s, { q });
        expect(
          page.items.map((p) => p.lastName),
          `${q}, round ${round}`,
        ).toEqual(lastNames);
        expect(page.total).toBe(lastNames.length);
      }
    }
  });

  test("the typeahead's five suggestions come sorted by last name", async () => {
    const page = await list(s, { q: "walter", limit: "5" });
    expect(page.items.map((p) => `${p.lastName}, ${p.firstName}`)).toEqual([
      "Hobbs, Walter",
      "Smith, Walter",
    ]);
  });

  test.each([
    ["hobs", ["Hobbs, Ann", "Hobbs, Walter"]],
    ["Hobs, Walter", ["Hobbs, Walter"]],
    ["walter hobss", ["Hobbs, Walter"]],
  ])("forgives a typo when nothing matches exactly: %j finds %j, ranked", async (q, names) => {
    const page = await list(s, { q });
    expect(page.items.map((p) => `${p.lastName}, ${p.firstName}`)).toEqual(names);
    expect(page).toMatchObject({
      total: names.length,
      totalCapped: false,
      nextCursor: null,
      prevCursor: null,
    });
  });

  test("an exact match is never mixed with typo-tolerant ones", async () => {
    // "hobbs" matches both Hobbs exactly; "smith" only Walter Smith, not the near "Smithe".
    const smithe = await create(s, { firstName: "Walter", lastName: "Smithe" });
    expect((await list(s, { q: "walter smith" })).items.map((p) => p.lastName)).toEqual(["Smith", "Smithe"]);
    await inspect(() =>
      t.db.update(patients).set({ deletedAt: new Date() }).where(eq(patients.id, smithe.id)),
    );
  });

  test("an impossible date is a word like any other and finds nobody", async () => {
    expect((await list(s, { q: "02/30/1952" })).total).toBe(0);
    expect((await list(s, { q: "1952-13-02" })).total).toBe(0);
  });

  test("finds only the session's practice's patients", async () => {
    const other = await signedIn();
    await create(other.s, { firstName: "Walter", lastName: "Hobbs", dob: "1952-11-02" });
    for (const q of ["Walter Hobbs", "11/02/1952"]) {
      const mine = await list(s, { q });
      expect(mine.items.map((p) => p.id)).toEqual([walter.id]);
      const theirs = await list(other.s, { q });
      expect(theirs.items.map((p) => p.id)).not.toContain(walter.id);
      expect(theirs.total).toBe(1);
    }
  });
});

/** Forty patients with these last names in turn, three first names and seven birth years among them. */
const insertForty = (tenantId: string, lastNames: string[]) =>
  insertPatients(
    tenantId,
    Array.from({ length: 40 }, (_, i) => ({
      lastName: lastNames[i % lastNames.length]!,
      firstName: ["Ana", "Bo", "Cy"][i % 3]!,
      dob: `19${50 + (i % 7)}-0${1 + (i % 9)}-1${i % 10}`,
    })),
  );

describe("GET /api/patients (keyset paging and capped totals)", () => {
  test.each([
    ["lastName", "asc"],
    ["lastName", "desc"],
    ["firstName", "asc"],
    ["mrn", "desc"],
    ["dob", "asc"],
    ["dob", "desc"],
  ])("pages by %s %s with cursors: forwards and back, every patient once", async (sort, order) => {
    const { u, s } = await signedIn();
    await insertForty(u.tenantId, ["Ames", "Bell", "Bell", "Cruz", "Diaz", "Diaz", "Diaz", "Egan"]);
    const whole = await list(s, { sort, order, limit: "200" });
    expect(whole).toMatchObject({ total: 40, totalCapped: false, nextCursor: null, prevCursor: null });
    const forwards: Page[] = [await list(s, { sort, order, limit: "7" })];
    while (forwards.at(-1)!.nextCursor !== null) {
      forwards.push(await list(s, { sort, order, limit: "7", cursor: forwards.at(-1)!.nextCursor! }));
    }
    expect(forwards.flatMap((p) => p.items.map((x) => x.id))).toEqual(whole.items.map((x) => x.id));
    expect(forwards[0]!.prevCursor).toBeNull();
    // Back from the last page, page by page, to the first.
    let back = forwards.at(-1)!;
    for (let i = forwards.length - 2; i >= 0; i--) {
      back = await list(s, { sort, order, limit: "7", cursor: back.prevCursor! });
      expect(back.items.map((x) => x.id)).toEqual(forwards[i]!.items.map((x) => x.id));
    }
    expect(back.prevCursor).toBeNull();
  });

  test.each([
    ["lastName", "asc"],
    ["firstName", "desc"],
    ["dob", "asc"],
  ])(
    "a search pages by %s %s with cursors and page numbers: every match once, the total of all matches on each page",
    async (sort, order) => {
      const { u, s } = await signedIn();
      await insertForty(u.tenantId, ["Ames", "Bellamy", "Bell", "Cruz", "Diaz", "Diaz", "Belling", "Egan"]);
      // "bell" is in Bell, Bellamy and Belling: 15 of the 40.
      const q = "bell";
      const everyone = await list(s, { sort, order, limit: "200" });
      const matching = everyone.items.filter((p) => p.lastName.toLowerCase().includes(q)).map((p) => p.id);
      expect(matching).toHaveLength(15);
      const whole = await list(s, { q, sort, order, limit: "200" });
      expect(whole.items.map((p) => p.id)).toEqual(matching);
      expect(whole).toMatchObject({ total: 15, totalCapped: false, nextCursor: null });
      const forwards: Page[] = [await list(s, { q, sort, order, limit: "4" })];
      while (forwards.at(-1)!.nextCursor !== null)
        forwards.push(await list(s, { q, sort, order, limit: "4", cursor: forwards.at(-1)!.nextCursor! }));
      expect(forwards.flatMap((p) => p.items.map((x) => x.id))).toEqual(matching);
      expect(forwards.map((p) => p.total)).toEqual([15, 15, 15, 15]);
      let back = forwards.at(-1)!;
      for (let i = forwards.length - 2; i >= 0; i--) {
        back = await list(s, { q, sort, order, limit: "4", cursor: back.prevCursor! });
        expect(back.items.map((x) => x.id)).toEqual(forwards[i]!.items.map((x) => x.id));
        expect(back.total).toBe(15);
      }
      const third = await list(s, { q, sort, order, limit: "4", page: "3" });
      expect(third.items.map((x) => x.id)).toEqual(matching.slice(8, 12));
      expect(third.total).toBe(15);
      // Past the last page of the 15 matches: 400 naming page and the last one.
      const beyond = await s.inject({
        method: "GET",
        url: `/api/patients?${new URLSearchParams({ q, sort, order, limit: "4", page: "5" }).toString()}`,
      });
      expect(beyond.statusCode, beyond.body).toBe(400);
      expect(errorFields(beyond)).toEqual(["page"]);
      expect(beyond.body).toContain("Must be at most 4;");
    },
  );

  test(`a search counts its matches no further than ${TOTAL_CAP}, and its page comes sorted with every field`, async () => {
    const { u, s } = await signedIn();
    await insertPatients(u.tenantId, [
      ...Array.from({ length: TOTAL_CAP + 5 }, (_, i) => ({
        lastName: "Smithers",
        firstName: `F${String(i).padStart(4, "0")}`,
        email: `smithers${i}@example.test`,
        address: { street: `${i} Main Street`, city: "Springfield", state: "OR", zip: "97477" },
      })),
      { lastName: "Jones", firstName: "Smith" },
    ]);
    const page = await list(s, { q: "smith", limit: "5" });
    expect(page).toMatchObject({ total: TOTAL_CAP, totalCapped: true });
    // Sorted by last name: "Jones" first, then the first four Smithers, each with all its fields.
    expect(page.items.map((p) => `${p.lastName} ${p.firstName}`)).toEqual([
      "Jones Smith",
      "Smithers F0000",
      "Smithers F0001",
      "Smithers F0002",
      "Smithers F0003",
    ]);
    expect(page.items[1]).toMatchObject({
      email: "smithers0@example.test",
      address: { street: "0 Main Street", city: "Springfield" },
    });
    // The deepest page number the capped count shows: the rows an OFFSET read gives, searched or not.
    const last = TOTAL_CAP / 5;
    const byOffset = (
      await inspect(() =>
        t.db
          .select({ id: patients.id })
          .from(patients)
          .where(eq(patients.tenantId, u.tenantId))
          .orderBy(patients.lastName, patients.firstName, patients.id)
          .limit(5)
          .offset((last - 1) * 5),
      )
    ).map((p) => p.id);
    expect((await list(s, { limit: "5", page: String(last) })).items.map((p) => p.id)).toEqual(byOffset);
    expect((await list(s, { q: "smith", limit: "5", page: String(last) })).items.map((p) => p.id)).toEqual(
      byOffset,
    );
    // One page beyond: 400 naming page, the list going on by cursor.
    for (const q of [{}, { q: "smith" }] as Record<string, string>[]) {
      const res = await s.inject({
        method: "GET",
        url: `/api/patients?${new URLSearchParams({ ...q, limit: "5", page: String(last + 1) }).toString()}`,
      });
      expect(res.statusCode, res.body).toBe(400);
      expect(errorFields(res)).toEqual(["page"]);
    }
  });

  test("no patient is skipped or repeated while patients are added between pages", async () => {
    const { u, s } = await signedIn();
    await insertPatients(
      u.tenantId,
      Array.from({ length: 450 }, (_, i) => ({ lastName: `Name${String(i % 90).padStart(2, "0")}` })),
    );
    const before = (await list(s, { limit: "200" })).items.map((p) => p.id);
    const seen: string[] = [];
    let page = await list(s, { limit: "200" });
    seen.push(...page.items.map((p) => p.id));
    while (page.nextCursor !== null) {
      // New patients land before, inside and after the pages still to come.
      await insertPatients(u.tenantId, [{ lastName: "Aaron" }, { lastName: "Name45" }, { lastName: "Zed" }]);
      page = await list(s, { limit: "200", cursor: page.nextCursor });
      seen.push(...page.items.map((p) => p.id));
    }
    expect(new Set(seen).size).toBe(seen.length);
    const all = await inspect(() => t.db.select({ id: patients.id }).from(patients));
    const original = new Set(all.map((r) => r.id));
    expect(before.every((id) => seen.includes(id))).toBe(true);
    expect(seen.filter((id) => original.has(id)).length).toBeGreaterThanOrEqual(450);
  });

  test(`counts no further than ${TOTAL_CAP}: past it the total is capped`, async () => {
    const { u, s } = await signedIn();
    await insertPatients(
      u.tenantId,
      Array.from({ length: TOTAL_CAP + 5 }, () => ({})),
    );
    const page = await list(s, {});
    expect(page).toMatchObject({ total: TOTAL_CAP, totalCapped: true });
    expect(page.items).toHaveLength(200);
    const few = await list(s, { q: "nobody-has-this" });
    expect(few).toMatchObject({ total: 0, totalCapped: false, items: [] });
  });

  test("a list counted past the cap is not counted again until a patient leaves it", async () => {
    const u = await t.createTestTenant({ role: "admin" });
    const s = await login(t.app, u.email);
    await insertPatients(
      u.tenantId,
      Array.from({ length: TOTAL_CAP + 2 }, () => ({})),
    );
    const capped = { total: TOTAL_CAP, totalCapped: true };
    const uncounted = () =>
      [...capturedStatements].filter(
        (text) =>
          text.includes('from "patients"') && text.includes("order by") && !text.includes("capped_total"),
      );
    const before = uncounted().length;
    expect(await list(s, {})).toMatchObject(capped);
    expect(uncounted()).toHaveLength(before);
    // The second read (any sort: the count is the same) sends the page's statement without the count.
    const again = await list(s, { sort: "firstName" });
    expect(again).toMatchObject(capped);
    expect(again.items).toHaveLength(200);
    expect(uncounted()).toHaveLength(before + 1);
    // Removed through the API: this server's next page counts again (1,002 - 2 = 1,000, not capped).
    const ids = again.items.slice(0, 2).map((p) => p.id);
    for (const id of ids) {
      const res = await s.inject({ method: "DELETE", url: `/api/patients/${id}` });
      expect(res.statusCode, res.body).toBe(204);
    }
    expect(await list(s, {})).toMatchObject({ total: TOTAL_CAP, totalCapped: false });
    await insertPatients(u.tenantId, [{}]);
    expect(await list(s, {})).toMatchObject(capped);
    expect(await list(s, {})).toMatchObject(capped);
    // Removed by anything else (another server, a hand-made statement): the database's trigger tells.
    await inspect(() =>
      t.db
        .update(patients)
        .set({ deletedAt: new Date() })
        .where(and(eq(patients.tenantId, u.tenantId), eq(patients.id, again.items[2]!.id))),
    );
    await expect.poll(() => list(s, {})).toMatchObject({ total: TOTAL_CAP, totalCapped: false });
  });

  test("a page past the end is empty and still tells the list's total", async () => {
    const { u, s } = await signedIn();
    await insertPatients(u.tenantId, [{ lastName: "Ames" }, { lastName: "Bell" }]);
    const beyond = encodeCursor({ dir: "next", key: ["zzzz", "zzzz", "f".repeat(24)] });
    expect(await list(s, { cursor: beyond })).toMatchObject({
      items: [],
      total: 2,
      totalCapped: false,
      nextCursor: null,
    });
  });

  test.each([
    ["cursor=not*base64", "cursor"],
    [`cursor=${Buffer.from('["next","x"]').toString("base64url")}`, "cursor"],
    [`sort=dob&cursor=${Buffer.from('["next","1952-13-45","a","b","c"]').toString("base64url")}`, "cursor"],
    [`cursor=${Buffer.from('["sideways","a","b","c"]').toString("base64url")}`, "cursor"],
  ])("answers 400 naming cursor for ?%s", async (query, field) => {
    const { s } = await signedIn();
    const res = await s.inject({ method: "GET", url: `/api/patients?${query}` });
    expect(res.statusCode, res.body).toBe(400);
    expect(errorFields(res)).toEqual([field]);
  });
});

describe("GET /api/patients?q=<an MRN> (probed on the MRN index first)", () => {
  /** A practice whose MRNs share their prefix, as a hospital's numbering does. */
  async function numbered() {
    const { u, s } = await signedIn();
    await insertPatients(
      u.tenantId,
      Array.from({ length: 600 }, (_, i) => ({
        mrn: `MRNa00${400000 + i}`,
        lastName: `L${i}`,
      })),
    );
    await insertPatients(u.tenantId, [
      { mrn: "MRNa0031235", lastName: "Exact", firstName: "Erin" },
      { mrn: "MRNa00312350", lastName: "Longer", firstName: "Lee" },
      { mrn: "XMRNa0031235", lastName: "Prefixed", firstName: "Pia" },
    ]);
    return { u, s };
  }

  test("an MRN as typed answers its one patient, though the search would match others holding it", async () => {
    const { s } = await numbered();
    for (const q of ["MRNa0031235", " (MRNa0031235) "]) {
      const page = await list(s, { q, limit: "5" });
      expect(page.items.map((p) => p.lastName)).toEqual(["Exact"]);
      expect(page).toMatchObject({ total: 1, totalCapped: false, nextCursor: null, prevCursor: null });
    }
    // Not an MRN of the practice (another case, a part of one): the search as always.
    expect((await list(s, { q: "mrna0031235", limit: "5" })).items.map((p) => p.lastName)).toEqual([
      "Exact",
      "Longer",
      "Prefixed",
    ]);
    expect((await list(s, { q: "MRNa003123", limit: "5" })).total).toBe(3);
    // Another practice's MRN is not probed into: theirs is not found.
    const other = await signedIn();
    expect(await list(other.s, { q: "MRNa0031235" })).toMatchObject({ items: [], total: 0 });
  });

  test("the probe's statement reads patients_mrn_key", async () => {
    const { u, s } = await numbered();
    await list(s, { q: "MRNa0031235", limit: "5" });
    const probe = [...capturedStatements].find((text) => /"patients"\."mrn" = \$2/.test(text));
    expect(probe).toBeDefined();
    const plan = await inspect(() =>
      t.db.transaction(async (tx) => {
        await tx.execute(sql`analyze patients`);
        await tx.execute(sql.raw(`prepare mrn_probe as ${probe!}`));
        const explained = await tx.execute(
          sql.raw(`explain execute mrn_probe('${u.tenantId}', 'MRNa0031235', 1)`),
        );
        await tx.execute(sql`deallocate mrn_probe`);
        return rowsOf<{ "QUERY PLAN": string }>(explained)
          .map((row) => row["QUERY PLAN"])
          .join("\n");
      }),
    );
    expect(plan).toMatch(/Index Scan using patients_mrn_key/);
    expect(plan).not.toMatch(/patients_search_idx/);
  });
});
