import { PGlite } from "@electric-sql/pglite";
import pg from "pg";
import { describe, expect, test } from "vitest";
import { openDatabase } from "../src/db/index.js";
import { createTestApp, createTestDatabase, testDatabaseKind } from "./helpers.js";
import { freshServerStorage } from "./processes.js";

// This file is a unit file (*.test.ts): test/unit-setup.ts must fail each way it could open a database.
// A port nothing listens on: without the guard a connection fails there, with another message.
const NOWHERE = "postgres://postgres@127.0.0.1:1/postgres";
const REFUSED = /a unit test file \(\*\.test\.ts\) opens no database: name it \*\.int\.test\.ts/;

describe("a unit test file that opens a database fails", () => {
  test("through node-postgres, with a promise or a callback", async () => {
    await expect(new pg.Client({ connectionString: NOWHERE }).connect()).rejects.toThrow(REFUSED);
    const err = await new Promise<Error | undefined>((resolve) => {
      new pg.Client({ connectionString: NOWHERE }).connect((err: Error | undefined) => resolve(err));
    });
    expect(err?.message).toMatch(REFUSED);
    await expect(new pg.Pool({ connectionString: NOWHERE }).query("select 1")).rejects.toThrow(REFUSED);
  });

  test("through openDatabase (a PGlite thread speaks through the same pg clients)", async () => {
    await expect(openDatabase({ databaseUrl: NOWHERE })).rejects.toThrow(REFUSED);
  });

  test("through an in-process PGlite", async () => {
    await expect(PGlite.create()).rejects.toThrow(REFUSED);
    // Called on no instance: the guard answers before PGlite would look at one.
    const instance = Object.create(PGlite.prototype) as PGlite;
    await expect(instance.query("select 1")).rejects.toThrow(REFUSED);
    await expect(instance.exec("select 1")).rejects.toThrow(REFUSED);
    await expect(instance.transaction(async () => undefined)).rejects.toThrow(REFUSED);
  });

  test("through the test helpers' databases and server storage", async () => {
    expect(() => testDatabaseKind()).toThrow(REFUSED);
    await expect(createTestDatabase()).rejects.toThrow(REFUSED);
    await expect(createTestApp()).rejects.toThrow(REFUSED);
    await expect(freshServerStorage()).rejects.toThrow(REFUSED);
  });
});
