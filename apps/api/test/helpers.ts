import { AsyncLocalStorage } from "node:async_hooks";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { randomBytes } from "node:crypto";
import pg from "pg";
import { eq } from "drizzle-orm";
import { Secret, TOTP } from "otpauth";
import { inject } from "vitest";
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from "fastify";
import { CORE_CARE_WELLNESS_EXAM_ID, objectId } from "@core-care/survey-engine";
import { Role, type Me, type Patient, type TenantSettings } from "@core-care/schema";
import { buildApp, type BuildAppOptions } from "../src/app.js";
import type { Config } from "../src/config.js";
import { openDatabase, type Database, type Db } from "../src/db/index.js";
import { tenants, userTenants, users } from "../src/db/schema.js";
import { installBuiltinSurveys } from "../src/services/builtin-surveys.js";
import { hashPassword } from "../src/services/passwords.js";
import { capturedStatements } from "./tenant-routing.js";

const inspecting = new AsyncLocalStorage<true>();

/**
 * Runs a test's own look at the database (reading audit rows across tenants, ageing a row), which the
 * tenant-routing check (test/setup.ts) leaves out: it judges what the application sends.
 */
export const inspect = <T>(look: () => PromiseLike<T>): Promise<T> =>
  // Awaited inside: a Drizzle query runs only when awaited, and must run in the context.
  inspecting.run(true, async () => await look());

/** Every statement a test database is sent outside `inspect`, for the tenant-routing check. */
const capture = (text: string) => {
  if (inspecting.getStore() !== true) capturedStatements.add(text);
};

declare module "vitest" {
  export interface ProvidedContext {
    /** Which database this vitest project runs on. */
    dbKind: "pglite" | "postgres";
    /** Server URL of the 'postgres' project; tests create and drop their own database on it. */
    databaseUrl: string;
    /** A migrated PGlite data-dir archive made by test/global-setup.ts (kept between runs). */
    pgliteArchive: string;
    /** The 'postgres' project's migrated template database, made once per run by test/global-setup.ts. */
    templateDatabase: string;
  }
}

/**
 * The database this file's project runs on. The 'unit' project provides none: a unit file
 * (`*.test.ts`) that asks for a database fails here, and is to be named `*.int.test.ts`.
 */
export function testDatabaseKind(): "pglite" | "postgres" {
  const kind = inject("dbKind") as "pglite" | "postgres" | undefined;
  if (kind === undefined) {
    throw new Error(
      "a unit test file (*.test.ts) opens no database: name it *.int.test.ts to run it on the databases",
    );
  }
  return kind;
}

/** Each archive read once per process: the files of a worker share its modules (isolate: false). */
const archives = new Map<string, Blob>();

/** The password of every user the helpers create (long and not on the common list). */
export const TEST_PASSWORD = "test-only passphrase: amber kestrel 4417";

export type TestRole = "none" | "user" | "admin" | "sysAdmin";

/**
 * A fresh, empty, migrated database of the caller's own: an in-memory PGlite started from the migrated
 * archive, or on the server a copy of the run's migrated template database (test/global-setup.ts).
 */
