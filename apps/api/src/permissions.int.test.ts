import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { InjectOptions } from "fastify";
import { simpleParser } from "mailparser";
import { CORE_CARE_WELLNESS_EXAM_ID, objectId, TELE_AWV_SURVEY_ID } from "@core-care/survey-engine";
import type { TabletHandover, UsersMay } from "@core-care/schema";
import { and, eq } from "drizzle-orm";
import { awvInvitations, deliveries, safetyAlerts, tenants, users, userTenants } from "./db/schema.js";
import { enqueueDelivery } from "./delivery/outbox.js";
import { PERMISSIONS, type Permission, type PermissionKey } from "./permissions.js";
import { createInterface } from "./services/interfaces.js";
import { createLocation } from "./services/locations.js";
import { assignSurvey, createPatient, deletePatient } from "./services/patients.js";
import { saveReport, saveSurvey } from "./services/documents.js";
import { saveResult } from "./services/result-saves.js";
import { INVALID_INVITATION } from "./services/tele-awv.js";
import { hashToken } from "./services/tele-awv-credential.js";
import { deleteResult } from "./services/survey-results.js";
import {
  createTestApp,
  createTestTenant,
  createTestUser,
  login,
  sessionCookie,
  type TestApp,
} from "../test/helpers.js";

/**
 * The permission table proven on every registered route: each route is called with every credential
 * kind and role, and answers what `permissions.ts` says. Callers of the tenant whose ids a request uses
 * get the route's normal answer where the table admits them; a user whose current tenant is another
 * one gets 404 for those ids; everyone else 401 (no credential) or 403.
 */

const XHR = { "x-requested-with": "XMLHttpRequest" };
const SURVEY = CORE_CARE_WELLNESS_EXAM_ID;

/** The records of one practice that requests name; none of them is removed by a case. */
interface Practice {
  tenantId: string;
  adminUserId: string;
  patientId: string;
  resultId: string;
  surveyId: string;
  reportId: string;
  locationId: string;
  interfaces: { hl7: string; cda: string; sftp: string; fhir: string };
}

type CallerKind =
  "none" | "roleNone" | "user" | "admin" | "sysAdmin" | "multi" | "granted" | "tablet" | "teleAwv";

interface Caller {
  kind: CallerKind;
  /** The practice whose ids the caller's requests name. */
  target: Practice;
  /** The practice the caller acts in (the other practice for `multi`). */
  own: Practice;
  headers: Record<string, string>;
  /** For tablet callers: the hand-over their credential is bound to. */
  handover?: TabletHandover;
  /** A credential of the same kind that a case may use up (sign-out, hand-over). */
  fresh(): Promise<Caller>;
}

interface Case {
  /** The answer of an admitted caller naming its own practice's ids. */
  ok: number;
  /**
   * The answer of an admitted caller acting in another practice than the one whose ids the request
   * names (default 404; routes open to anyone name no practice's records and answer `ok`).
   */
  foreign?: number;
  /** The call uses up or changes the caller's credential: run it with a fresh one. */
  fresh?: true;
  request(caller: Caller): Promise<InjectOptions> | InjectOptions;
}

let t: TestApp;
let a: Practice;
let b: Practice;
let granting: Practice;
let callers: Caller[];
let teleAwvToken: string;
let webDist: string;

const ALL_GRANTS: UsersMay = { deleteRecords: true, resendDeliveries: true, acknowledgeAlerts: true };

const patientInput = (mrn: string) => ({
  mrn,
  firstName: "Pat",
  lastName: `Matrix ${mrn}`,
  dob: "1951-04-05",
  sex: "F" as const,
});
const interfaceInput = (type: "hl7-mllp" | "cda-mllp" | "sftp" | "fhir-http") => ({
  name: `Iface ${type}`,
  type,
  host: "127.0.0.1",
  port: 1,
  sendingApplication: "",
  sendingFacility: "",
  receivingApplication: "",
  receivingFacility: "",
});
const unique = () => randomBytes(5).toString("hex");

// Throwaway records for the calls that remove or change what they name.
const newPatient = async (p: Practice) => (await createPatient(t.db, p.tenantId, patientInput(unique()))).id;
const newResult = async (p: Practice) =>
  (
    await saveResult(
      t.db,
      p.tenantId,
      {
        clientRequestId: objectId(),
        surveyId: SURVEY,
        patientId: p.patientId,
        isSubmitted: true,
        answers: {},
      },
      p.adminUserId,
    )
  ).id;
const newDelivery = async (p: Practice) =>
  enqueueDelivery(t.db, {
    tenantId: p.tenantId,
    resultId: p.resultId,
    interfaceId: p.interfaces.hl7,
    locationId: null,
    format: "hl7",
    userId: p.adminUserId,
  });
/** A delivery of the practice that has finally failed (what skip takes). */
const failedDelivery = async (p: Practice) => {
  const id = await newDelivery(p);
  await t.db
    .update(deliveries)
    .set({ status: "failed", lastError: "Receiver rejected the message" })
    .where(and(eq(deliveries.tenantId, p.tenantId), eq(deliveries.id, id)));
  return id;
};
/** A user of the practice who never signs in (no password hashing: the matrix makes dozens). */
const newUser = async (p: Practice) => {
  const id = objectId();
  await t.db
    .insert(users)
    .values({ id, email: `u-${id}@example.test`, firstName: "Throw", lastName: "Away", passwordHash: "-" });
  await t.db.insert(userTenants).values({ tenantId: p.tenantId, userId: id, roles: 1 });
  return id;
};
/** A practice nobody works in, to rename or remove. */
const newTenant = async () => {
  const id = `gone-${unique()}`;
  await t.db
    .insert(tenants)
    .values({ id, name: "Throwaway practice", settings: { teleAwvEmail: false, alternateFalls: false } });
  return id;
};

