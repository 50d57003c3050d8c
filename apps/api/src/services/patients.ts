import { and, asc, count, desc, eq, isNotNull, isNull, sql, type Placeholder } from "drizzle-orm";
import type { AnyPgColumn } from "drizzle-orm/pg-core";
import { objectId } from "@core-care/survey-engine";
import {
  PAGE_SIZE,
  TOTAL_CAP,
  type PagedList,
  type Patient,
  type PatientInput,
  type PatientListQuery,
  type PatientSurvey,
} from "@core-care/schema";
import {
  executeOn,
  rowsOf,
  searchInTransaction,
  type Database,
  type Db,
  type DbOrTx,
  type Execute,
} from "../db/index.js";
import { locations, patients, patientSurveys } from "../db/schema.js";
import { conflict, fieldError, notFound } from "../errors.js";
import { isUniqueViolation } from "../db/errors.js";
import { cancelUnsentDeliveries } from "./delivery-cancel.js";
import { findReadableSurveyRef } from "./documents.js";
import {
  after,
  assertPageWithin,
  cappedCount,
  cappedOf,
  decodeCursor,
  pageOf,
  pageOffset,
  totalOfPage,
} from "./keyset.js";
import type { CappedLists } from "./capped-lists.js";
import { StatementShapes } from "../db/shapes.js";
import { mrnOf, patientFuzzyShape, patientSearch, patientSearchShape } from "./patient-search.js";

/** The columns a patient is answered with: no timestamps to parse, nor the search text. */
export const patientColumns = {
  id: patients.id,
  mrn: patients.mrn,
  firstName: patients.firstName,
  lastName: patients.lastName,
  dob: patients.dob,
  sex: patients.sex,
  email: patients.email,
  phone: patients.phone,
  address: patients.address,
  ethnicity: patients.ethnicity,
  race: patients.race,
  locationId: patients.locationId,
  preferredLanguage: patients.preferredLanguage,
};

type PatientRow = Pick<typeof patients.$inferSelect, keyof typeof patientColumns>;

/** A row of the list's statement as PostgreSQL names its columns (dates as text). */
interface RawPatientRow {
  id: string;
  mrn: string;
  first_name: string;
  last_name: string;
  dob: string;
  sex: PatientRow["sex"];
  email: string | null;
  phone: string | null;
  address: PatientRow["address"];
  ethnicity: string | null;
  race: string | null;
  location_id: string | null;
  preferred_language: string | null;
  capped_total: number;
}

const fromRaw = (row: RawPatientRow): PatientRow => ({
  id: row.id,
  mrn: row.mrn,
  firstName: row.first_name,
  lastName: row.last_name,
  dob: row.dob,
  sex: row.sex,
  email: row.email,
  phone: row.phone,
  address: row.address,
  ethnicity: row.ethnicity,
  race: row.race,
  locationId: row.location_id,
  preferredLanguage: row.preferred_language,
});

function toPatient(row: PatientRow): Patient {
  const patient: Patient = {
    id: row.id,
    mrn: row.mrn,
    firstName: row.firstName,
    lastName: row.lastName,
    dob: row.dob,
    sex: row.sex,
  };
  if (row.email !== null) patient.email = row.email;
  if (row.phone !== null) patient.phone = row.phone;
  if (row.address !== null) patient.address = row.address as NonNullable<Patient["address"]>;
  if (row.ethnicity !== null) patient.ethnicity = row.ethnicity as NonNullable<Patient["ethnicity"]>;
  if (row.race !== null) patient.race = row.race as NonNullable<Patient["race"]>;
  if (row.locationId !== null) patient.locationId = row.locationId;
  if (row.preferredLanguage === "en" || row.preferredLanguage === "es")
    patient.preferredLanguage = row.preferredLanguage;
  return patient;
}

function toColumns(input: PatientInput) {
  return {
    mrn: input.mrn,
    firstName: input.firstName,
    lastName: input.lastName,
    dob: input.dob,
    sex: input.sex,
    email: input.email ?? null,
    phone: input.phone ?? null,
    address: input.address ?? null,
    ethnicity: input.ethnicity ?? null,
    race: input.race ?? null,
    locationId: input.locationId ?? null,
    preferredLanguage: input.preferredLanguage ?? null,
  };
}

const live = (tenantId: string | Placeholder) =>
  and(eq(patients.tenantId, tenantId), isNull(patients.deletedAt));

/** The patients list's statement (without a search) in each of its shapes, built once (db/shapes.ts). */
const PATIENT_PAGES = new StatementShapes();

