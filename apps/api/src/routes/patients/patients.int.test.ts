import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { and, eq } from "drizzle-orm";
import { CORE_CARE_WELLNESS_EXAM_ID } from "@core-care/survey-engine";
import type { Patient, PatientSurvey } from "@core-care/schema";
import { createTestApp, errorFields, login, type Session, type TestApp } from "../../../test/helpers.js";
import { auditEvents, patients } from "../../db/schema.js";

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

const sample = (over: Record<string, unknown> = {}) => ({
  mrn: `M-${Math.random().toString(36).slice(2, 10)}`,
  firstName: "Grace",
  lastName: "Hopper",
  dob: "1940-12-09",
  sex: "F",
  email: "grace@example.test",
  phone: "555-123-4567",
  address: { street: "1 Navy Way", city: "Arlington", state: "VA", zip: "22202" },
  ethnicity: "Non Hispanic or Latino",
  race: "Caucasian",
  ...over,
});

async function signedIn(role: "user" | "admin" = "user") {
  const u = await t.createTestTenant({ role });
  return { u, s: await login(t.app, u.email) };
}

async function create(s: Session, over: Record<string, unknown> = {}) {
  const res = await s.inject({ method: "POST", url: "/api/patients", payload: sample(over) });
  expect(res.statusCode, res.body).toBe(201);
  return res.json<Patient>();
}

describe("POST /api/patients", () => {
  test("creates a patient and audits it", async () => {
    const { u, s } = await signedIn();
    const p = await create(s);
    expect(p).toMatchObject({ firstName: "Grace", address: { state: "VA" } });
    const events = await t.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.tenantId, u.tenantId), eq(auditEvents.entityId, p.id)));
    expect(events.map((e) => e.action)).toContain("create");
  });

  test("answers 409 for an MRN already used in the tenant", async () => {
    const { s } = await signedIn();
    await create(s, { mrn: "DUP-1" });
    const res = await s.inject({ method: "POST", url: "/api/patients", payload: sample({ mrn: "DUP-1" }) });
    expect(res.statusCode).toBe(409);
  });

  test.each([
    [{ dob: "12/09/1940" }, "dob"],
    [{ sex: "X" }, "sex"],
    [{ firstName: " " }, "firstName"],
    [{ email: "nope" }, "email"],
    [{ address: { street: "", city: "", state: "ZZ", zip: "" } }, "address.state"],
    [{ race: "Martian" }, "race"],
  ])("answers 400 for %j naming %s and stores nothing", async (over, field) => {
    const { u, s } = await signedIn();
    const res = await s.inject({ method: "POST", url: "/api/patients", payload: sample(over) });
    expect(res.statusCode).toBe(400);
    expect(errorFields(res)).toContain(field);
    expect(await t.db.select().from(patients).where(eq(patients.tenantId, u.tenantId))).toHaveLength(0);
  });

  test("answers 401 without a session and 403 without the CSRF header", async () => {
    const { s } = await signedIn();
    expect(
      (
        await t.app.inject({
          method: "POST",
          url: "/api/patients",
          headers: { "x-requested-with": "XMLHttpRequest" },
          payload: sample(),
        })
      ).statusCode,
    ).toBe(401);
    expect(
      (
        await t.app.inject({
          method: "POST",
          url: "/api/patients",
          headers: { cookie: s.cookie },
          payload: sample(),
        })
      ).statusCode,
    ).toBe(403);
  });
});

