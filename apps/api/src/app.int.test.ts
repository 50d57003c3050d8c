import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Writable } from "node:stream";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { ClientConfig, ErrorResponse, Patient } from "@core-care/schema";
import { createTestApp, login, type TestApp } from "../test/helpers.js";
import { sql } from "drizzle-orm";
import { helmetOptions, securityHeaders } from "./plugins/helmet.js";

describe("GET /api/config", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ config: { idleTimeoutSeconds: 900 } });
  });
  afterAll(async () => {
    await t.close();
  });

  test("answers the client constants without a session", async () => {
    const res = await t.app.inject({ method: "GET", url: "/api/config" });
    expect(res.json<ClientConfig>()).toEqual({
      idleTimeoutSeconds: 900,
      keepaliveIntervalSeconds: 300,
      keepaliveMinDelaySeconds: 10,
      defaultUrl: "/",
      environment: "test",
    });
  });

  test("sends security headers with a CSP that allows no eval", async () => {
    const res = await t.app.inject({ method: "GET", url: "/api/config" });
    const csp = res.headers["content-security-policy"];
    // WebAssembly may be compiled (the report sandbox's interpreter); JavaScript may not be evaluated.
    expect(csp).toContain("script-src 'self' 'wasm-unsafe-eval'");
    expect(String(csp).split(/[\s;]+/)).not.toContain("'unsafe-eval'");
    expect(csp).toContain("worker-src 'self' blob:");
    expect(res.headers["x-content-type-options"]).toBe("nosniff");
    expect(res.headers["cache-control"]).toBe("no-store");
  });

  test("sends helmet's whole header set on every answer, errors included", async () => {
    for (const url of ["/api/config", "/api/nothing-here", "/api/users/me"]) {
      const res = await t.app.inject({ method: "GET", url });
      expect(res.headers).toMatchObject({
        "content-security-policy": expect.stringContaining("frame-ancestors 'none'") as string,
        "cross-origin-opener-policy": "same-origin",
        "cross-origin-resource-policy": "same-origin",
        "referrer-policy": "no-referrer",
        "x-content-type-options": "nosniff",
        "x-frame-options": "SAMEORIGIN",
        "x-permitted-cross-domain-policies": "none",
      });
      expect(res.headers["strict-transport-security"]).toBeUndefined();
    }
    const production = securityHeaders(helmetOptions({ ...t.config, nodeEnv: "production" }));
    expect(production["strict-transport-security"]).toBe("max-age=31536000; includeSubDomains");
    expect(production["content-security-policy"]).toContain("upgrade-insecure-requests");
  });

  test("answers an unknown API path with 404 in the error shape", async () => {
    const res = await t.app.inject({ method: "GET", url: "/api/nothing-here" });
    expect(res.statusCode).toBe(404);
    expect(res.json<ErrorResponse>().responseStatus.status).toBe(404);
  });

  test("answers 400 for malformed JSON and 413 for a body over the limit", async () => {
    const headers = { "x-requested-with": "XMLHttpRequest", "content-type": "application/json" };
    const bad = await t.app.inject({ method: "POST", url: "/api/auth/sessions", headers, payload: "{nope" });
    expect(bad.statusCode).toBe(400);
    expect(bad.json<ErrorResponse>().responseStatus.status).toBe(400);
    const big = await t.app.inject({
      method: "POST",
      url: "/api/auth/sessions",
      headers,
      payload: JSON.stringify({ email: "a@b.test", password: "x".repeat(3 * 1024 * 1024) }),
    });
    expect(big.statusCode).toBe(413);
  });
});