async function practice(settings: { usersMay?: UsersMay } = {}): Promise<Practice> {
  const admin = await createTestTenant(t.db, {
    role: "admin",
    settings: { teleAwvEmail: true, ...settings },
  });
  const { tenantId } = admin;
  const p: Practice = {
    tenantId,
    adminUserId: admin.userId,
    patientId: (await createPatient(t.db, tenantId, patientInput(`M-${unique()}`))).id,
    resultId: "",
    surveyId: `matrix-${unique()}`,
    reportId: `matrix-${unique()}`,
    locationId: (await createLocation(t.db, tenantId, { name: "Main", code: `L${unique()}` })).id,
    interfaces: {
      hl7: (await createInterface(t.db, tenantId, interfaceInput("hl7-mllp"))).id,
      cda: (await createInterface(t.db, tenantId, interfaceInput("cda-mllp"))).id,
      sftp: (await createInterface(t.db, tenantId, interfaceInput("sftp"))).id,
      fhir: (await createInterface(t.db, tenantId, interfaceInput("fhir-http"))).id,
    },
  };
  p.resultId = await newResult(p);
  await saveSurvey(
    t.db,
    tenantId,
    {
      id: p.surveyId,
      title: "Matrix",
      description: "",
      canSubscribeTo: false,
      sections: [],
      pages: [],
      version: 0,
    },
    admin.userId,
  );
  await saveReport(
    t.db,
    tenantId,
    { id: p.reportId, title: "Matrix", script: "", markup: "", mock: {}, clinical: false, version: 0 },
    admin.userId,
  );
  return p;
}

async function staffCaller(
  kind: CallerKind,
  email: string,
  target: Practice,
  own: Practice = target,
): Promise<Caller> {
  const signIn = async (): Promise<Caller> => {
    const session = await login(t.app, email);
    let headers = session.headers;
    if (own.tenantId !== session.me.tenant.id) {
      const switched = await session.inject({
        method: "PUT",
        url: "/api/users/me/tenant",
        payload: { tenantId: own.tenantId },
      });
      expect(switched.statusCode, switched.body).toBe(200);
      const cookie = sessionCookie(switched);
      if (cookie === undefined) throw new Error("no cookie after the tenant switch");
      headers = { ...headers, cookie };
    }
    return { kind, target, own, headers, fresh: signIn };
  };
  return signIn();
}

async function tabletCaller(staffEmail: string, target: Practice): Promise<Caller> {
  const handOver = async (): Promise<Caller> => {
    const staff = await login(t.app, staffEmail);
    const res = await staff.inject({
      method: "POST",
      url: "/api/tablet/handovers",
      payload: { patientId: target.patientId, surveyId: SURVEY },
    });
    expect(res.statusCode, res.body).toBe(201);
    const cookie = sessionCookie(res);
    if (cookie === undefined) throw new Error("no patient cookie");
    return {
      kind: "tablet",
      target,
      own: target,
      headers: { cookie, ...XHR },
      handover: res.json<TabletHandover>(),
      fresh: handOver,
    };
  };
  return handOver();
}

/** The token of the newest Tele-AWV invitation mailed to `to` (the development outbox, no SMTP in tests). */
async function invitationToken(to: string): Promise<string> {
  const dir = join(t.config.dataDir, "outbox");
  for (const file of (await readdir(dir)).sort().reverse()) {
    const mail = await simpleParser(await readFile(join(dir, file)));
    const address = Array.isArray(mail.to) ? mail.to[0]?.text : mail.to?.text;
    const token = /#token=([A-Za-z0-9_-]+)/.exec(mail.text ?? "")?.[1];
    if (address === to && token !== undefined) return token;
  }
  throw new Error("no invitation in the outbox");
}

beforeAll(async () => {
  // A web build of one page and one file, so that the build's file routes are registered too.
  webDist = mkdtempSync(join(tmpdir(), "core-care-matrix-web-"));
  mkdirSync(join(webDist, "assets"));
  writeFileSync(join(webDist, "index.html"), "<!doctype html><html><body></body></html>");
  writeFileSync(join(webDist, "assets", "app-matrix.js"), "export {};");
  t = await createTestApp({ config: { webDist } });

  a = await practice();
  b = await practice();
  granting = await practice({ usersMay: ALL_GRANTS });

  const inA = (role: "none" | "user" | "admin" | "sysAdmin") => createTestUser(t.db, a.tenantId, { role });
  const [roleNone, user, admin, sysAdmin, multi] = await Promise.all([
    inA("none"),
    inA("user"),
    inA("admin"),
    inA("sysAdmin"),
    inA("user"),
  ]);
  await t.db.insert(userTenants).values({ tenantId: b.tenantId, userId: multi.userId, roles: 1 });
  const grantedUser = await createTestUser(t.db, granting.tenantId, { role: "user" });

  const userSession = await login(t.app, user.email);
  const ptEmail = `pt-${unique()}@example.test`;
  const sent = await userSession.inject({
    method: "POST",
    url: "/api/auth/sendAWVEmail",
    payload: { ptEmail, tenant: a.tenantId, ptId: a.patientId },
  });
  expect(sent.statusCode, sent.body).toBe(200);
  teleAwvToken = await invitationToken(ptEmail);

  const none: Caller = { kind: "none", target: a, own: a, headers: { ...XHR }, fresh: async () => none };
  const teleAwv: Caller = {
    kind: "teleAwv",
    target: a,
    own: a,
    headers: { authorization: `Bearer ${teleAwvToken}`, ...XHR },
    fresh: async () => teleAwv,
  };
  callers = [
    none,
    await staffCaller("roleNone", roleNone.email, a),
    await staffCaller("user", user.email, a),
    await staffCaller("admin", admin.email, a),
    await staffCaller("sysAdmin", sysAdmin.email, a),
    await staffCaller("multi", multi.email, a, b),
    await staffCaller("granted", grantedUser.email, granting),
    await tabletCaller(user.email, a),
    teleAwv,
  ];
});
afterAll(async () => {
  await t.close();
  rmSync(webDist, { recursive: true, force: true });
});

