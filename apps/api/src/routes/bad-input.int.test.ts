import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { InjectOptions } from "fastify";
import {
  createTestApp,
  errorFields,
  inspect,
  login,
  type Session,
  type TestApp,
} from "../../test/helpers.js";
import { auditEvents } from "../db/schema.js";

// Every route with params, a query or a body, called with one malformed value by a sysAdmin (who passes
// every role check): each answers 400 in the responseStatus shape naming that field, and writes nothing.
const BAD = "not-an-id!";
const ID = "65a1b2c3d4e5f60718293a4b";

const cases: [InjectOptions["method"], string, Record<string, unknown> | undefined, string][] = [
  ["POST", "/api/auth/sessions", { email: "x", password: "p" }, "email"],
  ["DELETE", "/api/auth/passwords/not-an-email", undefined, "email"],
  [
    "POST",
    "/api/auth/passwords",
    {
      email: "a@b.test",
      oldPassword: "",
      password: "long enough password",
      confirmPassword: "long enough password",
    },
    "oldPassword",
  ],
  ["PUT", "/api/users/me", { firstName: "A", lastName: "", currentPassword: "x" }, "lastName"],
  ["PUT", "/api/users/me/tenant", { tenantId: 7 }, "tenantId"],
  ["POST", "/api/users", { firstName: "A", lastName: "B", email: "a@b.test", roles: -1 }, "roles"],
  ["PUT", `/api/users/${BAD}`, { firstName: "A", lastName: "B", roles: 1 }, "id"],
  ["PUT", `/api/users/${ID}`, { firstName: "A", lastName: "B", roles: "admin" }, "roles"],
  ["GET", "/api/tenants/BAD_ID", undefined, "id"],
  [
    "POST",
    "/api/tenants",
    { id: "ok-id", name: "X", settings: { alternateFalls: 1 } },
    "settings.alternateFalls",
  ],
  ["PUT", "/api/tenants/BAD_ID", { name: "X" }, "id"],
  ["DELETE", "/api/tenants/BAD_ID", undefined, "id"],
  ["GET", "/api/tenants/BAD_ID/reports", undefined, "tenantId"],
  ["GET", "/api/patients?page=abc", undefined, "page"],
  ["GET", `/api/patients/${BAD}`, undefined, "id"],
  [
    "POST",
    "/api/patients",
    { mrn: "1", firstName: "A", lastName: "B", dob: "1950-01-01", sex: "female" },
    "sex",
  ],
  [
    "PUT",
    `/api/patients/${BAD}`,
    { mrn: "1", firstName: "A", lastName: "B", dob: "1950-01-01", sex: "F" },
    "id",
  ],
  ["DELETE", `/api/patients/${BAD}`, undefined, "id"],
  ["GET", `/api/patients/${BAD}/surveys`, undefined, "patientId"],
  ["POST", `/api/patients/${ID}/surveys`, { surveyId: "" }, "surveyId"],
  ["DELETE", `/api/patients/${ID}/surveys/a%20b`, undefined, "surveyId"],
  ["GET", "/api/surveys/a%20b", undefined, "id"],
  ["POST", `/api/surveys/${ID}`, { id: ID, pages: "none" }, "pages"],
  ["DELETE", "/api/surveys/a%20b", undefined, "id"],
  ["GET", `/api/surveys/${ID}/versions/-1`, undefined, "version"],
  ["GET", "/api/reports/a%20b", undefined, "id"],
  ["POST", `/api/reports/${ID}`, { id: ID, script: 5 }, "script"],
  ["DELETE", "/api/reports/a%20b", undefined, "id"],
  ["GET", `/api/reports/${ID}?newerThan=-3`, undefined, "newerThan"],
  [
    "POST",
    "/api/surveyresults",
    { clientRequestId: "abcdefgh12", surveyId: ID, patientId: ID, answers: "x" },
    "answers",
  ],
  ["GET", "/api/surveyresults?surveyId=a%20b", undefined, "surveyId"],
  ["GET", `/api/surveyresults/${BAD}`, undefined, "id"],
  ["DELETE", `/api/surveyresults/${BAD}`, undefined, "id"],
  ["GET", `/api/locations/${BAD}`, undefined, "id"],
  ["POST", "/api/locations", { name: "N", code: "" }, "code"],
  ["PUT", `/api/locations/${BAD}`, { name: "N", code: "C" }, "id"],
  ["DELETE", `/api/locations/${BAD}`, undefined, "id"],
  ["GET", `/api/interfaces/${BAD}`, undefined, "id"],
  ["POST", "/api/interfaces", { name: "I", type: "hl7-mllp", host: "h", port: "2575" }, "port"],
  ["PUT", `/api/interfaces/${BAD}`, { name: "I", type: "hl7-mllp", host: "h", port: 2575 }, "id"],
  ["DELETE", `/api/interfaces/${BAD}`, undefined, "id"],
  ["POST", `/api/alerts/${BAD}/acknowledge`, undefined, "id"],
  ["GET", "/api/audit?page=x", undefined, "page"],
];

let t: TestApp;
let s: Session;

beforeAll(async () => {
  t = await createTestApp();
  const sys = await t.createTestTenant({ role: "sysAdmin" });
  s = await login(t.app, sys.email);
});
afterAll(async () => {
  await t.close();
});

describe("bad input on every route", () => {
  test.each(cases)("%s %s with %j answers 400 naming %s", async (method, url, payload, field) => {
    const before = await inspect(() => t.db.select().from(auditEvents));
    const res = await s.inject({ method, url, ...(payload === undefined ? {} : { payload }) });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json<{ responseStatus: { status: number; message: string } }>().responseStatus.status).toBe(
      400,
    );
    expect(errorFields(res)).toContain(field);
    expect(await inspect(() => t.db.select().from(auditEvents))).toHaveLength(before.length);
  });
});