describe("web app", () => {
  let t: TestApp;
  let webDist: string;
  beforeAll(async () => {
    webDist = mkdtempSync(join(tmpdir(), "core-care-web-"));
    mkdirSync(join(webDist, "assets"), { recursive: true });
    writeFileSync(
      join(webDist, "index.html"),
      '<!doctype html><html><head></head><body class="app"><div id="root"></div></body></html>',
    );
    writeFileSync(
      join(webDist, "tablet.html"),
      '<!doctype html><html><head></head><body class="tablet"><div id="root"></div></body></html>',
    );
    writeFileSync(join(webDist, "tablet-sw.js"), "self.addEventListener('fetch', () => {})");
    writeFileSync(join(webDist, "assets", "app.js"), "console.log('app')");
    writeFileSync(join(webDist, "assets", "report-frame-x1.js"), "onmessage = () => {}");
    mkdirSync(join(webDist, ".vite"));
    writeFileSync(
      join(webDist, ".vite", "manifest.json"),
      JSON.stringify({ "tablet.html": { file: "assets/tablet-t1.js", isEntry: true } }),
    );
    t = await createTestApp({ config: { webDist } });
  });
  afterAll(async () => {
    await t.close();
    rmSync(webDist, { recursive: true, force: true });
  });

  test("serves index.html for client routes and files from the build", async () => {
    const route = await t.app.inject({ method: "GET", url: "/patients/abc" });
    expect(route.statusCode).toBe(200);
    expect(route.headers["content-type"]).toContain("text/html");
    expect(route.body).toContain('<body class="app">');
    const asset = await t.app.inject({ method: "GET", url: "/assets/app.js" });
    expect(asset.body).toBe("console.log('app')");
  });

  test("puts the signed-in user and tenant in data attributes of <body>", async () => {
    const u = await t.createTestTenant();
    const s = await login(t.app, u.email);
    const res = await s.inject({ method: "GET", url: "/" });
    expect(res.headers["cache-control"]).toBe("no-store");
    const attr = (name: string) => {
      const raw = new RegExp(`${name}="([^"]*)"`).exec(res.body)?.[1] ?? "";
      return JSON.parse(
        raw
          .replace(/&quot;/g, '"')
          .replace(/&#39;/g, "'")
          .replace(/&lt;/g, "<")
          .replace(/&gt;/g, ">")
          .replace(/&amp;/g, "&"),
      ) as unknown;
    };
    expect(attr("data-user")).toEqual(s.me.user);
    expect(attr("data-tenant")).toEqual(s.me.tenant);
  });

  test("escapes the data attributes", async () => {
    const u = await t.createTestTenant();
    const s = await login(t.app, u.email);
    const { users } = await import("./db/schema.js");
    const { eq } = await import("drizzle-orm");
    await t.db.update(users).set({ firstName: `"><script>alert(1)</script>` }).where(eq(users.id, u.userId));
    const res = await s.inject({ method: "GET", url: "/auth/login" });
    expect(res.body).not.toContain("<script>alert(1)</script>");
    expect(res.body).toContain("&lt;script&gt;");
  });

  test.each([
    "/tablet",
    "/tablet/",
    "/tablet?patientId=abc",
    "/tablet/patient-survey/abc/pg/2",
    "/tablet/anything/else",
  ])("serves the tablet's own page tablet.html for %s", async (url) => {
    const res = await t.app.inject({ method: "GET", url });
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toContain("text/html");
    expect(res.headers["cache-control"]).toBe("no-store");
    expect(res.body).toContain('<body class="tablet">');
  });

  test.each(["/tablets", "/tablet.html", "/index.html", "/auth/tablet"])(
    "serves index.html, not the tablet's page, for %s",
    async (url) => {
      const res = await t.app.inject({ method: "GET", url });
      expect(res.body).toContain('<body class="app">');
    },
  );

  test("puts the signed-in user and tenant on the tablet's page too", async () => {
    const u = await t.createTestTenant();
    const s = await login(t.app, u.email);
    const res = await s.inject({ method: "GET", url: "/tablet" });
    expect(res.body).toMatch(/<body class="tablet" data-user="[^"]+" data-tenant="[^"]+" data-may="[^"]+">/);
  });

  test("serves the tablet's service worker as script, revalidated on every visit, and the CSP lets it run", async () => {
    const res = await t.app.inject({ method: "GET", url: "/tablet-sw.js" });
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toContain("javascript");
    expect(res.headers["cache-control"]).toBe("no-cache");
    expect(res.body).toContain("addEventListener('fetch'");
    const page = await t.app.inject({ method: "GET", url: "/tablet" });
    expect(page.headers["content-security-policy"]).toContain("worker-src 'self'");
    const asset = await t.app.inject({ method: "GET", url: "/assets/app.js" });
    expect(asset.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
  });

  test("answers 404, not a page, for a build file that does not exist", async () => {
    const res = await t.app.inject({ method: "GET", url: "/assets/gone-a1.js" });
    expect(res.statusCode).toBe(404);
    expect(res.body).not.toContain("<body");
  });

  test("lets the sandboxed report frame load its script and hides the build manifest", async () => {
    const frame = await t.app.inject({ method: "GET", url: "/assets/report-frame-x1.js" });
    expect(frame.headers["cross-origin-resource-policy"]).toBe("cross-origin");
    const app = await t.app.inject({ method: "GET", url: "/assets/app.js" });
    expect(app.headers["cross-origin-resource-policy"]).toBe("same-origin");
    const manifest = await t.app.inject({ method: "GET", url: "/.vite/manifest.json" });
    expect(manifest.body).not.toContain("tablet-t1.js");
  });

  test("serves index.html without data attributes when signed out", async () => {
    const res = await t.app.inject({ method: "GET", url: "/auth/login?message=hi" });
    expect(res.body).toContain('<body class="app">');
    expect(res.body).not.toContain("data-user");
  });
});

describe("unexpected errors", () => {
  test("answer 500 without internals", async () => {
    const t = await createTestApp();
    const u = await t.createTestTenant();
    const s = await login(t.app, u.email);
    // A statement the database refuses for a reason no caller can help (here a table gone).
    await t.db.execute(sql`alter table patients rename to patients_gone`);
    try {
      const res = await s.inject({ method: "GET", url: "/api/patients" });
      expect(res.statusCode).toBe(500);
      expect(res.json()).toEqual({
        responseStatus: { status: 500, message: "An unexpected error occurred." },
      });
    } finally {
      await t.close();
    }
  });
});

describe("logging", () => {
  test("writes no PHI to any log line", async () => {
    const lines: string[] = [];
    const stream = new Writable({
      write(chunk: Buffer, _enc, done) {
        lines.push(chunk.toString());
        done();
      },
    });
    const t = await createTestApp({ config: { logLevel: "trace" }, logStream: stream });
    try {
      const u = await t.createTestTenant();
      const s = await login(t.app, u.email);
      const phi = {
        mrn: "PHI-778899",
        firstName: "Zebedee",
        lastName: "Quixotic",
        dob: "1931-02-03",
        sex: "M",
        email: "zeb.q@example.test",
        phone: "555-867-5309",
      };
      const p = (await s.inject({ method: "POST", url: "/api/patients", payload: phi })).json<Patient>();
      await s.inject({ method: "GET", url: `/api/patients?q=Quixotic` });
      await s.inject({ method: "PUT", url: `/api/patients/${p.id}`, payload: { ...phi, dob: "not a date" } });
      await s.inject({ method: "DELETE", url: `/api/auth/passwords/${encodeURIComponent(u.email)}` });
      await s.inject({ method: "DELETE", url: "/api/users/zeb.q%40example.test" });
      await t.app.inject({
        method: "GET",
        url: "/auth/teleawv?tenant=demo&patientId=1&ptEmail=zeb.q%40example.test",
      });
      await t.app.inject({
        method: "POST",
        url: "/api/auth/sessions",
        headers: { "x-requested-with": "XMLHttpRequest" },
        payload: { email: u.email, password: "wrong password here" },
      });
      const log = lines.join("");
      expect(lines.length).toBeGreaterThan(10);
      for (const value of [
        phi.mrn,
        phi.firstName,
        phi.lastName,
        phi.dob,
        phi.email,
        phi.phone,
        u.email,
        "wrong password here",
      ]) {
        expect(log).not.toContain(value);
      }
    } finally {
      await t.close();
    }
  });
});
