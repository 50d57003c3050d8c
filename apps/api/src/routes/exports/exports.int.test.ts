import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { Patient } from "@core-care/schema";
import {
  CORE_CARE_WELLNESS_EXAM_ID,
  coreCareWellnessExam,
  fillRequiredAnswers,
  objectId,
} from "@core-care/survey-engine";
import { parseCsv } from "../../delivery/batch/index.js";
import { patientsForExport, resultsForExport } from "../../services/list-export.js";
import { createInterface } from "../../services/interfaces.js";
import {
  createTestApp,
  errorFields,
  login,
  postPatient,
  type Session,
  type TestApp,
  type TestTenant,
} from "../../../test/helpers.js";

let t: TestApp;
let tenant: TestTenant;
let staff: Session;
const made: Patient[] = [];
const resultIds: string[] = [];

async function saveResult(session: Session, patientId: string, isSubmitted: boolean): Promise<string> {
  const res = await session.inject({
    method: "POST",
    url: "/api/surveyresults",
    payload: {
      clientRequestId: objectId(),
      surveyId: CORE_CARE_WELLNESS_EXAM_ID,
      patientId,
      isSubmitted,
      // A submission answers every required question; a draft may hold none.
      answers: isSubmitted ? fillRequiredAnswers(coreCareWellnessExam) : {},
    },
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<{ id: string }>().id;
}

/** The CSV's rows without the header, and the header. */
function csv(body: string): { header: string[]; rows: string[][] } {
  expect(body.startsWith("\uFEFF")).toBe(true);
  const [header = [], ...rows] = parseCsv(body);
  return { header, rows };
}

beforeAll(async () => {
  t = await createTestApp();
  tenant = await t.createTestTenant({ role: "user" });
  staff = await login(t.app, tenant.email);
  made.push(
    await postPatient(staff, { mrn: "X-1", firstName: "Walter", lastName: "Hobbs", dob: "1952-11-02" }),
  );
  made.push(
    await postPatient(staff, { mrn: "X-2", firstName: "Ada", lastName: "Abbott", dob: "1940-01-01" }),
  );
  made.push(
    await postPatient(staff, {
      mrn: "X-3",
      firstName: '=HYPERLINK("http://x")',
      lastName: "+Sum",
      dob: "1960-05-05",
    }),
  );
  for (const patient of made) resultIds.push(await saveResult(staff, patient.id, patient.mrn !== "X-2"));
  const other = await t.createTestTenant({ role: "user" });
  const otherStaff = await login(t.app, other.email);
  const stranger = await postPatient(otherStaff, {
    mrn: "X-9",
    firstName: "Olga",
    lastName: "Other",
    dob: "1950-01-01",
  });
  await saveResult(otherStaff, stranger.id, true);
});

afterAll(async () => {
  await t.close();
});

describe("GET /api/patients/export", () => {
  test("writes the practice's patients in the list's order, formula-looking names as text", async () => {
    const res = await staff.inject({ method: "GET", url: "/api/patients/export?sort=lastName&order=asc" });
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toBe("text/csv; charset=utf-8");
    expect(res.headers["content-disposition"]).toMatch(
      /^attachment; filename="patients-\d{4}-\d{2}-\d{2}\.csv"$/,
    );
    const { header, rows } = csv(res.body);
    expect(header).toEqual([
      "Last name",
      "First name",
      "MRN",
      "Date of birth",
      "Sex",
      "E-mail",
      "Phone",
      "Patient id",
    ]);
    expect(rows.map((r) => r[2])).toEqual(["X-3", "X-2", "X-1"]);
    expect(rows[0]?.slice(0, 2)).toEqual(["'+Sum", '\'=HYPERLINK("http://x")']);
    expect(res.body).not.toContain("Olga");
  });

  test("keeps to the search and the direction", async () => {
    const res = await staff.inject({ method: "GET", url: "/api/patients/export?q=hobbs" });
    expect(csv(res.body).rows.map((r) => r[2])).toEqual(["X-1"]);
    // The list's own search: a birth date as the clinic types it finds the same patient.
    const byDob = await staff.inject({ method: "GET", url: "/api/patients/export?q=11%2F02%2F1952" });
    expect(csv(byDob.body).rows.map((r) => r[2])).toEqual(["X-1"]);
    const desc = await staff.inject({ method: "GET", url: "/api/patients/export?sort=dob&order=desc" });
    expect(csv(desc.body).rows.map((r) => r[3])).toEqual(["1960-05-05", "1952-11-02", "1940-01-01"]);
  });

  test("is on the audit trail with its filters", async () => {
    await staff.inject({ method: "GET", url: "/api/patients/export?q=abbott" });
    const admin = await t.createTestUser(tenant.tenantId, { role: "admin" });
    const events = await (
      await login(t.app, admin.email)
    ).inject({ method: "GET", url: "/api/audit?action=export" });
    const event = events.json<{ items: { entity: string; details: unknown }[] }>().items[0];
    expect(event).toMatchObject({ entity: "patient-list", details: { q: "abbott" } });
  });

  test("answers 400 naming the field for an unknown sort", async () => {
    expect(errorFields(await staff.inject({ method: "GET", url: "/api/patients/export?sort=ssn" }))).toEqual([
      "sort",
    ]);
  });
});

describe("GET /api/surveyresults/export", () => {
  test("writes the practice's results with the patient's identifiers, newest first", async () => {
    const res = await staff.inject({ method: "GET", url: "/api/surveyresults/export?duration=5" });
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-disposition"]).toMatch(/filename="survey-results-\d{4}-\d{2}-\d{2}\.csv"/);
    const { header, rows } = csv(res.body);
    expect(header).toEqual([
      "Started (UTC)",
      "Last saved (UTC)",
      "Survey",
      "Survey version",
      "Status",
      "Last name",
      "First name",
      "MRN",
      "Date of birth",
      "Result id",
      "Patient id",
    ]);
    expect(rows.map((r) => r[9])).toEqual([...resultIds].reverse());
    expect(rows.find((r) => r[7] === "X-2")?.slice(2, 9)).toEqual([
      "Core Care Wellness Exam",
      "1",
      "In progress",
      "Abbott",
      "Ada",
      "X-2",
      "1940-01-01",
    ]);
    expect(rows.find((r) => r[7] === "X-3")?.[5]).toBe("'+Sum");
    expect(res.body).not.toContain("Olga");
  });

  test("keeps to the patient filter", async () => {
    const res = await staff.inject({
      method: "GET",
      url: `/api/surveyresults/export?patientId=${made[0]?.id}`,
    });
    expect(csv(res.body).rows.map((r) => r[7])).toEqual(["X-1"]);
  });

  test("answers 400 naming the field for an unknown duration", async () => {
    expect(
      errorFields(await staff.inject({ method: "GET", url: "/api/surveyresults/export?duration=3" })),
    ).toEqual(["duration"]);
  });
});

describe("GET /api/deliveries/export", () => {
  test("writes the practice's deliveries newest first, with interface and patient, formula-looking names as text", async () => {
    const iface = await createInterface(t.db, tenant.tenantId, {
      name: "=EHR inbox",
      type: "hl7-mllp",
      host: "127.0.0.1",
      port: 9,
      sendingApplication: "CORECARE",
      sendingFacility: "DEMO",
      receivingApplication: "EHR",
      receivingFacility: "HOSP",
    });
    const sent: string[] = [];
    for (const resultId of [resultIds[0], resultIds[2]]) {
      const res = await staff.inject({
        method: "POST",
        url: `/api/surveyresults/${resultId}/sendhl7`,
        payload: { interfaceId: iface.id },
      });
      expect(res.statusCode, res.body).toBe(202);
      sent.push(res.json<{ deliveryId: string }>().deliveryId);
    }
    const res = await staff.inject({ method: "GET", url: "/api/deliveries/export" });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers["content-disposition"]).toMatch(
      /^attachment; filename="deliveries-\d{4}-\d{2}-\d{2}\.csv"$/,
    );
    const { header, rows } = csv(res.body);
    expect(header[0]).toBe("Queued (UTC)");
    expect(rows.map((r) => r[11])).toEqual([...sent].reverse());
    expect(rows.map((r) => r[10])).toEqual([resultIds[2], resultIds[0]]);
    expect(rows[0]?.[3]).toBe("'=EHR inbox");
    expect(rows[1]?.[6]).toBe("Hobbs, Walter");
    expect(res.body).not.toContain("Olga");
    const none = await staff.inject({ method: "GET", url: "/api/deliveries/export?status=skipped" });
    expect(csv(none.body).rows).toEqual([]);
    expect(
      errorFields(await staff.inject({ method: "GET", url: "/api/deliveries/export?status=lost" })),
    ).toEqual(["status"]);
  });
});

describe("export pages", () => {
  test.each([1, 2, 100])("read %i row(s) a statement, none skipped or repeated", async (pageSize) => {
    const patients: string[] = [];
    for await (const rows of patientsForExport(
      t.db,
      tenant.tenantId,
      { sort: "lastName", order: "desc" },
      { pageSize },
    )) {
      patients.push(...rows.map((r) => r.mrn));
    }
    expect(patients).toEqual(["X-1", "X-2", "X-3"]);
    const results: string[] = [];
    for await (const rows of resultsForExport(t.db, tenant.tenantId, { duration: 5 }, { pageSize })) {
      results.push(...rows.map((r) => r.id));
    }
    expect(results).toEqual([...resultIds].reverse());
  });
});