/** A patient search's statement in each of its shapes (the search's, the sort's and the paging's). */
const SEARCH_PAGES = new StatementShapes();

/** The MRN probe's statement (patients_mrn_key) and the typo-tolerant search's in each of its shapes. */
const MRN_PROBE = new StatementShapes();
const FUZZY_PAGES = new StatementShapes();

/** The columns of a list's row, the birth date as PostgreSQL writes it (the driver's own reading is a Date). */
const listColumns = () => ({ ...patientColumns, dob: sql<string>`${patients.dob}::text`.as("dob") });

/** One page holding `rows`, all there is: an MRN found, or the typo-tolerant search's ranked matches. */
const onePage = (rows: RawPatientRow[]): PagedList<Patient> => ({
  items: rows.map((row) => toPatient(fromRaw(row))),
  total: rows.length,
  totalCapped: false,
  nextCursor: null,
  prevCursor: null,
});

type SortKey = PatientListQuery["sort"];

/** Each sort's keyset, all columns in the same direction, ending in the id (one index each, tenant first). */
const KEYSETS: Record<SortKey, { column: AnyPgColumn; of: (p: PatientRow) => string; cast?: "date" }[]> = {
  lastName: [
    { column: patients.lastName, of: (p) => p.lastName },
    { column: patients.firstName, of: (p) => p.firstName },
    { column: patients.id, of: (p) => p.id },
  ],
  firstName: [
    { column: patients.firstName, of: (p) => p.firstName },
    { column: patients.lastName, of: (p) => p.lastName },
    { column: patients.id, of: (p) => p.id },
  ],
  mrn: [
    { column: patients.mrn, of: (p) => p.mrn },
    { column: patients.id, of: (p) => p.id },
  ],
  dob: [
    { column: patients.dob, of: (p) => p.dob, cast: "date" },
    { column: patients.lastName, of: (p) => p.lastName },
    { column: patients.firstName, of: (p) => p.firstName },
    { column: patients.id, of: (p) => p.id },
  ],
};

const validKeyPart = (value: string, cast: "date" | undefined) =>
  cast !== "date" || (/^\d{4}-\d{2}-\d{2}$/.test(value) && !Number.isNaN(Date.parse(`${value}T00:00:00Z`)));

/** How a patients list reads, where the database has ways of its own (see `Database`). */
export interface PatientListReads {
  /** The list's prepared statement (without a search). */
  execute?: Execute;
  searchReads?: Database["searchReads"];
  /** The lists known to be longer than the capped count, which are not counted again. */
  capped?: CappedLists;
}

/**
 * A page of the tenant's live patients: searched (src/services/patient-search.ts), sorted by one of
 * the list's keys, read by keyset from a cursor or by page number, with a total counted no further
 * than TOTAL_CAP + 1 rows (and without a search not at all once `reads.capped` knows the list longer).
 */
