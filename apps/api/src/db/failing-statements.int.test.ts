import { afterAll, beforeAll, describe, expect, inject, test } from "vitest";
import { sql } from "drizzle-orm";
import { createTestApp, createTestDatabase, login, type Session, type TestApp } from "../../test/helpers.js";
import { rowsOf, type Database } from "./index.js";

// The promise: a statement that fails never affects another one, however they interleave. PGlite
// runs every statement in one session, so this is where a failure could leak into the next request.
describe("a failing statement beside good ones", () => {
  let database: Database;
  beforeAll(async () => {
    database = await createTestDatabase();
    await database.db.execute(sql`create table wedge_probe (id int primary key, name text not null)`);
    await database.db.execute(sql`insert into wedge_probe values (1, 'one')`);
  });
  afterAll(async () => {
    await database.close();
  });

  /** Each kind of failure the portal meets: a duplicate key, a NUL byte, a failure inside a transaction. */
  const failing = [
    () => database.db.execute(sql`insert into wedge_probe values (1, 'again')`),
    () => database.db.execute(sql`insert into wedge_probe values (2, ${"nul \u0000 byte"})`),
    () =>
      database.db.transaction(async (tx) => {
        await tx.execute(sql`select 1`);
        await tx.execute(sql`insert into wedge_probe values (1, 'in a transaction')`);
      }),
    () => database.execute("wedge_probe_dup", sql`insert into wedge_probe values (${1}, ${"prepared"})`),
  ];
  const good = [
    async () =>
      rowsOf<{ name: string }>(await database.db.execute(sql`select name from wedge_probe where id = 1`))[0]
        ?.name,
    async () =>
      database.db.transaction(
        async (tx) =>
          rowsOf<{ name: string }>(await tx.execute(sql`select name from wedge_probe where id = 1`))[0]?.name,
      ),
    async () =>
      rowsOf<{ name: string }>(
        await database.execute("wedge_probe_read", sql`select name from wedge_probe where id = ${1}`),
      )[0]?.name,
  ];

  test("every good statement answers and every failing one fails, thousands of times", async () => {
    // On a server each failed statement outside a transaction costs the pool a new connection, which
    // is slow to open; PGlite's session is reused, so it takes more rounds in the same time.
    const rounds = inject("dbKind") === "postgres" ? 100 : 250;
    const goodPerFailing = 2;
    let goodAnswered = 0;
    let failedCleanly = 0;
    for (let round = 0; round < rounds; round++) {
      const batch: Promise<void>[] = [];
      for (let i = 0; i < failing.length; i++) {
        const fail = failing[(round + i) % failing.length]!;
        batch.push(
          fail().then(
            () => expect.unreachable("a failing statement succeeded"),
            (err: unknown) => {
              expect(err).toBeInstanceOf(Error);
              failedCleanly++;
            },
          ),
        );
        for (let g = 0; g < goodPerFailing; g++) {
          const read = good[(round + i + g) % good.length]!;
          batch.push(
            read().then((name) => {
              expect(name).toBe("one");
              goodAnswered++;
            }),
          );
        }
      }
      await Promise.all(batch);
    }
    expect(goodAnswered).toBe(rounds * failing.length * goodPerFailing);
    expect(failedCleanly).toBe(rounds * failing.length);
  }, 60_000);
});

// The same through the API, as a clinic would meet it: a patient saved twice (409) and a name holding
// U+0000 (400) while colleagues list patients; every request answers, and sign-in still works after.
describe("failing requests beside good ones, through the API", () => {
  let t: TestApp;
  let s: Session;
  beforeAll(async () => {
    t = await createTestApp();
    const u = await t.createTestTenant({ role: "user" });
    s = await login(t.app, u.email);
  });
  afterAll(async () => {
    await t.close();
  });

  test("a duplicate MRN and a U+0000 beside patient lists, hundreds of rounds, all answered", async () => {
    const patient = (mrn: string, firstName = "Dup") => ({
      mrn,
      firstName,
      lastName: "Licate",
      dob: "1950-01-01",
      sex: "F",
    });
    expect(
      (await s.inject({ method: "POST", url: "/api/patients", payload: patient("DUP-1") })).statusCode,
    ).toBe(201);
    const rounds = inject("dbKind") === "postgres" ? 100 : 250;
    const statuses = new Map<number, number>();
    for (let round = 0; round < rounds; round++) {
      const answers = await Promise.all([
        s.inject({ method: "POST", url: "/api/patients", payload: patient("DUP-1") }),
        s.inject({ method: "GET", url: "/api/patients" }),
        s.inject({ method: "POST", url: "/api/patients", payload: patient(`N-${round}`, "a\u0000b") }),
        s.inject({ method: "GET", url: "/api/patients" }),
      ]);
      for (const answer of answers)
        statuses.set(answer.statusCode, (statuses.get(answer.statusCode) ?? 0) + 1);
    }
    expect(Object.fromEntries(statuses)).toEqual({ 200: rounds * 2, 400: rounds, 409: rounds });
    const u = await t.createTestUser(
      (await s.inject({ method: "GET", url: "/api/tenants/me" })).json<{ id: string }>().id,
    );
    await login(t.app, u.email);
  }, 120_000);
});
