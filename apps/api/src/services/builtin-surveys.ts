import { and, eq } from "drizzle-orm";
import { BUILTIN_SURVEYS } from "@core-care/survey-engine";
import { SurveySchema } from "@core-care/schema";
import type { DbOrTx } from "../db/index.js";
import { surveys, surveyVersions, tenants } from "../db/schema.js";

/** Gives a tenant its own copy of the built-in surveys (Tele-AWV, wellness exams); existing ones stay. */
export async function installBuiltinSurveys(db: DbOrTx, tenantId: string): Promise<void> {
  for (const builtin of BUILTIN_SURVEYS) {
    const survey = SurveySchema.parse(builtin);
    const version = Math.max(survey.version, 1);
    const definition = { ...survey, version };
    const inserted = await db
      .insert(surveys)
      .values({
        tenantId,
        id: survey.id,
        title: survey.title,
        version,
        canSubscribeTo: survey.canSubscribeTo,
        definition,
      })
      .onConflictDoNothing()
      .returning({ id: surveys.id });
    if (inserted.length > 0) {
      await db
        .insert(surveyVersions)
        .values({ tenantId, surveyId: survey.id, version, definition })
        .onConflictDoNothing();
    }
  }
}

/** A value with its object keys sorted, the top `version` left out, and every `translations` too if asked. */
function canonical(value: unknown, dropTranslations: boolean, top = true): unknown {
  if (Array.isArray(value)) return value.map((item) => canonical(item, dropTranslations, false));
  if (typeof value !== "object" || value === null) return value;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value).sort()) {
    if ((dropTranslations && key === "translations") || (top && key === "version")) continue;
    out[key] = canonical((value as Record<string, unknown>)[key], dropTranslations, false);
  }
  return out;
}

const sameJson = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);

/**
 * Brings the translations of the built-in surveys to practices that installed them before: a copy whose
 * questions, choices and rules are still exactly the built-in's gets the built-in's translations as a new
 * version (kept in survey_versions like a designer save). A copy the practice has changed is left alone;
 * its translations are the practice's to edit. Answers stay as they are: translations change no value.
 * Answers how many copies were brought up to date.
 */
export async function upgradeBuiltinSurveys(db: DbOrTx): Promise<number> {
  const builtins = BUILTIN_SURVEYS.map((builtin) => SurveySchema.parse(builtin));
  const practices = await db.select({ id: tenants.id }).from(tenants);
  let upgraded = 0;
  for (const { id: tenantId } of practices) {
    for (const builtin of builtins) {
      const [copy] = await db
        .select({ version: surveys.version, definition: surveys.definition })
        .from(surveys)
        .where(and(eq(surveys.tenantId, tenantId), eq(surveys.id, builtin.id)))
        .limit(1);
      if (copy === undefined) continue;
      const stored = copy.definition as unknown;
      // Changed by the practice: theirs stands.
      if (!sameJson(canonical(stored, true), canonical(builtin, true))) continue;
      // Already the built-in's, translations and all.
      if (sameJson(canonical(stored, false), canonical(builtin, false))) continue;
      const version = copy.version + 1;
      const definition = { ...builtin, version };
      const changed = await db
        .update(surveys)
        .set({ version, definition, updatedAt: new Date() })
        .where(
          and(eq(surveys.tenantId, tenantId), eq(surveys.id, builtin.id), eq(surveys.version, copy.version)),
        )
        .returning({ id: surveys.id });
      if (changed.length === 0) continue; // saved meanwhile by someone else: theirs stands
      await db
        .insert(surveyVersions)
        .values({ tenantId, surveyId: builtin.id, version, definition })
        .onConflictDoNothing();
      upgraded += 1;
    }
  }
  return upgraded;
}
