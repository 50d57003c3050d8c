import { createServer, connect, type Server, type Socket } from "node:net";
import type { AddressInfo } from "node:net";
import { randomBytes } from "node:crypto";
import pg from "pg";
import { describe, expect, inject, test } from "vitest";
import { createTestApp, login, type Session, type TestApp } from "../../test/helpers.js";
import { openDatabase } from "./index.js";

// The promise: while the database cannot be reached the API answers 503 with Retry-After (never 500)
// and /readyz says it is unavailable; once the database is back, the same server answers again.

function expectUnavailable(res: { statusCode: number; headers: Record<string, unknown>; json<T>(): T }) {
  expect(res.statusCode).toBe(503);
  expect(res.headers["retry-after"]).toBe("5");
  expect(res.json<{ responseStatus: { status: number } }>().responseStatus.status).toBe(503);
}

/** A TCP relay to the database server that can be cut (every connection dropped) and restored. */
class Relay {
  private server: Server | undefined;
  private readonly sockets = new Set<Socket>();
  port = 0;
  constructor(
    private readonly host: string,
    private readonly target: number,
  ) {}
  async open(): Promise<void> {
    const server = createServer((client) => {
      const upstream = connect(this.target, this.host);
      for (const socket of [client, upstream]) {
        this.sockets.add(socket);
        socket.on("close", () => this.sockets.delete(socket));
        socket.on("error", () => socket.destroy());
      }
      client.pipe(upstream).pipe(client);
    });
    await new Promise<void>((resolve) => server.listen(this.port, "127.0.0.1", resolve));
    this.port = (server.address() as AddressInfo).port;
    this.server = server;
  }
  async cut(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => server?.close(() => resolve()) ?? resolve());
  }
}

describe("a database outage", () => {
  test("answers 503 with Retry-After while the database is unreachable, and recovers", async () => {
    if (inject("dbKind") === "postgres") {
      const serverUrl = new URL(inject("databaseUrl"));
      const name = `o_${process.pid}_${randomBytes(6).toString("hex")}`;
      const admin = new pg.Client({ connectionString: serverUrl.toString() });
      await admin.connect();
      await admin.query(`create database ${name}`);
      const relay = new Relay(serverUrl.hostname, Number(serverUrl.port || 5432));
      await relay.open();
      const url = new URL(serverUrl);
      url.port = String(relay.port);
      url.pathname = `/${name}`;
      const database = await openDatabase({ databaseUrl: url.toString(), poolSize: 3 });
      const t = await createTestApp({ database });
      try {
        const u = await t.createTestTenant({ role: "admin" });
        const s = await login(t.app, u.email);
        expect((await s.inject({ method: "GET", url: "/api/locations" })).statusCode).toBe(200);

        await relay.cut();
        expectUnavailable(await s.inject({ method: "GET", url: "/api/locations" }));
        const ready = await t.app.inject({ method: "GET", url: "/readyz" });
        expect(ready.statusCode).toBe(503);
        expect(ready.json()).toEqual({ status: "unavailable", database: "postgres" });
        expect((await t.app.inject({ method: "GET", url: "/healthz" })).statusCode).toBe(200);

        await relay.open();
        await expect
          .poll(async () => (await s.inject({ method: "GET", url: "/api/locations" })).statusCode, {
            timeout: 30_000,
          })
          .toBe(200);
        expect((await t.app.inject({ method: "GET", url: "/readyz" })).statusCode).toBe(200);
      } finally {
        await t.close();
        await database.close();
        await relay.cut();
        await admin.query(`drop database if exists ${name} with (force)`);
        await admin.end();
      }
    } else {
      // The embedded database has no server to lose; its equivalent is the database closed under
      // the app (its thread gone), which a later start reopens.
      const t: TestApp = await createTestApp();
      const u = await t.createTestTenant({ role: "admin" });
      const s: Session = await login(t.app, u.email);
      expect((await s.inject({ method: "GET", url: "/api/locations" })).statusCode).toBe(200);
      await t.database.close();
      try {
        expectUnavailable(await s.inject({ method: "GET", url: "/api/locations" }));
        const ready = await t.app.inject({ method: "GET", url: "/readyz" });
        expect(ready.statusCode).toBe(503);
        expect(ready.json()).toEqual({ status: "unavailable", database: "pglite" });
      } finally {
        await t.app.close();
      }
    }
  }, 120_000);
});
