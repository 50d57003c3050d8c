import { readdir, readFile } from "node:fs/promises";
import { get as httpGet } from "node:http";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { simpleParser } from "mailparser";
import { openDatabase, type Database } from "./db/index.js";
import { createPatient } from "./services/patients.js";
import { createTestTenant, createTestUser, TEST_PASSWORD } from "../test/helpers.js";
import { NEGATIVE_ANSWERS } from "../test/awv-answers.js";
import {
  freshServerStorage,
  signIn,
  startServer,
  stopServer,
  waitForStatus,
  type ServerProcess,
} from "../test/processes.js";

// Three API processes on one PostgreSQL behave as one: a session signed in on one works on the
// others, a sign-out or a role change on one holds on the others at once (the auth cache listens to
// the database), one rate limit budget per caller across them, and a Tele-AWV link is used once
// whichever process it reaches. (Runs on the 'postgres' project only: PGlite is one process.)
const RATE_LIMIT = 40;
let storage: Awaited<ReturnType<typeof freshServerStorage>>;
let database: Database;
const servers: ServerProcess[] = [];
let bases: string[] = [];

beforeAll(async () => {
  storage = await freshServerStorage();
  database = await openDatabase({ databaseUrl: storage.databaseUrl, poolSize: 2 });
  const env = {
    ...storage.env,
    NODE_ENV: "test",
    SESSION_SECRET: "fleet-test-session-secret-0123456789abcdef",
    RATE_LIMIT_PER_MINUTE: String(RATE_LIMIT),
  };
  for (let i = 0; i < 3; i++) servers.push(startServer({ env }));
  bases = await Promise.all(servers.map((server) => server.listening));
  await Promise.all(bases.map((base) => waitForStatus(`${base}/readyz`)));
}, 180_000);
afterAll(async () => {
  const codes = await Promise.all(servers.slice(0, 3).map((server) => stopServer(server)));
  await Promise.all(servers.slice(3).map((server) => stopServer(server, 5_000)));
  await database.close();
  await storage.drop();
  expect(codes).toEqual([0, 0, 0]);
}, 120_000);

const get = (base: string, path: string, headers: Record<string, string>) =>
  fetch(`${base}${path}`, { headers }).then((response) => response.status);
const everywhere = (path: string, headers: Record<string, string>) =>
  Promise.all(bases.map((base) => get(base, path, headers)));

