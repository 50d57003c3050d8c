import { afterAll, describe, expect, test } from "vitest";
import { createPage, createQuestion, createSurvey, objectId, type Survey } from "@core-care/survey-engine";
import { SurveySchema } from "@core-care/schema";
import type { Database } from "../db/index.js";
import { surveys, surveyVersions, tenants } from "../db/schema.js";
import { createTestDatabase } from "../../test/helpers.js";
import { assertAnswersAllowed, forgetKeptSurveys } from "./answer-check.js";

/** A one-question survey whose radio question offers `choices`. */
const moodSurvey = (id: string, choices: string[]): Survey => ({
  ...createSurvey({ title: "Mood" }),
  id,
  pages: [
    {
      ...createPage({ title: "One" }),
      questions: [
        createQuestion("radio", {
          fieldName: "mood",
          title: "Mood",
          choices: choices.map((value) => ({ value, label: value })),
        }),
      ],
    },
  ],
});

/** A practice of the same id in `database`, with version 1 of the same survey id offering `choices`. */
async function practiceWith(database: Database, tenantId: string, surveyId: string, choices: string[]) {
  const definition = SurveySchema.parse(moodSurvey(surveyId, choices));
  await database.db.insert(tenants).values({
    id: tenantId,
    name: "Same practice",
    settings: { teleAwvEmail: false, alternateFalls: false },
  });
  await database.db
    .insert(surveys)
    .values({ tenantId, id: surveyId, title: "Mood", version: 1, canSubscribeTo: false, definition });
  await database.db.insert(surveyVersions).values({ tenantId, surveyId, version: 1, definition });
}

describe("the survey versions a process keeps", () => {
  const opened: Database[] = [];
  afterAll(async () => {
    await Promise.all(opened.map((database) => database.close()));
  });

  test("answer for the database they were read from until forgotten, then the new one's are read", async () => {
    const tenantId = `t-${objectId()}`;
    const surveyId = objectId();
    const save = { surveyId, patientId: objectId(), answers: { mood: "calm" }, isSubmitted: false };
    const first = await createTestDatabase();
    const second = await createTestDatabase();
    opened.push(first, second);
    // The same practice, survey and version in two databases; only the second offers "calm".
    await practiceWith(first, tenantId, surveyId, ["good", "bad"]);
    await practiceWith(second, tenantId, surveyId, ["good", "bad", "calm"]);

    await expect(assertAnswersAllowed(first.db, tenantId, save)).rejects.toMatchObject({ statusCode: 400 });
    // Kept from the first database: the second's version 1 is not read again.
    await expect(assertAnswersAllowed(second.db, tenantId, save)).rejects.toMatchObject({ statusCode: 400 });
    forgetKeptSurveys();
    await expect(assertAnswersAllowed(second.db, tenantId, save)).resolves.toBeUndefined();
  });
});