export async function listPatients(
  db: Db,
  tenantId: string,
  query: PatientListQuery,
  reads: PatientListReads = {},
): Promise<PagedList<Patient>> {
  const { execute = executeOn(db), searchReads = searchInTransaction(db), capped } = reads;
  const searched = patientSearchShape(query.q);
  const keyset = KEYSETS[query.sort];
  const cursor =
    query.cursor === undefined
      ? undefined
      : decodeCursor(query.cursor, keyset.length, (key) =>
          key.every((value, i) => validKeyPart(value, keyset[i]!.cast)),
        );
  const backwards = cursor?.dir === "prev";
  // Reading backwards flips the order; the page is put back in the list's order by pageOf.
  const ascending = (query.order === "asc") !== backwards;
  const order = ascending ? asc : desc;
  /** The keyset's condition and order on the table's columns. */
  const keysetAfter = (key: readonly unknown[]) =>
    after(
      keyset.map((k) => sql`${k.column}`),
      keyset.map((k, i) => (k.cast === "date" ? sql`${key[i]}::date` : sql`${key[i]}`)),
      ascending,
    );
  const keysetOrder = () => keyset.map((k) => order(k.column));
  // A page number beyond what the capped count shows is refused before any read (keyset.ts).
  const offset = cursor === undefined ? pageOffset(query.page, query.limit) : 0;
  /** The list without a search: walked in index order, the capped count beside it unless known. */
  const readAll = async () => {
    const stamp = capped?.stamp();
    const knownCapped = capped?.has(tenantId, "patients") ?? false;
    const shape = {
      sort: query.sort,
      ascending,
      cursor: cursor !== undefined,
      offset: offset > 0,
      counted: !knownCapped,
    };
    const build = () => {
      const listed = live(sql.placeholder("tenantId"));
      const key = keyset.map((_, i) => sql.placeholder(`key${i}`));
      const page = db
        // The birth date as PostgreSQL writes it: the driver's own reading of a date is a Date at local midnight.
        .select({
          ...patientColumns,
          dob: sql<string>`${patients.dob}::text`.as("dob"),
          ...(shape.counted ? { cappedTotal: cappedCount(patients, listed) } : {}),
        })
        .from(patients)
        .where(shape.cursor ? and(listed, keysetAfter(key)) : listed)
        .orderBy(...keysetOrder())
        .limit(sql.placeholder("limit"))
        .$dynamic();
      // No OFFSET at all unless asked for: a generic plan cannot know an OFFSET parameter is 0.
      return (shape.offset ? page.offset(sql.placeholder("offset")) : page).getSQL();
    };
    const values: Record<string, unknown> = { tenantId, limit: query.limit + 1, offset };
    cursor?.key.forEach((part, i) => (values[`key${i}`] = part));
    const statement = PATIENT_PAGES.of(JSON.stringify(shape), build, values);
    // A prepared statement per shape (sort, order, cursor, offset, counted), as the results list's.
    const raw = rowsOf<RawPatientRow>(await execute("patients-list#", statement));
    const counted = knownCapped
      ? cappedOf(TOTAL_CAP + 1)
      : await totalOfPage(db, raw, patients, () => live(tenantId));
    if (counted.totalCapped && !knownCapped) capped?.put(tenantId, "patients", stamp!);
    return { rows: raw.map(fromRaw), ...counted };
  };
  /**
   * A search reads the keys of its matches once, into a WITH query: the page's keys and the total come
   * from the same scan, and only the page's rows are read whole. (Holding whole rows there cost
   * PostgreSQL twice the CPU for "smith" at 50,000 patients: docs/scaling.md.) Built once per shape of
   * the search, so that a search costs neither building nor, on a server, planning each time.
   */
  const readFound = async (tx: DbOrTx, run: Execute, found: NonNullable<typeof searched>) => {
    const shape = {
      search: found.shape,
      sort: query.sort,
      ascending,
      cursor: cursor !== undefined,
      offset: offset > 0,
    };
    const build = () => {
      const keys = sql.join(
        keyset.map((k) => sql`${k.column}`),
        sql`, `,
      );
      const named = (prefix: string) =>
        keyset.map((k) => sql`${sql.identifier(prefix)}.${sql.identifier(k.column.name)}`);
      const key = keyset.map((k, i) =>
        k.cast === "date" ? sql`${sql.placeholder(`key${i}`)}::date` : sql`${sql.placeholder(`key${i}`)}`,
      );
      const direction = ascending ? sql`asc` : sql`desc`;
      const pageOrder = sql.join(
        named("found").map((column) => sql`${column} ${direction}`),
        sql`, `,
      );
      return sql`with found as (
          select ${keys} from ${patients}
          where ${and(live(sql.placeholder("tenantId")), found.conditions())}
        ), page as (
          select ${sql.join(named("found"), sql`, `)} from found
          ${shape.cursor ? sql`where ${after(named("found"), key, ascending)}` : sql``}
          order by ${pageOrder}
          limit ${sql.placeholder("limit")}
          ${shape.offset ? sql`offset ${sql.placeholder("offset")}` : sql``}
        )
        select ${patients.id}, ${patients.mrn}, ${patients.firstName}, ${patients.lastName},
          ${patients.dob}::text as dob, ${patients.sex}, ${patients.email}, ${patients.phone},
          ${patients.address}, ${patients.ethnicity}, ${patients.race}, ${patients.locationId},
          ${patients.preferredLanguage},
          (select least(count(*), ${sql.raw(String(TOTAL_CAP + 1))})::int from found) as capped_total
        from page join ${patients}
          on ${patients.tenantId} = ${sql.placeholder("tenantId")} and ${patients.id} = page.id
        order by ${sql.join(keysetOrder(), sql`, `)}`;
    };
    const values: Record<string, unknown> = { ...found.values, tenantId, limit: query.limit + 1, offset };
    cursor?.key.forEach((part, i) => (values[`key${i}`] = part));
    const statement = SEARCH_PAGES.of(JSON.stringify(shape), build, values);
    const raw = rowsOf<RawPatientRow>(await run("patients-search#", statement));
    return {
      rows: raw.map(fromRaw),
      ...(await totalOfPage(tx, raw, patients, () => and(live(tenantId), patientSearch(query.q)))),
    };
  };
  // PostgreSQL prices the trigram index's bitmap scan above walking the tenant's patients in name
  // order (or scanning them), and picks the walk: 60-100 ms for "smith" at 50,000 patients against
  // 7 ms by the index (docs/scaling.md). A search therefore reads with plain index scans and
  // sequential scans off (`searchReads`), which leaves bitmap scans: the trigram index, or a B-tree
  // index for a birth date.
  const firstPage = cursor === undefined && query.page === 1;
  // A search that looks like an MRN is probed on patients_mrn_key first, exactly as typed: one index
  // entry, where the trigram index intersects long posting lists for MRNs that share a prefix (175 ms
  // against 1.2 ms at 50,000 patients). Found, it is the answer; otherwise the search runs as always.
  const mrn = firstPage ? mrnOf(query.q) : undefined;
  if (mrn !== undefined) {
    const probe = MRN_PROBE.of(
      "mrn",
      () =>
        db
          .select(listColumns())
          .from(patients)
          .where(and(live(sql.placeholder("tenantId")), eq(patients.mrn, sql.placeholder("mrn"))))
          .limit(1)
          .getSQL(),
      { tenantId, mrn },
    );
    const found = rowsOf<RawPatientRow>(await execute("patients-mrn#", probe));
    if (found.length > 0) return onePage(found);
  }
  const { rows, total, totalCapped } =
    searched === undefined
      ? await readAll()
      : await searchReads((reader, run) => readFound(reader, run, searched));
  // Nothing found: the same words with typos forgiven ("hobs", "Hobs, Walter"), ranked by likeness.
  // Tried only then, so a search that finds its patients costs no more.
  const fuzzy = firstPage && total === 0 ? patientFuzzyShape(query.q) : undefined;
  if (fuzzy !== undefined) {
    const statement = FUZZY_PAGES.of(
      fuzzy.shape,
      () =>
        db
          .select(listColumns())
          .from(patients)
          .where(and(live(sql.placeholder("tenantId")), fuzzy.conditions()))
          .orderBy(
            sql`${fuzzy.score()} desc`,
            asc(patients.lastName),
            asc(patients.firstName),
            asc(patients.id),
          )
          .limit(sql.placeholder("limit"))
          .getSQL(),
      { ...fuzzy.values, tenantId, limit: query.limit },
    );
    return onePage(
      await searchReads(async (_, run) => rowsOf<RawPatientRow>(await run("patients-fuzzy#", statement))),
    );
  }
  if (cursor === undefined) assertPageWithin(query.page, query.limit, rows.length, { total, totalCapped });
  const { items, nextCursor, prevCursor } = pageOf(
    rows,
    query.limit,
    cursor,
    (row) => keyset.map((k) => k.of(row)),
    firstPage,
  );
  return { items: items.map(toPatient), total, totalCapped, nextCursor, prevCursor };
}