const saveBody = (c: Caller) =>
  c.handover === undefined
    ? {
        clientRequestId: objectId(),
        surveyId: SURVEY,
        patientId: c.target.patientId,
        isSubmitted: false,
        answers: {},
      }
    : {
        clientRequestId: c.handover.clientRequestId,
        surveyId: c.handover.surveyId,
        patientId: c.handover.patientId,
        isSubmitted: false,
        answers: {},
      };

/** One case per table key: the request, and the answer an admitted caller gets. */
const CASES: Record<PermissionKey, Case> = {
  "GET web-file": { ok: 200, request: () => ({ method: "GET", url: "/assets/app-matrix.js" }) },
  "GET /api/config": { ok: 200, request: () => ({ method: "GET", url: "/api/config" }) },
  "GET /healthz": { ok: 200, request: () => ({ method: "GET", url: "/healthz" }) },
  "GET /readyz": { ok: 200, request: () => ({ method: "GET", url: "/readyz" }) },
  "GET /metrics": { ok: 200, request: () => ({ method: "GET", url: "/metrics" }) },
  "GET /api/openapi.json": { ok: 200, request: () => ({ method: "GET", url: "/api/openapi.json" }) },
  "GET api-reference": { ok: 200, request: () => ({ method: "GET", url: "/api/reference" }) },
  // Deliberately empty bodies: an admitted caller meets validation (400), never a sign-in of its own.
  "POST /api/auth/sessions": {
    ok: 400,
    request: () => ({ method: "POST", url: "/api/auth/sessions", payload: {} }),
  },
  // The second step of a sign-in: without a pending sign-in in the session, nothing is reached.
  "POST /api/auth/sessions/totp": {
    ok: 400,
    request: () => ({ method: "POST", url: "/api/auth/sessions/totp", payload: {} }),
  },
  "POST /api/auth/sessions/totp/enrolment": {
    ok: 401,
    request: () => ({ method: "POST", url: "/api/auth/sessions/totp/enrolment" }),
  },
  "POST /api/auth/sessions/totp/enrolment/confirm": {
    ok: 400,
    request: () => ({ method: "POST", url: "/api/auth/sessions/totp/enrolment/confirm", payload: {} }),
  },
  "DELETE /api/auth/sessions": {
    ok: 204,
    fresh: true,
    request: () => ({ method: "DELETE", url: "/api/auth/sessions" }),
  },
  "GET /api/auth/keepalive": {
    ok: 204,
    foreign: 204,
    request: () => ({ method: "GET", url: "/api/auth/keepalive" }),
  },
  "DELETE /api/auth/passwords/:email": {
    ok: 204,
    request: () => ({ method: "DELETE", url: `/api/auth/passwords/nobody-${unique()}@example.test` }),
  },
  "POST /api/auth/passwords": {
    ok: 400,
    request: () => ({ method: "POST", url: "/api/auth/passwords", payload: {} }),
  },

  "GET /api/users/me": { ok: 200, foreign: 200, request: () => ({ method: "GET", url: "/api/users/me" }) },
  "PUT /api/users/me": {
    ok: 400,
    foreign: 400,
    request: () => ({ method: "PUT", url: "/api/users/me", payload: {} }),
  },
  "GET /api/users/me/totp": {
    ok: 200,
    foreign: 200,
    request: () => ({ method: "GET", url: "/api/users/me/totp" }),
  },
  "POST /api/users/me/totp/enrolment": {
    ok: 200,
    foreign: 200,
    request: () => ({ method: "POST", url: "/api/users/me/totp/enrolment" }),
  },
  "POST /api/users/me/totp/enrolment/confirm": {
    ok: 400,
    foreign: 400,
    request: () => ({ method: "POST", url: "/api/users/me/totp/enrolment/confirm", payload: {} }),
  },
  "DELETE /api/users/me/totp": {
    ok: 400,
    foreign: 400,
    request: () => ({ method: "DELETE", url: "/api/users/me/totp", payload: {} }),
  },
  "PUT /api/users/me/tenant": {
    ok: 400,
    foreign: 400,
    request: () => ({ method: "PUT", url: "/api/users/me/tenant", payload: {} }),
  },
  "GET /api/users": { ok: 200, foreign: 200, request: () => ({ method: "GET", url: "/api/users" }) },
  "POST /api/users": {
    ok: 201,
    foreign: 201,
    request: () => ({
      method: "POST",
      url: "/api/users",
      payload: { firstName: "New", lastName: "User", email: `new-${unique()}@example.test`, roles: 1 },
    }),
  },
  "PUT /api/users/:id": {
    ok: 200,
    request: async (c) => ({
      method: "PUT",
      url: `/api/users/${await newUser(c.target)}`,
      payload: { firstName: "Re", lastName: "Named", roles: 1 },
    }),
  },
  "DELETE /api/users/:idOrEmail": {
    ok: 204,
    request: async (c) => ({ method: "DELETE", url: `/api/users/${await newUser(c.target)}` }),
  },
  "POST /api/users/invitations/accept": {
    ok: 400,
    request: () => ({ method: "POST", url: "/api/users/invitations/accept", payload: {} }),
  },
  "POST /api/users/invitations/lookup": {
    ok: 400,
    request: () => ({ method: "POST", url: "/api/users/invitations/lookup", payload: {} }),
  },

  "GET /api/tenants/me": {
    ok: 200,
    foreign: 200,
    request: () => ({ method: "GET", url: "/api/tenants/me" }),
  },
  "GET /api/tenants/getMultiUserTenants": {
    ok: 200,
    foreign: 200,
    request: () => ({ method: "GET", url: "/api/tenants/getMultiUserTenants" }),
  },
  "GET /api/tenants/:tenantId/reports": {
    ok: 200,
    request: (c) => ({ method: "GET", url: `/api/tenants/${c.target.tenantId}/reports` }),
  },
  "GET /api/tenants": { ok: 200, foreign: 200, request: () => ({ method: "GET", url: "/api/tenants" }) },
  "POST /api/tenants": {
    ok: 201,
    foreign: 201,
    request: () => ({
      method: "POST",
      url: "/api/tenants",
      payload: { id: `matrix-${unique()}`, name: "Matrix practice", settings: {} },
    }),
  },
  "GET /api/tenants/:id": {
    ok: 200,
    request: (c) => ({ method: "GET", url: `/api/tenants/${c.target.tenantId}` }),
  },
  "PUT /api/tenants/:id": {
    ok: 200,
    request: async () => ({
      method: "PUT",
      url: `/api/tenants/${await newTenant()}`,
      payload: { name: "Renamed practice", settings: {} },
    }),
  },
  "DELETE /api/tenants/:id": {
    ok: 204,
    request: async () => ({ method: "DELETE", url: `/api/tenants/${await newTenant()}` }),
  },
  // Into a practice the caller does not belong to; the session moves, so each call has a fresh one.
  "POST /api/tenants/:id/switch": {
    ok: 200,
    foreign: 200,
    fresh: true,
    request: async () => ({ method: "POST", url: `/api/tenants/${await newTenant()}/switch` }),
  },

  "GET /api/patients": { ok: 200, foreign: 200, request: () => ({ method: "GET", url: "/api/patients" }) },
  "POST /api/patients": {
    ok: 201,
    foreign: 201,
    request: () => ({ method: "POST", url: "/api/patients", payload: patientInput(`N-${unique()}`) }),
  },
  "GET /api/patients/:id": {
    ok: 200,
    request: (c) => ({ method: "GET", url: `/api/patients/${c.target.patientId}` }),
  },
  "PUT /api/patients/:id": {
    ok: 200,
    request: async (c) => ({
      method: "PUT",
      url: `/api/patients/${await newPatient(c.target)}`,
      payload: patientInput(`U-${unique()}`),
    }),
  },
  "DELETE /api/patients/:id": {
    ok: 204,
    request: async (c) => ({ method: "DELETE", url: `/api/patients/${await newPatient(c.target)}` }),
  },
  "GET /api/patients/export": {
    ok: 200,
    foreign: 200,
    request: () => ({ method: "GET", url: "/api/patients/export" }),
  },
  "GET /api/patients/removed": {
    ok: 200,
    foreign: 200,
    request: () => ({ method: "GET", url: "/api/patients/removed" }),
  },
  "POST /api/patients/:id/restore": {
    ok: 200,
    request: async (c) => {
      const id = await newPatient(c.target);
      await deletePatient(t.db, c.target.tenantId, id);
      return { method: "POST", url: `/api/patients/${id}/restore` };
    },
  },
  "GET /api/patients/:patientId/surveys": {
    ok: 200,
    request: (c) => ({ method: "GET", url: `/api/patients/${c.target.patientId}/surveys` }),
  },
  "POST /api/patients/:patientId/surveys": {
    ok: 201,
    request: (c) => ({
      method: "POST",
      url: `/api/patients/${c.target.patientId}/surveys`,
      payload: { surveyId: SURVEY },
    }),
  },
  "DELETE /api/patients/:patientId/surveys/:surveyId": {
    ok: 204,
    request: async (c) => {
      const id = await newPatient(c.target);
      await assignSurvey(t.db, c.target.tenantId, id, SURVEY, c.target.adminUserId);
      return { method: "DELETE", url: `/api/patients/${id}/surveys/${SURVEY}` };
    },
  },

  "GET /api/surveys": { ok: 200, foreign: 200, request: () => ({ method: "GET", url: "/api/surveys" }) },
  "GET /api/surveys/:id": {
    ok: 200,
    request: (c) => ({
      method: "GET",
      url: `/api/surveys/${
        c.kind === "tablet"
          ? (c.handover?.surveyId ?? "")
          : c.kind === "teleAwv"
            ? TELE_AWV_SURVEY_ID
            : c.target.surveyId
      }`,
    }),
  },
  "POST /api/surveys/:id": {
    ok: 200,
    foreign: 200,
    request: () => {
      const id = `new-${unique()}`;
      return { method: "POST", url: `/api/surveys/${id}`, payload: { id, title: "New", version: 0 } };
    },
  },
  "DELETE /api/surveys/:id": {
    ok: 204,
    request: async (c) => {
      const id = `gone-${unique()}`;
      await saveSurvey(
        t.db,
        c.target.tenantId,
        { id, title: "Gone", description: "", canSubscribeTo: false, sections: [], pages: [], version: 0 },
        c.target.adminUserId,
      );
      return { method: "DELETE", url: `/api/surveys/${id}` };
    },
  },
  "GET /api/surveys/:id/versions": {
    ok: 200,
    request: (c) => ({ method: "GET", url: `/api/surveys/${c.target.surveyId}/versions` }),
  },
  "GET /api/surveys/:id/versions/:version": {
    ok: 200,
    request: (c) => ({ method: "GET", url: `/api/surveys/${c.target.surveyId}/versions/1` }),
  },

  "GET /api/reports": { ok: 200, foreign: 200, request: () => ({ method: "GET", url: "/api/reports" }) },
  "GET /api/reports/:id": {
    ok: 200,
    request: (c) => ({ method: "GET", url: `/api/reports/${c.target.reportId}` }),
  },
  "POST /api/reports/:id": {
    ok: 200,
    foreign: 200,
    request: () => {
      const id = `new-${unique()}`;
      return { method: "POST", url: `/api/reports/${id}`, payload: { id, title: "New", version: 0 } };
    },
  },
  "DELETE /api/reports/:id": {
    ok: 204,
    request: async (c) => {
      const id = `gone-${unique()}`;
      await saveReport(
        t.db,
        c.target.tenantId,
        { id, title: "Gone", script: "", markup: "", mock: {}, clinical: false, version: 0 },
        c.target.adminUserId,
      );
      return { method: "DELETE", url: `/api/reports/${id}` };
    },
  },
  "GET /api/reports/:id/versions": {
    ok: 200,
    request: (c) => ({ method: "GET", url: `/api/reports/${c.target.reportId}/versions` }),
  },
  "GET /api/reports/:id/versions/:version": {
    ok: 200,
    request: (c) => ({ method: "GET", url: `/api/reports/${c.target.reportId}/versions/1` }),
  },

  "POST /api/surveyresults": {
    ok: 200,
    request: (c) => ({ method: "POST", url: "/api/surveyresults", payload: saveBody(c) }),
  },
  "GET /api/surveyresults": {
    ok: 200,
    foreign: 200,
    request: () => ({ method: "GET", url: "/api/surveyresults" }),
  },
  "GET /api/surveyresults/:id": {
    ok: 200,
    request: (c) => ({ method: "GET", url: `/api/surveyresults/${c.target.resultId}` }),
  },
  "GET /api/surveyresults/:id/plan": {
    ok: 200,
    request: (c) => ({ method: "GET", url: `/api/surveyresults/${c.target.resultId}/plan` }),
  },
  "DELETE /api/surveyresults/:id": {
    ok: 204,
    request: async (c) => ({ method: "DELETE", url: `/api/surveyresults/${await newResult(c.target)}` }),
  },
  "GET /api/surveyresults/removed": {
    ok: 200,
    foreign: 200,
    request: () => ({ method: "GET", url: "/api/surveyresults/removed" }),
  },
  "GET /api/surveyresults/export": {
    ok: 200,
    foreign: 200,
    request: () => ({ method: "GET", url: "/api/surveyresults/export?duration=1" }),
  },
  "GET /api/surveyresults/report": {
    ok: 200,
    foreign: 200,
    request: () => ({ method: "GET", url: "/api/surveyresults/report?duration=1" }),
  },
  "POST /api/surveyresults/:id/restore": {
    ok: 200,
    request: async (c) => {
      const id = await newResult(c.target);
      await deleteResult(t.db, c.target.tenantId, id);
      return { method: "POST", url: `/api/surveyresults/${id}/restore` };
    },
  },
  // A send names the caller's own interface, so that another practice's result is what it cannot find.
  "POST /api/surveyresults/:id/sendhl7": {
    ok: 202,
    request: (c) => ({
      method: "POST",
      url: `/api/surveyresults/${c.target.resultId}/sendhl7`,
      payload: { interfaceId: c.own.interfaces.hl7 },
    }),
  },
  "POST /api/surveyresults/:id/sendCDA": {
    ok: 202,
    request: (c) => ({
      method: "POST",
      url: `/api/surveyresults/${c.target.resultId}/sendCDA`,
      payload: { interfaceId: c.own.interfaces.cda },
    }),
  },
  "POST /api/surveyresults/:id/sftpout": {
    ok: 202,
    request: (c) => ({
      method: "POST",
      url: `/api/surveyresults/${c.target.resultId}/sftpout`,
      payload: { interfaceId: c.own.interfaces.sftp },
    }),
  },
  "POST /api/surveyresults/:id/sendfhir": {
    ok: 202,
    request: (c) => ({
      method: "POST",
      url: `/api/surveyresults/${c.target.resultId}/sendfhir`,
      payload: { interfaceId: c.own.interfaces.fhir },
    }),
  },
  "GET /api/surveyresults/:id/deliveries": {
    ok: 200,
    request: (c) => ({ method: "GET", url: `/api/surveyresults/${c.target.resultId}/deliveries` }),
  },
  "POST /api/deliveries/:id/resend": {
    ok: 202,
    request: async (c) => ({ method: "POST", url: `/api/deliveries/${await newDelivery(c.target)}/resend` }),
  },
  "GET /api/deliveries": {
    ok: 200,
    foreign: 200,
    request: () => ({ method: "GET", url: "/api/deliveries?status=failed" }),
  },
  "GET /api/deliveries/export": {
    ok: 200,
    foreign: 200,
    request: () => ({ method: "GET", url: "/api/deliveries/export?status=failed" }),
  },
  "GET /api/deliveries/counts": {
    ok: 200,
    foreign: 200,
    request: () => ({ method: "GET", url: "/api/deliveries/counts" }),
  },
  "GET /api/deliveries/:id/message": {
    ok: 200,
    request: async (c) => ({ method: "GET", url: `/api/deliveries/${await newDelivery(c.target)}/message` }),
  },
  "POST /api/deliveries/:id/skip": {
    ok: 200,
    request: async (c) => ({ method: "POST", url: `/api/deliveries/${await failedDelivery(c.target)}/skip` }),
  },
  "POST /api/surveyresults/batchUpload": {
    ok: 200,
    foreign: 200,
    request: (c) => ({
      method: "POST",
      url: "/api/surveyresults/batchUpload",
      payload: {
        format: "json",
        content: JSON.stringify([
          { externalId: `x-${unique()}`, patientId: c.target.patientId, surveyId: SURVEY, answers: {} },
        ]),
      },
    }),
  },
  "POST /api/surveyresults/batchUpload/stream": {
    ok: 200,
    foreign: 200,
    request: (c) => ({
      method: "POST",
      url: "/api/surveyresults/batchUpload/stream",
      headers: { "content-type": "application/x-ndjson" },
      payload: `${JSON.stringify({ externalId: `x-${unique()}`, patientId: c.target.patientId, surveyId: SURVEY, answers: { a: 1 } })}\n`,
    }),
  },

  "GET /api/locations": { ok: 200, foreign: 200, request: () => ({ method: "GET", url: "/api/locations" }) },
  "POST /api/locations": {
    ok: 201,
    foreign: 201,
    request: () => ({
      method: "POST",
      url: "/api/locations",
      payload: { name: "New", code: `N${unique()}` },
    }),
  },
  "GET /api/locations/:id": {
    ok: 200,
    request: (c) => ({ method: "GET", url: `/api/locations/${c.target.locationId}` }),
  },
  "PUT /api/locations/:id": {
    ok: 200,
    request: async (c) => ({
      method: "PUT",
      url: `/api/locations/${(await createLocation(t.db, c.target.tenantId, { name: "P", code: `P${unique()}` })).id}`,
      payload: { name: "Renamed", code: `R${unique()}` },
    }),
  },
  "DELETE /api/locations/:id": {
    ok: 204,
    request: async (c) => ({
      method: "DELETE",
      url: `/api/locations/${(await createLocation(t.db, c.target.tenantId, { name: "D", code: `D${unique()}` })).id}`,
    }),
  },

  "GET /api/interfaces": {
    ok: 200,
    foreign: 200,
    request: () => ({ method: "GET", url: "/api/interfaces" }),
  },
  "POST /api/interfaces": {
    ok: 201,
    foreign: 201,
    request: () => ({ method: "POST", url: "/api/interfaces", payload: interfaceInput("hl7-mllp") }),
  },
  "GET /api/interfaces/:id": {
    ok: 200,
    request: (c) => ({ method: "GET", url: `/api/interfaces/${c.target.interfaces.hl7}` }),
  },
  "PUT /api/interfaces/:id": {
    ok: 200,
    request: async (c) => ({
      method: "PUT",
      url: `/api/interfaces/${(await createInterface(t.db, c.target.tenantId, interfaceInput("sftp"))).id}`,
      payload: interfaceInput("sftp"),
    }),
  },
  // An MLLP interface has no host key: the admitted caller meets the check's own refusal.
  "POST /api/interfaces/:id/check-connection": {
    ok: 400,
    request: async (c) => ({
      method: "POST",
      url: `/api/interfaces/${(await createInterface(t.db, c.target.tenantId, interfaceInput("hl7-mllp"))).id}/check-connection`,
    }),
  },
  "DELETE /api/interfaces/:id": {
    ok: 204,
    request: async (c) => ({
      method: "DELETE",
      url: `/api/interfaces/${(await createInterface(t.db, c.target.tenantId, interfaceInput("sftp"))).id}`,
    }),
  },

  "GET /api/inbound-messages": {
    ok: 200,
    foreign: 200,
    request: () => ({ method: "GET", url: "/api/inbound-messages" }),
  },
  "GET /api/inbound-facilities": {
    ok: 200,
    foreign: 200,
    request: () => ({ method: "GET", url: "/api/inbound-facilities" }),
  },
  "PUT /api/inbound-facilities": {
    ok: 200,
    foreign: 200,
    request: () => ({
      method: "PUT",
      url: "/api/inbound-facilities",
      payload: { facilities: [{ facility: `F${unique()}` }] },
    }),
  },
  "GET /api/inbound-senders": {
    ok: 200,
    foreign: 200,
    request: () => ({ method: "GET", url: "/api/inbound-senders" }),
  },
  "PUT /api/inbound-senders": {
    ok: 200,
    foreign: 200,
    request: () => ({
      method: "PUT",
      url: "/api/inbound-senders",
      payload: { senders: [{ application: "EHR", facility: "CLINIC", addresses: ["127.0.0.1"] }] },
    }),
  },
  "GET /api/alerts": { ok: 200, foreign: 200, request: () => ({ method: "GET", url: "/api/alerts" }) },
  "POST /api/alerts/:id/acknowledge": {
    ok: 204,
    request: async (c) => {
      const id = objectId();
      await t.db.insert(safetyAlerts).values({
        tenantId: c.target.tenantId,
        id,
        resultId: await newResult(c.target),
        patientId: c.target.patientId,
        kind: "phq9-self-harm",
        message: "m",
      });
      return { method: "POST", url: `/api/alerts/${id}/acknowledge` };
    },
  },
  "GET /api/audit": { ok: 200, foreign: 200, request: () => ({ method: "GET", url: "/api/audit" }) },
  "GET /api/audit/export": {
    ok: 200,
    foreign: 200,
    request: () => ({ method: "GET", url: "/api/audit/export" }),
  },

  "POST /api/auth/sendAWVEmail": {
    ok: 200,
    request: (c) => ({
      method: "POST",
      url: "/api/auth/sendAWVEmail",
      payload: { ptEmail: `pt-${unique()}@example.test`, tenant: c.own.tenantId, ptId: c.target.patientId },
    }),
  },
  "POST /api/auth/sendAWVEmail2": {
    ok: 200,
    request: (c) => ({
      method: "POST",
      url: "/api/auth/sendAWVEmail2",
      payload: { ptEmail: `pt-${unique()}@example.test`, tenant: c.own.tenantId, ptId: c.target.patientId },
    }),
  },
  // Empty answers: the token is admitted and the body refused, so the single-use link stays unused.
  "POST /api/auth/teleawv": {
    ok: 400,
    request: () => ({ method: "POST", url: "/api/auth/teleawv", payload: {} }),
  },
  "POST /api/auth/sendAWV": {
    ok: 400,
    request: () => ({ method: "POST", url: "/api/auth/sendAWV", payload: {} }),
  },
  "GET /api/auth/teleawv/link": {
    ok: 200,
    request: () => ({ method: "GET", url: "/api/auth/teleawv/link" }),
  },
  "PUT /api/auth/teleawv/draft": {
    ok: 200,
    request: () => ({
      method: "PUT",
      url: "/api/auth/teleawv/draft",
      payload: { answers: { pain: { hadPain: "1" } }, pageIndex: 1, language: "en" },
    }),
  },

  "POST /api/tablet/handovers": {
    ok: 201,
    fresh: true,
    request: (c) => ({
      method: "POST",
      url: "/api/tablet/handovers",
      payload: { patientId: c.target.patientId, surveyId: SURVEY },
    }),
  },
  "GET /api/tablet/handover": { ok: 200, request: () => ({ method: "GET", url: "/api/tablet/handover" }) },
  "DELETE /api/tablet/handover": {
    ok: 204,
    fresh: true,
    request: () => ({ method: "DELETE", url: "/api/tablet/handover?reason=logout" }),
  },
  // Without a password: admitted, refused by validation, and the hand-over goes on.
  "POST /api/tablet/handover/staff": {
    ok: 400,
    request: () => ({ method: "POST", url: "/api/tablet/handover/staff", payload: {} }),
  },
};

