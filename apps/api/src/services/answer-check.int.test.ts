import { afterAll, describe, expect, test } from "vitest";
import { createPage, createQuestion, createSurvey, objectId } from "@core-care/survey-engine";
import { SurveySchema } from "@core-care/schema";
import type { Database } from "../db/index.js";
import { tenants } from "../db/schema.js";
import { createTestDatabase } from "../../test/helpers.js";
import { assertAnswersAllowed, forgetKeptSurveys } from "./answer-check.js";
import { saveSurvey } from "./documents.js";

/** A practice of the same id in `database`, with version 1 of the same survey id offering `choices`. */
async function practiceWith(database: Database, tenantId: string, surveyId: string, choices: string[]) {
  await database.db.insert(tenants).values({
    id: tenantId,
    name: "Same practice",
    settings: { teleAwvEmail: false, alternateFalls: false },
  });
  const mood = createQuestion("radio", {
    fieldName: "mood",
    title: "Mood",
    choices: choices.map((value) => ({ value, label: value })),
  });
  const survey = createSurvey({ id: surveyId, title: "Mood", pages: [createPage({ questions: [mood] })] });
  await saveSurvey(database.db, tenantId, SurveySchema.parse(survey), "test");
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
