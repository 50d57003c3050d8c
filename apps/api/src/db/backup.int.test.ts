import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { randomBytes } from "node:crypto";
import pg from "pg";
import { describe, expect, inject, test } from "vitest";
import { objectId } from "@core-care/survey-engine";
import type { Patient, SurveyResultListItem } from "@core-care/schema";
import { createTestApp, login, postResult } from "../../test/helpers.js";
import { backupDatabase, restoreDatabase, type BackupSource } from "./backup.js";
import { openDatabase } from "./index.js";

// A backup restored elsewhere reads back what was written: on the server (pg_dump / pg_restore) or
// the embedded database (its data folder archived while no server holds it).
describe("backup and restore", () => {
  test("a patient and their result written before the backup read back from the restored database", async () => {
    const work = mkdtempSync(join(tmpdir(), "core-care-backup-"));
    const serverUrl = inject("dbKind") === "postgres" ? inject("databaseUrl") : undefined;
    const made: string[] = [];
    const place = async (name: string): Promise<BackupSource> => {
      if (serverUrl === undefined) return { pgliteDir: join(work, name) };
      const database = `b_${process.pid}_${randomBytes(5).toString("hex")}`;
      const admin = new pg.Client({ connectionString: serverUrl });
      await admin.connect();
      await admin.query(`create database ${database}`);
      await admin.end();
      made.push(database);
      const url = new URL(serverUrl);
      url.pathname = `/${database}`;
      return { databaseUrl: url.toString() };
    };
    try {
      const original = await place("original");
      const database = await openDatabase(original);
      const t = await createTestApp({ database });
      const u = await t.createTestTenant({ role: "admin" });
      const s = await login(t.app, u.email);
      const mrn = `B-${objectId().slice(-8)}`;
      const created = await s.inject({
        method: "POST",
        url: "/api/patients",
        payload: { mrn, firstName: "Bea", lastName: "Kup", dob: "1944-04-04", sex: "F" },
      });
      expect(created.statusCode).toBe(201);
      const patient = created.json<Patient>();
      await postResult(s, patient.id);
      await t.close();
      await database.close();

      const file = join(work, "backup");
      await backupDatabase(original, file);
      const copy = await place("restored");
      await restoreDatabase(copy, file);

      const restored = await openDatabase(copy);
      const again = await createTestApp({ database: restored });
      try {
        const session = await login(again.app, u.email);
        const read = await session.inject({ method: "GET", url: `/api/patients/${patient.id}` });
        expect(read.statusCode).toBe(200);
        expect(read.json<Patient>()).toMatchObject({ mrn, firstName: "Bea", lastName: "Kup" });
        // The result's copy of its patient came back, and the triggers that keep it (migration 0014).
        const names = async () =>
          (await session.inject({ method: "GET", url: "/api/surveyresults?duration=5" }))
            .json<{ items: SurveyResultListItem[] }>()
            .items.map((item) => `${item.patientName} ${item.patientMrn}`);
        expect(await names()).toEqual([`Bea Kup ${mrn}`]);
        const renamed = await session.inject({
          method: "PUT",
          url: `/api/patients/${patient.id}`,
          payload: { ...read.json<Patient>(), id: undefined, lastName: "Kupfer" },
        });
        expect(renamed.statusCode, renamed.body).toBe(200);
        expect(await names()).toEqual([`Bea Kupfer ${mrn}`]);
      } finally {
        await again.close();
        await restored.close();
      }
    } finally {
      rmSync(work, { recursive: true, force: true });
      if (serverUrl !== undefined) {
        const admin = new pg.Client({ connectionString: serverUrl });
        await admin.connect();
        for (const name of made) await admin.query(`drop database if exists ${name} with (force)`);
        await admin.end();
      }
    }
  }, 180_000);
});
