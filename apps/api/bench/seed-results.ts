/**
 * Fills a fresh data folder for a benchmark of the web app: the demo data (as `pnpm seed`), then
 * `COUNT` submitted results of the Core Care Wellness Exam for the demo practice's patients, every
 * question answered, `TODAY` of them made today and the rest spread over the year before. The demo's
 * own few results are removed first, so the practice holds exactly these whatever the time of day.
 *
 *   tsx --conditions=source bench/seed-results.ts DATA_DIR COUNT TODAY
 */
import { and, eq, sql } from "drizzle-orm";
import {
  CORE_CARE_WELLNESS_EXAM_ID,
  coreCareWellnessExam,
  durationStart,
  objectId,
  questionPath,
  setAnswer,
  type Answers,
  type Question,
} from "@core-care/survey-engine";
import { openDatabase } from "../src/db/index.js";
import { patients, surveyResults, surveyVersions } from "../src/db/schema.js";
import { seedDemoData } from "../src/seed.js";

const [dataDir, countText = "10000", todayText = "1000"] = process.argv.slice(2);
if (dataDir === undefined) throw new Error("usage: seed-results.ts DATA_DIR COUNT TODAY");
const COUNT = Number(countText);
const TODAY = Number(todayText);
const DAY_MS = 86_400_000;

/** An answer to every question, as a patient filling the whole survey in would leave. */
function answerAll(questions: readonly Question[], prefix: string, answers: Answers, n: number): Answers {
  let out = answers;
  for (const question of questions) {
    const path = questionPath(question, prefix);
    const first = question.choices?.[n % Math.max(question.choices.length, 1)]?.value;
    switch (question.type) {
      case "group":
        out = answerAll(question.fields ?? [], path, out, n);
        break;
      case "html":
        break;
      case "text":
      case "textarea":
        out = setAnswer(out, path, `Answer ${n} to ${question.fieldName}`);
        break;
      case "number":
      case "scale":
        out = setAnswer(out, path, (question.min ?? 0) + (n % 10));
        break;
      case "date":
        out = setAnswer(out, path, "2026-01-15");
        break;
      case "phone":
        out = setAnswer(out, path, "555-123-4567");
        break;
      case "email":
        out = setAnswer(out, path, `patient${n}@example.test`);
        break;
      case "checkbox":
        out = setAnswer(out, path, first === undefined ? [] : [first]);
        break;
      case "select":
      case "radio":
      case "yesno":
        out = setAnswer(out, path, first ?? "yes");
        break;
    }
  }
  return out;
}

const database = await openDatabase({ pgliteDir: `${dataDir}/pglite` });
try {
  await seedDemoData(database.db, process.env.DEMO_PASSWORD ?? "core-care-demo-password");
  const [version] = await database.db
    .select({ version: sql<number>`max(${surveyVersions.version})` })
    .from(surveyVersions)
    .where(and(eq(surveyVersions.tenantId, "demo"), eq(surveyVersions.surveyId, CORE_CARE_WELLNESS_EXAM_ID)));
  const people = await database.db
    .select({ id: patients.id })
    .from(patients)
    .where(eq(patients.tenantId, "demo"));
  await database.db
    .update(surveyResults)
    .set({ deletedAt: new Date() })
    .where(eq(surveyResults.tenantId, "demo"));
  const now = Date.now();
  // Today's results within the last hour, but never before today began (a run just after midnight).
  const todayStart = durationStart(1, new Date(now)).getTime();
  for (let start = 0; start < COUNT; start += 1000) {
    const rows = [];
    for (let n = start; n < Math.min(start + 1000, COUNT); n++) {
      const createdAt = new Date(
        n < TODAY ? Math.max(todayStart, now - (n % 3600) * 1000) : now - (1 + (n % 360)) * DAY_MS,
      );
      rows.push({
        tenantId: "demo",
        id: objectId(),
        surveyId: CORE_CARE_WELLNESS_EXAM_ID,
        surveyTenantId: "demo",
        surveyVersion: version?.version ?? 1,
        patientId: people[n % people.length]?.id ?? objectId(),
        clientRequestId: objectId(),
        answers: coreCareWellnessExam.pages.reduce<Answers>(
          (answers, page) => answerAll(page.questions, "", answers, n),
          {},
        ),
        isSubmitted: true,
        submittedAt: createdAt,
        createdAt,
        updatedAt: createdAt,
      });
    }
    await database.db.insert(surveyResults).values(rows);
  }
  console.log(`seeded ${COUNT} results (${TODAY} today) of ${people.length} patients`);
} finally {
  await database.close();
}
