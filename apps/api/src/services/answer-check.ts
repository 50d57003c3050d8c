import { and, eq, sql } from "drizzle-orm";
import { checkAnswers, patientGlobals, type Survey } from "@core-care/survey-engine";
import { rowsOf, type DbOrTx } from "../db/index.js";
import { patients, surveyVersions, tenants } from "../db/schema.js";
import { badRequest, fieldMessage } from "../errors.js";
import { readableSurveySql } from "./documents.js";

/** Survey versions never change once written, so a process keeps the ones it has read. */
const definitions = new Map<string, Survey>();
const KEEP = 200;

/** A survey version's definition, kept once read (versions never change). */
export async function definitionOf(db: DbOrTx, tenantId: string, surveyId: string, version: number) {
  const key = `${tenantId}\u0000${surveyId}\u0000${version}`;
  const kept = definitions.get(key);
  if (kept !== undefined) return kept;
  const [row] = await db
    .select({ definition: surveyVersions.definition })
    .from(surveyVersions)
    .where(
      and(
        eq(surveyVersions.tenantId, tenantId),
        eq(surveyVersions.surveyId, surveyId),
        eq(surveyVersions.version, version),
      ),
    );
  if (row === undefined) return undefined;
  remember(definitions, key, row.definition, KEEP);
  return row.definition;
}

type SurveyRef = { tenant_id: string; survey_id: string; version: number };

/** A bounded map that forgets its oldest entry first. */
function remember<V>(map: Map<string, V>, key: string, value: V, keep: number) {
  if (map.size >= keep) map.delete(map.keys().next().value as string);
  map.set(key, value);
}

/** A result's pinned survey version never changes: kept for as long as there is room. */
const pinnedRefs = new Map<string, SurveyRef>();
/**
 * The version a tenant reads now for a survey id, kept a short while: a save then costs no extra round
 * trip. For up to `CURRENT_TTL_MS` after an admin publishes a new version, new results are checked
 * against the previous one (the save itself pins the new one).
 */
const currentRefs = new Map<string, { ref: SurveyRef | undefined; until: number }>();
const CURRENT_TTL_MS = 2_000;

/**
 * The survey version a save's answers belong to: the version an existing result is pinned to, or the
 * version of the survey the tenant reads now for a new one (the version the save will pin).
 */
async function surveyOfSave(
  db: DbOrTx,
  tenantId: string,
  input: { id?: string | undefined; surveyId: string },
  now: number,
): Promise<Survey | undefined> {
  let ref: SurveyRef | undefined;
  if (input.id === undefined) {
    const key = `${tenantId}\u0000${input.surveyId}`;
    const kept = currentRefs.get(key);
    if (kept !== undefined && kept.until > now) {
      ref = kept.ref;
    } else {
      [ref] = rowsOf<SurveyRef>(
        await db.execute(sql`select tenant_id, ${input.surveyId}::text as survey_id, version
          from (${readableSurveySql(tenantId, input.surveyId)}) readable`),
      );
      remember(currentRefs, key, { ref, until: now + CURRENT_TTL_MS }, KEEP * 10);
    }
  } else {
    const key = `${tenantId}\u0000${input.id}`;
    ref = pinnedRefs.get(key);
    if (ref === undefined) {
      [ref] = rowsOf<SurveyRef>(
        await db.execute(sql`select survey_tenant_id as tenant_id, survey_id, survey_version as version
          from survey_results where tenant_id = ${tenantId} and id = ${input.id}`),
      );
      if (ref !== undefined) remember(pinnedRefs, key, ref, KEEP * 50);
    }
  }
  return ref === undefined ? undefined : definitionOf(db, ref.tenant_id, ref.survey_id, ref.version);
}

/**
 * Forgets every survey version and reference kept here. A server process reads one database; a process
 * that moves to another (each API test file opens its own, and the files share one process) calls this
 * before it does, since the same tenant, survey and version can name other rows there.
 */
export function forgetKeptSurveys(): void {
  definitions.clear();
  pinnedRefs.clear();
  currentRefs.clear();
}

/** The condition globals (sex, age, tenant and location) of the patient, as the runner evaluated them. */
async function globalsOf(db: DbOrTx, tenantId: string, patientId: string, today: Date) {
  const [row] = await db
    .select({
      dob: patients.dob,
      sex: patients.sex,
      locationId: patients.locationId,
      settings: tenants.settings,
    })
    .from(patients)
    .innerJoin(tenants, eq(tenants.id, patients.tenantId))
    .where(and(eq(patients.tenantId, tenantId), eq(patients.id, patientId)));
  return row === undefined ? undefined : patientGlobals(row, { id: tenantId, settings: row.settings }, today);
}

/**
 * Refuses (400, naming each field in the `responseStatus` shape) answers the survey does not allow: a
 * choice it does not offer, a number out of range, a malformed date, e-mail or phone; and, on submit,
 * a required question that shows and has no answer. Drafts may be partial. A save whose survey or
 * patient the tenant cannot read passes here and is refused by the save itself (404).
 */
export async function assertAnswersAllowed(
  db: DbOrTx,
  tenantId: string,
  input: {
    id?: string | undefined;
    surveyId: string;
    patientId: string;
    answers: Record<string, unknown>;
    isSubmitted: boolean;
  },
  now = new Date(),
): Promise<void> {
  const survey = await surveyOfSave(db, tenantId, input, now.getTime());
  if (survey === undefined) return;
  const context = input.isSubmitted ? await globalsOf(db, tenantId, input.patientId, now) : undefined;
  const issues = checkAnswers(survey, input.answers, {
    submit: input.isSubmitted,
    ...(context === undefined ? {} : { context }),
  });
  if (issues.length === 0) return;
  const errors = issues.map((issue) => ({ field: `answers.${issue.field}`, message: issue.message }));
  const first = issues[0]!;
  throw badRequest(fieldMessage(`answers.${first.field}`, first.message), errors);
}