/** Whether the table admits a caller of this kind. */
function admits(permission: Permission, kind: CallerKind): boolean {
  if (permission.anyone === true) return true;
  const staff: readonly string[] = permission.staff ?? [];
  switch (kind) {
    case "none":
    case "roleNone":
      return false;
    case "user":
    case "admin":
    case "sysAdmin":
      return staff.includes(kind);
    case "multi":
      return staff.includes("user");
    case "granted":
      return staff.includes("user") || permission.usersIf !== undefined;
    case "tablet":
      return permission.tablet !== undefined;
    case "teleAwv":
      return permission.teleAwv !== undefined;
  }
}

function expected(key: PermissionKey, c: Caller): number {
  const permission: Permission = PERMISSIONS[key];
  const theCase = CASES[key];
  if (!admits(permission, c.kind)) return c.kind === "none" ? 401 : 403;
  // Routes open to anyone name no practice's records.
  if (c.own === c.target || permission.anyone === true) return theCase.ok;
  return theCase.foreign ?? 404;
}

describe("the permission table", () => {
  test("has one entry for every registered route and none for a route that does not exist", () => {
    expect([...t.app.routeKeys()].sort()).toEqual(Object.keys(PERMISSIONS).sort());
    expect(Object.keys(CASES).sort()).toEqual(Object.keys(PERMISSIONS).sort());
  });

  test.each(Object.keys(PERMISSIONS) as PermissionKey[])(
    "%s answers every credential kind and role as the table says",
    async (key) => {
      const theCase = CASES[key];
      const mismatches: string[] = [];
      for (const caller of callers) {
        const c = theCase.fresh === true ? await caller.fresh() : caller;
        const options = await theCase.request(c);
        const res = await t.app.inject({ ...options, headers: { ...c.headers, ...(options.headers ?? {}) } });
        const want = expected(key, c);
        if (res.statusCode !== want)
          mismatches.push(`${c.kind}: ${res.statusCode} (want ${want}) ${res.body.slice(0, 160)}`);
      }
      expect(mismatches).toEqual([]);
    },
  );
});

