import { BUILTIN_SURVEYS } from "@core-care/survey-engine";
import { SurveySchema } from "@core-care/schema";
import type { DbOrTx } from "../db/index.js";
import { surveys, surveyVersions } from "../db/schema.js";

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