export async function createTestDatabase(
  options: { onIdleError?: (err: Error) => void; listStatementTimeoutMs?: number } = {},
): Promise<Database> {
  if (testDatabaseKind() === "pglite") {
    const file = inject("pgliteArchive");
    let archive = archives.get(file);
    if (archive === undefined) {
      archive = new Blob([readFileSync(file)]);
      archives.set(file, archive);
    }
    return openDatabase({ pgliteArchive: archive, onStatement: capture });
  }
  const serverUrl = inject("databaseUrl");
  const name = `t_${process.pid}_${randomBytes(6).toString("hex")}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`create database ${name} template ${inject("templateDatabase")}`);
  await admin.end();
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const database = await openDatabase({
    databaseUrl: url.toString(),
    poolSize: 5,
    onStatement: capture,
    ...options,
  });
  return {
    ...database,
    async close() {
      await database.close();
      const dropper = new pg.Client({ connectionString: serverUrl });
      await dropper.connect();
      await dropper.query(`drop database if exists ${name} with (force)`);
      await dropper.end();
    },
  };
}

/** A config for tests: test mode, quiet, a throwaway DATA_DIR, nothing seeded. */
export function testConfig(overrides: Partial<Config> = {}): Config {
  const dataDir = mkdtempSync(join(tmpdir(), "core-care-test-"));
  return {
    port: 0,
    host: "127.0.0.1",
    dataDir,
    databaseUrl: undefined,
    nodeEnv: "test",
    sessionSecret: randomBytes(32).toString("base64url"),
    demoPassword: TEST_PASSWORD,
    idleTimeoutSeconds: 1440,
    teleAwvLinkTtlSeconds: 14 * 24 * 60 * 60,
    absoluteTimeoutSeconds: 12 * 60 * 60,
    smtpUrl: undefined,
    mailFrom: "Core Care <no-reply@corecare.test>",
    publicUrl: "http://127.0.0.1:3000",
    webDist: join(dataDir, "no-web"),
    logLevel: "silent",
    seedOnStart: false,
    demoReceiver: false,
    rateLimitPerMinute: 100_000,
    trustProxy: false,
    workers: 1,
    metricsToken: undefined,
    shutdownTimeoutSeconds: 30,
    deliveryStallMinutes: 15,
    listTenantConcurrency: 2,
    listTenantWaitMs: 1000,
    inboundHl7: undefined,
    ...overrides,
  };
}

export interface TestTenant {
  tenantId: string;
  userId: string;
  email: string;
  password: string;
  roles: number;
}

export interface TestApp {
  app: FastifyInstance;
  db: Db;
  database: Database;
  config: Config;
  /** Makes a tenant (with the built-in surveys) and one user holding `role` in it. */
  createTestTenant(options?: { role?: TestRole; settings?: Partial<TenantSettings> }): Promise<TestTenant>;
  /** Adds a user holding `role` to an existing tenant. */
  createTestUser(tenantId: string, options?: { role?: TestRole; email?: string }): Promise<TestTenant>;
  close(): Promise<void>;
}

export interface CreateTestAppOptions extends Omit<BuildAppOptions, "database"> {
  config?: Partial<Config>;
  /** Share a database between apps (e.g. to check that sessions survive a restart). */
  database?: Database;
}

/** Builds the app on a fresh database; `close()` closes the app, drops the database and the DATA_DIR. */
export async function createTestApp(options: CreateTestAppOptions = {}): Promise<TestApp> {
  const config = testConfig(options.config);
  const ownsDatabase = options.database === undefined;
  const database = options.database ?? (await createTestDatabase());
  const app = await buildApp(config, { ...options, database });
  await app.ready();
  const db = database.db;
  return {
    app,
    db,
    database,
    config,
    createTestTenant: (o) => createTestTenant(db, o),
    createTestUser: (tenantId, o) => createTestUser(db, tenantId, o),
    async close() {
      await app.close();
      if (ownsDatabase) await database.close();
      rmSync(config.dataDir, { recursive: true, force: true });
    },
  };
}

/** Another server on `t`'s database with its session secret: it trusts the same cookies, as after a restart. */
export function createSecondServer(t: TestApp): Promise<TestApp> {
  return createTestApp({ database: t.database, config: { sessionSecret: t.config.sessionSecret } });
}

const roleFlags = (role: TestRole): number => Role[role];

/**
 * The one hash of TEST_PASSWORD every test user gets: scrypt at full cost for each user the helpers made
 * was most of many integration files' time, and what a test proves of passwords is per user only where it
 * sets a password itself.
 */
let testPasswordHash: Promise<string> | undefined;
const hashedTestPassword = () => (testPasswordHash ??= hashPassword(TEST_PASSWORD));

/** Adds a user holding `role` to a tenant. */
export async function createTestUser(
  db: Db,
  tenantId: string,
  options: { role?: TestRole; email?: string } = {},
): Promise<TestTenant> {
  const userId = objectId();
  const email = options.email ?? `u-${userId}@example.test`;
  const roles = roleFlags(options.role ?? "user");
  await db.insert(users).values({
    id: userId,
    email,
    firstName: "Test",
    lastName: `User ${userId.slice(-4)}`,
    passwordHash: await hashedTestPassword(),
  });
  await db.insert(userTenants).values({ tenantId, userId, roles });
  return { tenantId, userId, email, password: TEST_PASSWORD, roles };
}

/** Makes a tenant of its own (with the built-in surveys) and a user holding `role` in it. */
export async function createTestTenant(
  db: Db,
  options: { role?: TestRole; settings?: Partial<TenantSettings> } = {},
): Promise<TestTenant> {
  const tenantId = `t-${objectId()}`;
  await db.insert(tenants).values({
    id: tenantId,
    name: `Test practice ${tenantId.slice(-6)}`,
    settings: { teleAwvEmail: false, alternateFalls: false, ...options.settings },
  });
  await installBuiltinSurveys(db, tenantId);
  return createTestUser(db, tenantId, { role: options.role ?? "user" });
}

/** A signed-in browser: its cookie and the CSRF header every write needs. */
export interface Session {
  cookie: string;
  me: Me;
  /** Headers for `app.inject`: the session cookie and `X-Requested-With`. */
  headers: Record<string, string>;
  /** `app.inject` with this session's headers. */
  inject(options: InjectOptions): Promise<LightMyRequestResponse>;
}

/** The `sid=...` pair of a response's Set-Cookie, if it sets one. */
export function sessionCookie(response: LightMyRequestResponse): string | undefined {
  const cookie = response.cookies.find((c) => c.name === "sid");
  return cookie === undefined || cookie.value === "" ? undefined : `sid=${cookie.value}`;
}

/** Signs in through POST /api/auth/sessions and answers the session; throws when sign-in fails. */
export async function login(
  app: FastifyInstance,
  email: string,
  password: string = TEST_PASSWORD,
): Promise<Session> {
  const response = await app.inject({
    method: "POST",
    url: "/api/auth/sessions",
    headers: { "x-requested-with": "XMLHttpRequest" },
    payload: { email, password },
  });
  const cookie = sessionCookie(response);
  if (response.statusCode !== 200 || cookie === undefined) {
    throw new Error(`login of ${email} failed: ${response.statusCode} ${response.body}`);
  }
  return asSession(app, cookie, response.json<Me>());
}

/** The authenticator's code `steps` 30-second steps from now, as the user's app would show it. */
export function totpCodeAt(secret: string, steps = 0): string {
  return TOTP.generate({ secret: Secret.fromBase32(secret), timestamp: Date.now() + steps * 30_000 });
}

/** Turns a second factor on for a user, as a confirmed enrolment leaves it; answers its secret. */
export async function giveSecondFactor(db: Db, userId: string): Promise<string> {
  const secret = new Secret({ size: 20 }).base32;
  await db.update(users).set({ totpSecret: secret, totpLastStep: null }).where(eq(users.id, userId));
  return secret;
}

/**
 * Signs in with the password and then a current code of the user's second factor; throws unless both
 * steps pass. Each call acts in a new 30-second step (the last accepted step is forgotten first), since a
 * code is never accepted twice.
 */
export async function loginWithCode(
  app: FastifyInstance,
  db: Db,
  user: { userId: string; email: string },
  secret: string,
): Promise<Session> {
  const headers = { "x-requested-with": "XMLHttpRequest" };
  const first = await app.inject({
    method: "POST",
    url: "/api/auth/sessions",
    headers,
    payload: { email: user.email, password: TEST_PASSWORD },
  });
  const pending = sessionCookie(first);
  if (first.statusCode !== 202 || pending === undefined) {
    throw new Error(`password step of ${user.email} failed: ${first.statusCode} ${first.body}`);
  }
  await db.update(users).set({ totpLastStep: null }).where(eq(users.id, user.userId));
  const second = await app.inject({
    method: "POST",
    url: "/api/auth/sessions/totp",
    headers: { ...headers, cookie: pending },
    payload: { code: totpCodeAt(secret) },
  });
  const cookie = sessionCookie(second);
  if (second.statusCode !== 200 || cookie === undefined) {
    throw new Error(`code step of ${user.email} failed: ${second.statusCode} ${second.body}`);
  }
  return asSession(app, cookie, second.json<Me>());
}

/** The session id of a session's cookie `sid=<id>.<signature>` (the `sessions` row's `sid`). */
export function sessionIdOf(session: Session): string {
  return decodeURIComponent(session.cookie.slice("sid=".length)).split(".")[0] ?? "";
}

/** A Session object for a cookie already held. */
export function asSession(app: FastifyInstance, cookie: string, me: Me): Session {
  const headers = { cookie, "x-requested-with": "XMLHttpRequest" };
  return {
    cookie,
    me,
    headers,
    inject: (options) => app.inject({ ...options, headers: { ...headers, ...(options.headers ?? {}) } }),
  };
}

/** A patient saved by the session through POST /api/patients (sex "F" unless given); throws unless 201. */
export async function postPatient(
  session: Session,
  fields: { mrn: string; firstName: string; lastName: string; dob: string; sex?: "F" | "M" },
): Promise<Patient> {
  const response = await session.inject({
    method: "POST",
    url: "/api/patients",
    payload: { sex: "F", ...fields },
  });
  if (response.statusCode !== 201) {
    throw new Error(`saving patient ${fields.mrn} failed: ${response.statusCode} ${response.body}`);
  }
  return response.json<Patient>();
}

/**
 * A new result of the Core Care Wellness Exam for the patient, saved by the session through POST
 * /api/surveyresults (not submitted, no answers unless given); answers its id, throws unless 200.
 */
export async function postResult(
  session: Session,
  patientId: string,
  answers: Record<string, unknown> = {},
): Promise<string> {
  const response = await session.inject({
    method: "POST",
    url: "/api/surveyresults",
    payload: {
      clientRequestId: `req-${objectId()}`,
      surveyId: CORE_CARE_WELLNESS_EXAM_ID,
      patientId,
      answers,
    },
  });
  if (response.statusCode !== 200) {
    throw new Error(`saving a result failed: ${response.statusCode} ${response.body}`);
  }
  return response.json<{ id: string }>().id;
}

/**
 * A new practice with one staff member signed in (a user unless `role` says otherwise) and one patient
 * they saved through the API: the start of most tests of results.
 */
export async function signedInWithPatient(
  t: TestApp,
  patient: Parameters<typeof postPatient>[1],
  options: { role?: TestRole; settings?: Partial<TenantSettings> } = {},
): Promise<{ u: TestTenant; s: Session; patient: Patient }> {
  const u = await t.createTestTenant({ role: options.role ?? "user", settings: options.settings ?? {} });
  const s = await login(t.app, u.email);
  return { u, s, patient: await postPatient(s, patient) };
}

/** The field names of a 400 answer, in order. */
export function errorFields(response: LightMyRequestResponse): string[] {
  const body = response.json<{ responseStatus?: { errors?: { field: string }[] } }>();
  return (body.responseStatus?.errors ?? []).map((e) => e.field);
}