export async function getPatient(db: Db, tenantId: string, id: string): Promise<Patient> {
  const [row] = await db
    .select(patientColumns)
    .from(patients)
    .where(and(live(tenantId), eq(patients.id, id)))
    .limit(1);
  if (row === undefined) throw notFound("Patient");
  return toPatient(row);
}

/** A patient's location must be one of the tenant's own (400 naming `locationId` otherwise). */
async function assertOwnLocation(db: Db, tenantId: string, locationId: string | undefined): Promise<void> {
  if (locationId === undefined) return;
  const [row] = await db
    .select({ id: locations.id })
    .from(locations)
    .where(and(eq(locations.tenantId, tenantId), eq(locations.id, locationId)));
  if (row === undefined) throw fieldError("locationId", "Must be one of the practice's locations.");
}

export async function createPatient(db: Db, tenantId: string, input: PatientInput): Promise<Patient> {
  await assertOwnLocation(db, tenantId, input.locationId);
  const id = objectId();
  try {
    await db.insert(patients).values({ tenantId, id, ...toColumns(input) });
  } catch (err) {
    if (isUniqueViolation(err)) throw conflict("A patient with this MRN already exists.");
    throw err;
  }
  return getPatient(db, tenantId, id);
}

export async function updatePatient(
  db: Db,
  tenantId: string,
  id: string,
  input: PatientInput,
): Promise<Patient> {
  await assertOwnLocation(db, tenantId, input.locationId);
  try {
    const updated = await db
      .update(patients)
      .set({ ...toColumns(input), updatedAt: new Date() })
      .where(and(live(tenantId), eq(patients.id, id)))
      .returning({ id: patients.id });
    if (updated.length === 0) throw notFound("Patient");
  } catch (err) {
    if (isUniqueViolation(err)) throw conflict("A patient with this MRN already exists.");
    throw err;
  }
  return getPatient(db, tenantId, id);
}