describe("GET /api/patients", () => {
  test("searches by name, MRN and e-mail, sorts and pages", async () => {
    const { s } = await signedIn();
    await create(s, { firstName: "Ada", lastName: "Lovelace", mrn: "A-1", email: "ada@example.test" });
    await create(s, { firstName: "Alan", lastName: "Turing", mrn: "B-2", email: "alan@example.test" });
    await create(s, { firstName: "Edsger", lastName: "Dijkstra", mrn: "C-3", email: "ed@example.test" });
    const byName = await s.inject({ method: "GET", url: "/api/patients?q=turi" });
    expect(byName.json<{ items: Patient[] }>().items.map((p) => p.lastName)).toEqual(["Turing"]);
    const byMrn = await s.inject({ method: "GET", url: "/api/patients?q=C-3" });
    expect(byMrn.json<{ items: Patient[] }>().items.map((p) => p.lastName)).toEqual(["Dijkstra"]);
    const byEmail = await s.inject({ method: "GET", url: "/api/patients?q=ada@" });
    expect(byEmail.json<{ total: number }>().total).toBe(1);
    const desc = await s.inject({ method: "GET", url: "/api/patients?sort=lastName&order=desc&limit=2" });
    expect(desc.json<{ items: Patient[]; total: number }>()).toMatchObject({ total: 3 });
    expect(desc.json<{ items: Patient[] }>().items.map((p) => p.lastName)).toEqual(["Turing", "Lovelace"]);
    const page2 = await s.inject({
      method: "GET",
      url: "/api/patients?sort=lastName&order=desc&limit=2&page=2",
    });
    expect(page2.json<{ items: Patient[] }>().items.map((p) => p.lastName)).toEqual(["Dijkstra"]);
    expect(desc.headers["cache-control"]).toBe("no-store");
  });

  test("treats LIKE wildcards in the search literally", async () => {
    const { s } = await signedIn();
    await create(s, { lastName: "Plain" });
    const res = await s.inject({ method: "GET", url: "/api/patients?q=%25" });
    expect(res.json<{ total: number }>().total).toBe(0);
  });

  test("never lists another tenant's patients", async () => {
    const a = await signedIn();
    const b = await signedIn();
    await create(a.s, { lastName: "OnlyInA" });
    const res = await b.s.inject({ method: "GET", url: "/api/patients?q=OnlyInA" });
    expect(res.json<{ total: number }>().total).toBe(0);
  });

  test.each([
    ["limit=201", "limit"],
    ["sort=ssn", "sort"],
    ["page=0", "page"],
    // Past the pages the capped count shows (1,000 rows), with or without a search: refused before a read.
    ["page=1000000", "page"],
    ["limit=5&page=201", "page"],
    ["q=smith&page=6", "page"],
    // Past the end of a list whose total is known.
    ["limit=1&page=2", "page"],
    ["order=up", "order"],
  ])("answers 400 for ?%s naming %s", async (query, field) => {
    const { s } = await signedIn();
    const res = await s.inject({ method: "GET", url: `/api/patients?${query}` });
    expect(res.statusCode).toBe(400);
    expect(errorFields(res)).toEqual([field]);
  });
});

describe("POST /api/patients failing beside GET /api/patients", () => {
  test("a 409 for a duplicate MRN never holds up the lists sent at the same moment", async () => {
    const { s } = await signedIn();
    await create(s, { mrn: "WEDGE-1", lastName: "Wedge" });
    const rounds = 60;
    const statuses: number[] = [];
    for (let round = 0; round < rounds; round++) {
      const answers = await Promise.all([
        s.inject({ method: "POST", url: "/api/patients", payload: sample({ mrn: "WEDGE-1" }) }),
        s.inject({ method: "GET", url: "/api/patients" }),
        s.inject({ method: "POST", url: "/api/patients", payload: sample({ mrn: "WEDGE-1" }) }),
        s.inject({ method: "GET", url: "/api/patients?q=wedge" }),
      ]);
      statuses.push(...answers.map((a) => a.statusCode));
      expect(answers[1]?.json<{ total: number }>().total).toBe(1);
      expect(answers[3]?.json<{ items: Patient[] }>().items.map((p) => p.mrn)).toEqual(["WEDGE-1"]);
    }
    expect(statuses).toEqual(Array.from({ length: rounds }, () => [409, 200, 409, 200]).flat());
    // And sign-in, which the wedge held up for everyone, still answers.
    await login(t.app, (await t.createTestTenant()).email);
  });
});

