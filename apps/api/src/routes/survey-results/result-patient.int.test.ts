import { afterAll, beforeAll, describe, expect, inject, test } from "vitest";
import { and, eq, sql } from "drizzle-orm";
import pg from "pg";
import { CORE_CARE_WELLNESS_EXAM_ID, objectId } from "@core-care/survey-engine";
import type { SurveyResult, SurveyResultListItem } from "@core-care/schema";
import {
  createTestApp,
  postPatient,
  postResult,
  signedInWithPatient,
  type Session,
  type TestApp,
} from "../../../test/helpers.js";
import { rowsOf } from "../../db/index.js";
import { patients, surveyResults } from "../../db/schema.js";

// A result carries a copy of its patient's name, MRN, date of birth and removal, kept by the database's
// triggers (migration 0014), so the lists read survey_results alone. Whatever changes a patient, or
// whichever way a result is written, every list, export, report and read shows the patient as the
// patients table holds them, at once.

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

const clinic = () =>
  signedInWithPatient(
    t,
    { mrn: `N-${objectId().slice(-6)}`, firstName: "Nora", lastName: "Nash", dob: "1941-02-03" },
    { role: "admin" },
  );

/** The list's rows of these results as a clinic sees them, in every shape of the list that shows them. */
async function shown(s: Session, ids: string[], patientId: string) {
  const views: Record<string, Record<string, unknown>[]> = {};
  for (const query of ["duration=5", "duration=0", `duration=5&patientId=${patientId}`]) {
    const res = await s.inject({ method: "GET", url: `/api/surveyresults?${query}` });
    expect(res.statusCode, res.body).toBe(200);
    views[query] = res
      .json<{ items: SurveyResultListItem[] }>()
      .items.filter((item) => ids.includes(item.id))
      .map(({ patientName, patientFirstName, patientLastName, patientMrn, patientDob }) => ({
        patientName,
        patientFirstName,
        patientLastName,
        patientMrn,
        patientDob,
      }));
  }
  return views;
}

const everywhere = (rows: number, patient: Record<string, string>) => {
  const row = {
    patientName: [patient.firstName, patient.lastName].filter(Boolean).join(" "),
    patientFirstName: patient.firstName,
    patientLastName: patient.lastName,
    patientMrn: patient.mrn,
    patientDob: patient.dob,
  };
  const views = ["duration=5", "duration=0", "duration=5&patientId="];
  return (patientId: string) =>
    Object.fromEntries(
      views.map((view) => [view.endsWith("=") ? `${view}${patientId}` : view, Array(rows).fill(row)]),
    );
};