/**
 * Removes a patient from every list and read, with their results; the row stays (results remain
 * attributable) and an admin can restore it.
 */
export async function deletePatient(
  db: Db,
  tenantId: string,
  id: string,
  actor: { userId: string | null; ip?: string | null } = { userId: null },
): Promise<void> {
  await db.transaction(async (tx) => {
    const deleted = await tx
      .update(patients)
      .set({ deletedAt: new Date() })
      .where(and(live(tenantId), eq(patients.id, id)))
      .returning({ id: patients.id });
    if (deleted.length === 0) throw notFound("Patient");
    // Their results leave every read with them; none of their deliveries not yet sent goes out.
    await cancelUnsentDeliveries(tx, tenantId, { patientId: id }, actor);
  });
}

/** Brings a removed patient back; 409 when their MRN has been given to another patient meanwhile. */
export async function restorePatient(db: Db, tenantId: string, id: string): Promise<Patient> {
  try {
    const restored = await db
      .update(patients)
      .set({ deletedAt: null, updatedAt: new Date() })
      .where(and(eq(patients.tenantId, tenantId), eq(patients.id, id), isNotNull(patients.deletedAt)))
      .returning({ id: patients.id });
    if (restored.length === 0) throw notFound("Removed patient");
  } catch (err) {
    if (isUniqueViolation(err)) throw conflict("Another patient has this MRN now.");
    throw err;
  }
  return getPatient(db, tenantId, id);
}

/** The tenant's removed patients, most recently removed first (one page). */
export async function listRemovedPatients(
  db: Db,
  tenantId: string,
): Promise<{ items: Patient[]; total: number }> {
  const where = and(eq(patients.tenantId, tenantId), isNotNull(patients.deletedAt));
  const rows = await db
    .select(patientColumns)
    .from(patients)
    .where(where)
    .orderBy(desc(patients.deletedAt), asc(patients.id))
    .limit(PAGE_SIZE);
  const [total] = await db.select({ n: count() }).from(patients).where(where);
  return { items: rows.map(toPatient), total: total?.n ?? 0 };
}

export async function listPatientSurveys(
  db: Db,
  tenantId: string,
  patientId: string,
): Promise<PatientSurvey[]> {
  await getPatient(db, tenantId, patientId);
  const rows = await db
    .select({ surveyId: patientSurveys.surveyId, assignedAt: patientSurveys.assignedAt })
    .from(patientSurveys)
    .where(and(eq(patientSurveys.tenantId, tenantId), eq(patientSurveys.patientId, patientId)))
    .orderBy(asc(patientSurveys.assignedAt));
  const result: PatientSurvey[] = [];
  for (const row of rows) {
    const found = await findReadableSurveyRef(db, tenantId, row.surveyId);
    result.push({
      surveyId: row.surveyId,
      title: found?.title ?? "",
      assignedAt: row.assignedAt.toISOString(),
    });
  }
  return result;
}

export async function assignSurvey(
  db: Db,
  tenantId: string,
  patientId: string,
  surveyId: string,
  userId: string,
): Promise<void> {
  await getPatient(db, tenantId, patientId);
  if ((await findReadableSurveyRef(db, tenantId, surveyId)) === undefined) throw notFound("Survey");
  await db
    .insert(patientSurveys)
    .values({ tenantId, patientId, surveyId, assignedBy: userId })
    .onConflictDoNothing();
}

export async function unassignSurvey(
  db: Db,
  tenantId: string,
  patientId: string,
  surveyId: string,
): Promise<void> {
  await getPatient(db, tenantId, patientId);
  const deleted = await db
    .delete(patientSurveys)
    .where(
      and(
        eq(patientSurveys.tenantId, tenantId),
        eq(patientSurveys.patientId, patientId),
        eq(patientSurveys.surveyId, surveyId),
      ),
    )
    .returning({ surveyId: patientSurveys.surveyId });
  if (deleted.length === 0) throw notFound("Survey assignment");
}