describe("a patient's location", () => {
  test("must be one of the practice's own: another practice's location id answers 400 and stores nothing", async () => {
    const a = await signedIn("admin");
    const b = await signedIn("admin");
    const location = await a.s.inject({
      method: "POST",
      url: "/api/locations",
      payload: { name: "North clinic", code: "NORTH" },
    });
    expect(location.statusCode, location.body).toBe(201);
    const locationId = location.json<{ id: string }>().id;

    const foreign = await b.s.inject({
      method: "POST",
      url: "/api/patients",
      payload: sample({ locationId }),
    });
    expect(foreign.statusCode).toBe(400);
    expect(errorFields(foreign)).toEqual(["locationId"]);
    expect((await b.s.inject({ method: "GET", url: "/api/patients" })).json<{ total: number }>().total).toBe(
      0,
    );

    const own = await a.s.inject({ method: "POST", url: "/api/patients", payload: sample({ locationId }) });
    expect(own.statusCode, own.body).toBe(201);
    expect(own.json<Patient>().locationId).toBe(locationId);
  });
});

describe("GET/PUT/DELETE /api/patients/{id}", () => {
  test("reads, updates and deletes a patient", async () => {
    const { s } = await signedIn("admin");
    const p = await create(s);
    const read = await s.inject({ method: "GET", url: `/api/patients/${p.id}` });
    expect(read.json<Patient>()).toEqual(p);
    expect(read.headers["cache-control"]).toBe("no-store");
    const updated = await s.inject({
      method: "PUT",
      url: `/api/patients/${p.id}`,
      payload: sample({ mrn: p.mrn, lastName: "Hopper-Murray", email: "" }),
    });
    expect(updated.statusCode, updated.body).toBe(200);
    expect(updated.json<Patient>().lastName).toBe("Hopper-Murray");
    expect(updated.json<Patient>().email).toBeUndefined();
    expect((await s.inject({ method: "DELETE", url: `/api/patients/${p.id}` })).statusCode).toBe(204);
    expect((await s.inject({ method: "GET", url: `/api/patients/${p.id}` })).statusCode).toBe(404);
  });

  test("answers 404 for another tenant's patient on every call and changes nothing", async () => {
    const a = await signedIn();
    const b = await signedIn("admin");
    const p = await create(a.s);
    expect((await b.s.inject({ method: "GET", url: `/api/patients/${p.id}` })).statusCode).toBe(404);
    expect(
      (await b.s.inject({ method: "PUT", url: `/api/patients/${p.id}`, payload: sample() })).statusCode,
    ).toBe(404);
    expect((await b.s.inject({ method: "DELETE", url: `/api/patients/${p.id}` })).statusCode).toBe(404);
    expect((await b.s.inject({ method: "GET", url: `/api/patients/${p.id}/surveys` })).statusCode).toBe(404);
    expect((await a.s.inject({ method: "GET", url: `/api/patients/${p.id}` })).json<Patient>()).toEqual(p);
  });

  test("keeps a removed patient, out of the lists, for an admin to restore; plain users may not remove", async () => {
    const admin = await signedIn("admin");
    const p = await create(admin.s);
    const plain = await login(t.app, (await t.createTestUser(admin.u.tenantId, { role: "user" })).email);
    expect((await plain.inject({ method: "DELETE", url: `/api/patients/${p.id}` })).statusCode).toBe(403);
    expect((await plain.inject({ method: "GET", url: `/api/patients/${p.id}` })).statusCode).toBe(200);

    expect((await admin.s.inject({ method: "DELETE", url: `/api/patients/${p.id}` })).statusCode).toBe(204);
    const listed = await admin.s.inject({ method: "GET", url: "/api/patients" });
    expect(listed.json<{ items: Patient[] }>().items.map((x) => x.id)).not.toContain(p.id);
    expect((await plain.inject({ method: "GET", url: "/api/patients/removed" })).statusCode).toBe(403);
    const removed = await admin.s.inject({ method: "GET", url: "/api/patients/removed" });
    expect(removed.json<{ items: Patient[] }>().items.map((x) => x.id)).toEqual([p.id]);

    expect((await plain.inject({ method: "POST", url: `/api/patients/${p.id}/restore` })).statusCode).toBe(
      403,
    );
    const restored = await admin.s.inject({ method: "POST", url: `/api/patients/${p.id}/restore` });
    expect(restored.statusCode, restored.body).toBe(200);
    expect(restored.json<Patient>()).toEqual(p);
    expect((await admin.s.inject({ method: "GET", url: `/api/patients/${p.id}` })).json<Patient>()).toEqual(
      p,
    );
  });

  test("lets plain users remove patients where the practice allows it", async () => {
    const u = await t.createTestTenant({
      role: "user",
      settings: { usersMay: { deleteRecords: true, resendDeliveries: false, acknowledgeAlerts: false } },
    });
    const s = await login(t.app, u.email);
    const p = await create(s);
    expect((await s.inject({ method: "DELETE", url: `/api/patients/${p.id}` })).statusCode).toBe(204);
  });

  test("answers 400 naming id for a malformed id", async () => {
    const { s } = await signedIn();
    const res = await s.inject({ method: "GET", url: "/api/patients/xyz" });
    expect(res.statusCode).toBe(400);
    expect(errorFields(res)).toEqual(["id"]);
  });

  test("answers 400 for a bad update body and keeps the patient", async () => {
    const { s } = await signedIn();
    const p = await create(s);
    const res = await s.inject({
      method: "PUT",
      url: `/api/patients/${p.id}`,
      payload: sample({ dob: "yesterday" }),
    });
    expect(errorFields(res)).toEqual(["dob"]);
    expect((await s.inject({ method: "GET", url: `/api/patients/${p.id}` })).json<Patient>()).toEqual(p);
  });
});