describe("a result shows its patient as the patient is now", () => {
  test("a patient's edit shows on each of their results in the list, a result, the CSV export and a report", async () => {
    const { s, patient } = await clinic();
    const ids = [await postResult(s, patient.id), await postResult(s, patient.id)];
    const before = { firstName: "Nora", lastName: "Nash", mrn: patient.mrn, dob: "1941-02-03" };
    expect(await shown(s, ids, patient.id)).toEqual(everywhere(2, before)(patient.id));

    const after = {
      firstName: "Leonora",
      lastName: "Ashby",
      mrn: `M-${objectId().slice(-6)}`,
      dob: "1942-03-04",
    };
    const { id: _id, ...fields } = patient;
    const put = await s.inject({
      method: "PUT",
      url: `/api/patients/${patient.id}`,
      payload: { ...fields, ...after },
    });
    expect(put.statusCode, put.body).toBe(200);

    expect(await shown(s, ids, patient.id)).toEqual(everywhere(2, after)(patient.id));
    const one = await s.inject({ method: "GET", url: `/api/surveyresults/${ids[0]}` });
    expect(one.json<SurveyResult>().patientName).toBe("Leonora Ashby");
    const csv = await s.inject({ method: "GET", url: `/api/surveyresults/export?patientId=${patient.id}` });
    expect(csv.statusCode).toBe(200);
    expect(csv.body).toContain(`Ashby,Leonora,${after.mrn},1942-03-04`);
    expect(csv.body).not.toContain("Nash");
    const report = await s.inject({
      method: "GET",
      url: "/api/surveyresults/report?duration=5&clinical=true",
    });
    const names = report.body
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as { type: string; result?: { patientName?: string } })
      .filter((line) => line.type === "result")
      .map((line) => line.result?.patientName);
    expect(names).toEqual(["Leonora Ashby", "Leonora Ashby"]);
  });

  test("a removed patient's results leave the list, the export and a single read, and come back on restore", async () => {
    const { u, s, patient } = await clinic();
    const id = await postResult(s, patient.id);
    expect((await s.inject({ method: "DELETE", url: `/api/patients/${patient.id}` })).statusCode).toBe(204);
    const [row] = await t.db
      .select({ removed: surveyResults.patientRemoved })
      .from(surveyResults)
      .where(and(eq(surveyResults.tenantId, u.tenantId), eq(surveyResults.id, id)));
    expect(row?.removed).toBe(true);
    expect(await shown(s, [id], patient.id)).toEqual(everywhere(0, {})(patient.id));
    expect((await s.inject({ method: "GET", url: `/api/surveyresults/${id}` })).statusCode).toBe(404);
    const csv = await s.inject({ method: "GET", url: "/api/surveyresults/export" });
    expect(csv.body).not.toContain(id);

    expect((await s.inject({ method: "POST", url: `/api/patients/${patient.id}/restore` })).statusCode).toBe(
      200,
    );
    const back = { firstName: "Nora", lastName: "Nash", mrn: patient.mrn, dob: "1941-02-03" };
    expect(await shown(s, [id], patient.id)).toEqual(everywhere(1, back)(patient.id));
    expect((await s.inject({ method: "GET", url: `/api/surveyresults/${id}` })).statusCode).toBe(200);
  });

  test("a result written before its patient exists shows no patient, then the patient once saved", async () => {
    const { u, s } = await clinic();
    const patientId = objectId();
    const id = objectId();
    await t.db.insert(surveyResults).values({
      tenantId: u.tenantId,
      id,
      surveyId: CORE_CARE_WELLNESS_EXAM_ID,
      surveyTenantId: "system",
      surveyVersion: 1,
      patientId,
      clientRequestId: `req-${id}`,
      answers: {},
    });
    const none = {
      patientName: "",
      patientFirstName: "",
      patientLastName: "",
      patientMrn: "",
      patientDob: "",
    };
    const list = async () => (await shown(s, [id], patientId))["duration=5"];
    expect(await list()).toEqual([none]);

    const mrn = `L-${objectId().slice(-6)}`;
    await t.db.insert(patients).values({
      tenantId: u.tenantId,
      id: patientId,
      mrn,
      firstName: "Lena",
      lastName: "Late",
      dob: "1950-05-06",
      sex: "F",
    });
    expect(await list()).toEqual([
      {
        patientName: "Lena Late",
        patientFirstName: "Lena",
        patientLastName: "Late",
        patientMrn: mrn,
        patientDob: "1950-05-06",
      },
    ]);

    // A patient deleted outright (not removed) leaves their results showing no patient, as before.
    await t.db.delete(patients).where(and(eq(patients.tenantId, u.tenantId), eq(patients.id, patientId)));
    expect(await list()).toEqual([none]);
  });

  test("names with characters JSON escapes, and an empty last name, list as they were saved", async () => {
    const { u, s } = await clinic();
    const patientId = objectId();
    const hard = { first: 'Zoë "Z" \\ O\'Neil\tTab \u0001 🙂', mrn: 'M"1\\\n2' };
    await t.db.insert(patients).values({
      tenantId: u.tenantId,
      id: patientId,
      mrn: hard.mrn,
      firstName: hard.first,
      lastName: "",
      dob: "0044-03-15",
      sex: "U",
    });
    const id = await postResult(s, patientId);
    expect(await shown(s, [id], patientId)).toEqual(
      everywhere(1, { firstName: hard.first, lastName: "", mrn: hard.mrn, dob: "0044-03-15" })(patientId),
    );
    const list = await s.inject({ method: "GET", url: `/api/surveyresults?patientId=${patientId}` });
    expect(list.json<{ items: SurveyResultListItem[] }>().items[0]?.patientName).toBe(hard.first);
  });

  test("a result moved to another patient shows that patient, and its copy cannot be written", async () => {
    const { u, s, patient } = await clinic();
    const other = await postPatient(s, {
      mrn: `O-${objectId().slice(-6)}`,
      firstName: "Otto",
      lastName: "Other",
      dob: "1939-09-09",
      sex: "M",
    });
    const id = await postResult(s, patient.id);
    const mine = and(eq(surveyResults.tenantId, u.tenantId), eq(surveyResults.id, id));
    await t.db.update(surveyResults).set({ patientId: other.id }).where(mine);
    const copy = () =>
      t.db
        .select({
          first: surveyResults.patientFirstName,
          last: surveyResults.patientLastName,
          mrn: surveyResults.patientMrn,
          dob: surveyResults.patientDob,
          removed: surveyResults.patientRemoved,
        })
        .from(surveyResults)
        .where(mine);
    const otto = { first: "Otto", last: "Other", mrn: other.mrn, dob: "1939-09-09", removed: false };
    expect(await copy()).toEqual([otto]);

    await t.db
      .update(surveyResults)
      .set({ patientFirstName: "Forged", patientMrn: "X", patientDob: "2000-01-01", patientRemoved: true })
      .where(mine);
    expect(await copy()).toEqual([otto]);
    await t.db.execute(
      sql`update survey_results set patient_last_name = null where tenant_id = ${u.tenantId} and id = ${id}`,
    );
    expect(await copy()).toEqual([otto]);
  });

  test("another practice's patient of the same id is never copied onto a result", async () => {
    const a = await clinic();
    const b = await clinic();
    const id = await postResult(a.s, a.patient.id);
    // Practice B's patient takes the same id as A's (ids are per practice); A's result keeps A's patient.
    await t.db
      .update(patients)
      .set({ id: a.patient.id })
      .where(and(eq(patients.tenantId, b.u.tenantId), eq(patients.id, b.patient.id)));
    await t.db
      .update(patients)
      .set({ firstName: "Bella" })
      .where(and(eq(patients.tenantId, b.u.tenantId), eq(patients.id, a.patient.id)));
    const [row] = await t.db
      .select({ first: surveyResults.patientFirstName })
      .from(surveyResults)
      .where(and(eq(surveyResults.tenantId, a.u.tenantId), eq(surveyResults.id, id)));
    expect(row?.first).toBe("Nora");
  });
});