describe("three API processes on one database", () => {
  test("share sessions; a role change and a sign-out on one hold on the others", async () => {
    const admin = await createTestTenant(database.db, { role: "admin" });
    const other = await createTestUser(database.db, admin.tenantId, { role: "admin" });
    const adminHeaders = await signIn(bases[0]!, admin.email, TEST_PASSWORD);
    const otherHeaders = await signIn(bases[1]!, other.email, TEST_PASSWORD);
    expect(await everywhere("/api/users/me", otherHeaders)).toEqual([200, 200, 200]);
    // Every process has now read (and keeps) the other admin's session and role.
    expect(await everywhere("/api/users", otherHeaders)).toEqual([200, 200, 200]);

    const demoted = await fetch(`${bases[0]}/api/users/${other.userId}`, {
      method: "PUT",
      headers: adminHeaders,
      body: JSON.stringify({ firstName: "No", lastName: "Longer", roles: 1 }),
    });
    expect(demoted.status).toBe(200);
    await expect.poll(() => everywhere("/api/users", otherHeaders)).toEqual([403, 403, 403]);
    expect(await everywhere("/api/users/me", otherHeaders)).toEqual([200, 200, 200]);

    // A DELETE carries no body, so no content type either.
    const { cookie, "x-requested-with": xhr } = otherHeaders;
    const signedOut = await fetch(`${bases[2]}/api/auth/sessions`, {
      method: "DELETE",
      headers: { cookie: cookie ?? "", "x-requested-with": xhr ?? "" },
    });
    expect(signedOut.status, await signedOut.text()).toBe(204);
    await expect.poll(() => everywhere("/api/users/me", otherHeaders)).toEqual([401, 401, 401]);
    expect(await everywhere("/api/users/me", adminHeaders)).toEqual([200, 200, 200]);
  }, 60_000);

  test("give a caller one rate limit budget across them", async () => {
    const user = await createTestTenant(database.db, { role: "user" });
    const headers = await signIn(bases[0]!, user.email, TEST_PASSWORD);
    // The window is the clock's minute: start early in one so that the requests all fall in it.
    const second = new Date().getSeconds();
    if (second > 40) await new Promise((resolve) => setTimeout(resolve, (61 - second) * 1000));
    const statuses: number[] = [];
    for (const base of bases) {
      for (let i = 0; i < 15; i++) statuses.push(await get(base, "/api/users/me", headers));
      // Past the store's sync interval: the next process asks the database before it counts.
      await new Promise((resolve) => setTimeout(resolve, 1_100));
    }
    expect(statuses.filter((status) => status === 200)).toHaveLength(RATE_LIMIT);
    expect(statuses.filter((status) => status === 429)).toHaveLength(45 - RATE_LIMIT);
  }, 120_000);

  test("accept a Tele-AWV link once, whichever process it reaches", async () => {
    const staff = await createTestTenant(database.db, { role: "user", settings: { teleAwvEmail: true } });
    const patient = await createPatient(database.db, staff.tenantId, {
      mrn: `F${Date.now()}`,
      firstName: "Fleet",
      lastName: "Patient",
      dob: "1949-11-30",
      sex: "M",
    });
    const headers = await signIn(bases[0]!, staff.email, TEST_PASSWORD);
    const email = `fleet-${patient.id}@example.org`;
    const sent = await fetch(`${bases[0]}/api/auth/sendAWVEmail`, {
      method: "POST",
      headers,
      body: JSON.stringify({ ptEmail: email, tenant: staff.tenantId, ptId: patient.id }),
    });
    expect(sent.status).toBe(200);
    const outbox = join(storage.dataDir, "outbox");
    let link: URL | undefined;
    for (const file of await readdir(outbox)) {
      const mail = await simpleParser(await readFile(join(outbox, file)));
      const to = Array.isArray(mail.to) ? mail.to[0]?.text : mail.to?.text;
      const found = /https?:\/\/\S+/.exec(mail.text ?? "")?.[0];
      if (to === email && found !== undefined) link = new URL(found);
    }
    expect(link).toBeDefined();
    const token = new URLSearchParams(link!.hash.slice(1)).get("token") ?? "";
    const submit = (base: string) =>
      fetch(`${base}/api/auth/sendAWV`, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          "x-requested-with": "XMLHttpRequest",
          authorization: `Bearer ${token}`,
        },
        body: JSON.stringify({ ...Object.fromEntries(link!.searchParams), answers: NEGATIVE_ANSWERS }),
      }).then((response) => response.status);
    const statuses = await Promise.all([submit(bases[1]!), submit(bases[2]!), submit(bases[0]!)]);
    expect(statuses.sort()).toEqual([200, 403, 403]);
  }, 60_000);

  test("WORKERS=2 serves one port from two processes, sums their metrics and stops both on SIGTERM", async () => {
    const token = "fleet-metrics-token-0123456789abcdef";
    const server = startServer({
      env: {
        ...storage.env,
        NODE_ENV: "test",
        SESSION_SECRET: "fleet-test-session-secret-0123456789abcdef",
        WORKERS: "2",
        METRICS_TOKEN: token,
      },
    });
    servers.push(server);
    const base = await server.listening;
    // The second worker may start seconds after the first on a busy machine.
    await expect
      .poll(() => (server.output().match(/"msg":"Server listening at /g) ?? []).length, { timeout: 60_000 })
      .toBe(2);
    await waitForStatus(`${base}/readyz`);
    // A new connection for each request: the primary hands connections to the workers in turn.
    const once = () =>
      new Promise<number>((resolve, reject) => {
        httpGet(`${base}/healthz`, { agent: false }, (response) => {
          response.resume();
          resolve(response.statusCode ?? 0);
        }).on("error", reject);
      });
    for (let i = 0; i < 20; i++) expect(await once()).toBe(200);
    const scrape = await fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${token}` } });
    expect(scrape.status).toBe(200);
    const count =
      /http_request_duration_seconds_count\{method="GET",route="\/healthz",status_code="200"\} (\d+)/.exec(
        await scrape.text(),
      );
    // Each worker answered about half: only the sum over both counts all 20.
    expect(Number(count?.[1])).toBe(20);
    expect(await stopServer(server)).toBe(0);
    expect(server.output()).toContain("SIGTERM: stopping 2 workers");
  }, 120_000);
});