describe("/api/patients/{patientId}/surveys", () => {
  test("assigns, lists and removes a survey", async () => {
    const { s } = await signedIn();
    const p = await create(s);
    const add = await s.inject({
      method: "POST",
      url: `/api/patients/${p.id}/surveys`,
      payload: { surveyId: CORE_CARE_WELLNESS_EXAM_ID },
    });
    expect(add.statusCode, add.body).toBe(201);
    const list = await s.inject({ method: "GET", url: `/api/patients/${p.id}/surveys` });
    expect(list.json<PatientSurvey[]>()).toEqual([
      {
        surveyId: CORE_CARE_WELLNESS_EXAM_ID,
        title: "Core Care Wellness Exam",
        assignedAt: expect.any(String) as string,
      },
    ]);
    const del = await s.inject({
      method: "DELETE",
      url: `/api/patients/${p.id}/surveys/${CORE_CARE_WELLNESS_EXAM_ID}`,
    });
    expect(del.statusCode).toBe(204);
    expect(
      (await s.inject({ method: "GET", url: `/api/patients/${p.id}/surveys` })).json<PatientSurvey[]>(),
    ).toEqual([]);
  });

  test("answers 404 for an unknown survey and 400 naming surveyId for a malformed one", async () => {
    const { s } = await signedIn();
    const p = await create(s);
    expect(
      (
        await s.inject({
          method: "POST",
          url: `/api/patients/${p.id}/surveys`,
          payload: { surveyId: "000000000000000000000000" },
        })
      ).statusCode,
    ).toBe(404);
    const bad = await s.inject({
      method: "POST",
      url: `/api/patients/${p.id}/surveys`,
      payload: { surveyId: "../x" },
    });
    expect(errorFields(bad)).toEqual(["surveyId"]);
  });

  test("answers 404 when assigning to another tenant's patient", async () => {
    const a = await signedIn();
    const b = await signedIn();
    const p = await create(a.s);
    const res = await b.s.inject({
      method: "POST",
      url: `/api/patients/${p.id}/surveys`,
      payload: { surveyId: CORE_CARE_WELLNESS_EXAM_ID },
    });
    expect(res.statusCode).toBe(404);
    expect(
      (
        await b.s.inject({
          method: "DELETE",
          url: `/api/patients/${p.id}/surveys/${CORE_CARE_WELLNESS_EXAM_ID}`,
        })
      ).statusCode,
    ).toBe(404);
  });
});

describe("patients and roles", () => {
  test("answers 403 to a user with no role", async () => {
    const u = await t.createTestTenant({ role: "none" });
    const s = await login(t.app, u.email);
    expect((await s.inject({ method: "GET", url: "/api/patients" })).statusCode).toBe(403);
  });
});