// Two transactions at once need two connections: a PostgreSQL server's (PGlite has one).
if (inject("dbKind") === "postgres") {
  describe("a patient changed while a result of theirs is saved", () => {
    const urlOf = async (): Promise<string> => {
      const [row] = rowsOf<{ name: string }>(await t.db.execute(sql`select current_database() as name`));
      const url = new URL(inject("databaseUrl"));
      url.pathname = `/${row?.name ?? ""}`;
      return url.toString();
    };

    const insertResult = (client: pg.Client, tenantId: string, patientId: string, id: string) =>
      client.query(
        `insert into survey_results (tenant_id, id, survey_id, survey_tenant_id, survey_version, patient_id,
           client_request_id, answers) values ($1, $2, $3, 'system', 1, $4, $5, '{}')`,
        [tenantId, id, CORE_CARE_WELLNESS_EXAM_ID, patientId, `req-${id}`],
      );

    const firstNameOn = async (tenantId: string, id: string) => {
      const [row] = await t.db
        .select({ first: surveyResults.patientFirstName, removed: surveyResults.patientRemoved })
        .from(surveyResults)
        .where(and(eq(surveyResults.tenantId, tenantId), eq(surveyResults.id, id)));
      return row;
    };

    test.each([
      ["the patient's change commits first", "patient"],
      ["the result's save commits first", "result"],
    ] as const)("the result shows the change either way: %s", async (_name, first) => {
      const { u, patient } = await clinic();
      const url = await urlOf();
      const a = new pg.Client({ connectionString: url });
      const b = new pg.Client({ connectionString: url });
      await a.connect();
      await b.connect();
      try {
        const id = objectId();
        const [early, late] = first === "patient" ? [a, b] : [b, a];
        await early.query("begin");
        await late.query("begin");
        const change = () =>
          a.query(
            "update patients set first_name = 'Changed', deleted_at = now() where tenant_id = $1 and id = $2",
            [u.tenantId, patient.id],
          );
        const save = () => insertResult(b, u.tenantId, patient.id, id);
        // The first takes its lock; the second waits for it, and goes on only once the first commits.
        await (first === "patient" ? change() : save());
        let done = false;
        const second = (first === "patient" ? save() : change()).then(() => (done = true));
        await new Promise((resolve) => setTimeout(resolve, 300));
        expect(done).toBe(false);
        await early.query("commit");
        await second;
        await late.query("commit");
        expect(await firstNameOn(u.tenantId, id)).toEqual({ first: "Changed", removed: true });
      } finally {
        await a.end();
        await b.end();
      }
    });
  });
}