describe("HEAD", () => {
  test("follows its GET on every route, for callers with no credential, a user and the tablet", async () => {
    const mismatches: string[] = [];
    const gets = (Object.keys(PERMISSIONS) as PermissionKey[]).filter((key) => key.startsWith("GET "));
    for (const key of gets) {
      for (const caller of callers.filter((c) => ["none", "user", "tablet"].includes(c.kind))) {
        const options = await CASES[key].request(caller);
        const res = await t.app.inject({ ...options, method: "HEAD", headers: caller.headers });
        const want = expected(key, caller);
        if (res.statusCode !== want)
          mismatches.push(`${key} ${caller.kind}: ${res.statusCode} (want ${want})`);
      }
    }
    expect(mismatches).toEqual([]);
  });
});

describe("a patient credential on a route it may call", () => {
  const caller = (kind: CallerKind) => {
    const found = callers.find((c) => c.kind === kind);
    if (found === undefined) throw new Error(`no ${kind} caller`);
    return found;
  };
  const call = (c: Caller, options: InjectOptions) =>
    t.app.inject({ ...options, headers: { ...c.headers, ...(options.headers ?? {}) } });

  test("the tablet reads only its own survey and saves only its own result", async () => {
    const tablet = await caller("tablet").fresh();
    const own = saveBody(tablet);
    for (const url of [`/api/surveys/${a.surveyId}`, `/api/surveys/${TELE_AWV_SURVEY_ID}`]) {
      expect((await call(tablet, { method: "GET", url })).statusCode, url).toBe(403);
    }
    for (const payload of [
      { ...own, patientId: b.patientId },
      { ...own, surveyId: TELE_AWV_SURVEY_ID },
      { ...own, clientRequestId: objectId() },
      { ...own, id: a.resultId },
    ]) {
      const res = await call(tablet, { method: "POST", url: "/api/surveyresults", payload });
      expect(res.statusCode, JSON.stringify(payload)).toBe(403);
    }
    expect((await call(tablet, { method: "POST", url: "/api/surveyresults", payload: own })).statusCode).toBe(
      200,
    );
  });

  test("the Tele-AWV token reads only the Tele-AWV survey, and a forged one is refused", async () => {
    const teleAwv = caller("teleAwv");
    expect((await call(teleAwv, { method: "GET", url: `/api/surveys/${SURVEY}` })).statusCode).toBe(403);
    expect((await call(teleAwv, { method: "GET", url: `/api/surveys/${a.surveyId}` })).statusCode).toBe(403);
    const forged = { ...teleAwv, headers: { ...XHR, authorization: `Bearer ${"x".repeat(43)}` } };
    const res = await call(forged, { method: "POST", url: "/api/auth/teleawv", payload: {} });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ responseStatus: { message: INVALID_INVITATION } });
    const forgedLink = await call(forged, { method: "GET", url: "/api/auth/teleawv/link" });
    expect(forgedLink.statusCode).toBe(403);
  });

  test("a Tele-AWV token reads only its own invitation's draft", async () => {
    const ptEmail = `pt-${unique()}@example.test`;
    const session = await login(t.app, (await createTestUser(t.db, a.tenantId, { role: "user" })).email);
    await session.inject({
      method: "POST",
      url: "/api/auth/sendAWVEmail",
      payload: { ptEmail, tenant: a.tenantId, ptId: a.patientId },
    });
    const mine = { headers: { ...XHR, authorization: `Bearer ${await invitationToken(ptEmail)}` } };
    const theirs = caller("teleAwv");
    const secret = { depression: { phq9SelfHarm: "nearly every day" } };
    const saved = await t.app.inject({
      method: "PUT",
      url: "/api/auth/teleawv/draft",
      ...mine,
      payload: { answers: secret, pageIndex: 4, language: "es" },
    });
    expect(saved.statusCode).toBe(200);
    const own = await t.app.inject({ method: "GET", url: "/api/auth/teleawv/link", ...mine });
    expect(own.json()).toMatchObject({ state: "open", draft: { answers: secret, pageIndex: 4 } });
    const other = await call(theirs, { method: "GET", url: "/api/auth/teleawv/link" });
    expect(other.statusCode).toBe(200);
    expect(other.body).not.toContain("nearly every day");
  });

  test("a used link's token says it was used on the link route and reaches nothing else", async () => {
    const ptEmail = `pt-${unique()}@example.test`;
    const session = await login(t.app, (await createTestUser(t.db, a.tenantId, { role: "user" })).email);
    await session.inject({
      method: "POST",
      url: "/api/auth/sendAWVEmail",
      payload: { ptEmail, tenant: a.tenantId, ptId: a.patientId },
    });
    const token = await invitationToken(ptEmail);
    await t.db
      .update(awvInvitations)
      .set({ usedAt: new Date(), draftAnswers: { pain: { hadPain: "2" } }, draftSavedAt: new Date() })
      .where(eq(awvInvitations.tokenHash, hashToken(token)));
    const spent = { ...XHR, authorization: `Bearer ${token}` };
    const link = await t.app.inject({ method: "GET", url: "/api/auth/teleawv/link", headers: spent });
    expect(link.statusCode).toBe(200);
    expect(link.json()).toMatchObject({ state: "used", draft: null });
    expect(link.json<{ practice: { name: string } }>().practice.name).not.toBe("");
    for (const options of [
      {
        method: "PUT" as const,
        url: "/api/auth/teleawv/draft",
        payload: { answers: {}, pageIndex: 0, language: "en" },
      },
      { method: "GET" as const, url: `/api/surveys/${TELE_AWV_SURVEY_ID}` },
      { method: "POST" as const, url: "/api/auth/teleawv", payload: {} },
    ]) {
      const res = await t.app.inject({ ...options, headers: spent });
      expect(res.statusCode, options.url).toBe(403);
    }
  });
});
