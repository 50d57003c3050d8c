import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { and, eq } from "drizzle-orm";
import type { Survey } from "@core-care/schema";
import { BUILTIN_SURVEYS, TELE_AWV_SURVEY_ID } from "@core-care/survey-engine";
import { createSecondServer, createTestApp, type TestApp } from "../../test/helpers.js";
import { surveys, surveyVersions } from "../db/schema.js";
import { installBuiltinSurveys, upgradeBuiltinSurveys } from "./builtin-surveys.js";

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
});

afterAll(async () => {
  await t.close();
});

/** A survey as a copy installed before the built-ins carried translations: the same, less every `translations`. */
function untranslated(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(untranslated);
  if (typeof value !== "object" || value === null) return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([key]) => key !== "translations")
      .map(([key, v]) => [key, untranslated(v)]),
  );
}

async function copyOf(tenantId: string, surveyId: string) {
  const [row] = await t.db
    .select({ version: surveys.version, definition: surveys.definition })
    .from(surveys)
    .where(and(eq(surveys.tenantId, tenantId), eq(surveys.id, surveyId)));
  if (row === undefined) throw new Error(`no copy of ${surveyId} in ${tenantId}`);
  return row;
}

async function setCopy(tenantId: string, surveyId: string, definition: Survey): Promise<void> {
  await t.db
    .update(surveys)
    .set({ definition })
    .where(and(eq(surveys.tenantId, tenantId), eq(surveys.id, surveyId)));
}

describe("built-in surveys installed before they carried translations", () => {
  test("an unchanged copy gets the translations as a new version at start; a changed one is left alone", async () => {
    const older = await t.createTestTenant();
    const edited = await t.createTestTenant();
    const current = await t.createTestTenant();
    for (const { tenantId } of [older, edited, current]) await installBuiltinSurveys(t.db, tenantId);

    for (const builtin of BUILTIN_SURVEYS) {
      const { definition } = await copyOf(older.tenantId, builtin.id);
      await setCopy(older.tenantId, builtin.id, untranslated(definition) as Survey);
    }
    const teleAwv = (await copyOf(edited.tenantId, TELE_AWV_SURVEY_ID)).definition;
    const practiceOwn = { ...(untranslated(teleAwv) as Survey), title: "Our own wellness visit" };
    await setCopy(edited.tenantId, TELE_AWV_SURVEY_ID, practiceOwn);
    const before = {
      older: await copyOf(older.tenantId, TELE_AWV_SURVEY_ID),
      current: await copyOf(current.tenantId, TELE_AWV_SURVEY_ID),
    };
    expect(JSON.stringify(before.older.definition)).not.toContain('"es"');

    // A restart brings them up to date (app.ts runs the upgrade on every start).
    const restarted = await createSecondServer(t);
    await restarted.close();

    for (const builtin of BUILTIN_SURVEYS) {
      const upgraded = await copyOf(older.tenantId, builtin.id);
      const installedVersion = Math.max(builtin.version, 1);
      expect(upgraded.version).toBe(installedVersion + 1);
      expect(upgraded.definition.translations, builtin.id).toEqual(builtin.translations);
      const [kept] = await t.db
        .select({ definition: surveyVersions.definition })
        .from(surveyVersions)
        .where(
          and(
            eq(surveyVersions.tenantId, older.tenantId),
            eq(surveyVersions.surveyId, builtin.id),
            eq(surveyVersions.version, upgraded.version),
          ),
        );
      expect(kept?.definition).toEqual(upgraded.definition);
    }
    const teleAwvCopy = (await copyOf(older.tenantId, TELE_AWV_SURVEY_ID)).definition;
    expect(teleAwvCopy.pages[0]?.translations?.es?.title).toBeTruthy();

    const editedCopy = await copyOf(edited.tenantId, TELE_AWV_SURVEY_ID);
    expect(editedCopy.definition).toEqual(practiceOwn);
    expect(editedCopy.version).toBe(before.current.version);
    expect(await copyOf(current.tenantId, TELE_AWV_SURVEY_ID)).toEqual(before.current);

    // Once up to date, nothing more changes.
    expect(await upgradeBuiltinSurveys(t.db)).toBe(0);
  });
});
