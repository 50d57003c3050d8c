import { spawn } from "node:child_process";
import { BUILTIN_SURVEYS, fillRequiredAnswers } from "@core-care/survey-engine";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { connect, createServer, type AddressInfo, type Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  expect,
  request as playwrightRequest,
  test as base,
  type APIRequestContext,
  type Page,
  type Route,
} from "@playwright/test";

/** The demo users the API seeds on a fresh database. */
export const DEMO_USERS = {
  staff: "staff@demo.test",
  admin: "admin@demo.test",
  sysadmin: "sysadmin@demo.test",
  multi: "multi@demo.test",
} as const;

/** The demo users' password. */
export const DEMO_PASSWORD = process.env.DEMO_PASSWORD ?? "core-care-demo-password";

/** A user agent of an iPad, for the tablet redirect. */
export const IPAD_USER_AGENT =
  "Mozilla/5.0 (iPad; CPU OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1";

const axeSource = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");

/**
 * Signs in through the login form as `email` and waits until the app has left the sign-in screen.
 * `redirect` lands on that path instead of the default.
 */
export async function login(
  page: Page,
  email: string,
  options: { password?: string; redirect?: string; baseURL?: string } = {},
) {
  const query = options.redirect ? `?redirect=${encodeURIComponent(options.redirect)}` : "";
  await page.goto(`${options.baseURL ?? ""}/auth/login${query}`);
  await page.getByLabel("E-mail").fill(email);
  await page.getByLabel("Password").fill(options.password ?? DEMO_PASSWORD);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.waitForURL((url) => !url.pathname.startsWith("/auth"));
}

interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: unknown[] }[];
}

/** Injects axe-core (axe-core/axe.min.js) into the page, runs it and fails on any serious or critical violation. */
export async function expectNoSeriousA11yViolations(page: Page) {
  // Contrast is judged on the settled page: a banner or indicator caught mid-fade is half transparent.
  await page.waitForFunction(() =>
    document.getAnimations().every((animation) => animation.playState !== "running"),
  );
  const loaded = await page.evaluate(() => "axe" in window);
  // Evaluated through the DevTools protocol, so the app's Content-Security-Policy stays in force.
  if (!loaded) await page.evaluate(axeSource);
  const violations = await page.evaluate(async () => {
    const axe = (
      window as unknown as { axe: { run: (ctx: Document) => Promise<{ violations: AxeViolation[] }> } }
    ).axe;
    const result = await axe.run(document);
    return result.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      nodes: v.nodes.map((n) => n.target),
    }));
  });
  const serious = violations.filter((v) => v.impact === "serious" || v.impact === "critical");
  expect(serious, JSON.stringify(serious, null, 2)).toEqual([]);
}

/**
 * Rewrites the app page's `<body data-user>` so the user's tenant list lacks the current tenant
 * (SPEC 4 multi-tenant check), keeping only `keep`.
 */
export function withTenantList(keep: string[]) {
  return async (route: Route) => {
    const response = await route.fetch();
    const list = keep.map((t) => `&quot;${t}&quot;`).join(",");
    const html = (await response.text()).replace(
      /&quot;tenants&quot;:\[[^\]]*\]/,
      `&quot;tenants&quot;:[${list}]`,
    );
    await route.fulfill({ response, body: html });
  };
}

/** Playwright's test with the shared helpers. */
export const test = base;
export { expect };

/** A second API server started by a test with its own environment and a fresh database. */
export interface ExtraServer {
  baseURL: string;
  /** Its DATA_DIR, where its mail lands in `outbox/` as .eml files. */
  dataDir: string;
  stop: () => Promise<void>;
}

/**
 * Starts the real API server (serving the built web app) on a free port with `env` added, on a new
 * embedded database, and waits until it answers GET /api/config.
 */
export async function startServer(env: Record<string, string>): Promise<ExtraServer> {
  const port = await new Promise<number>((resolve) => {
    const probe = createServer().listen(0, "127.0.0.1", () => {
      const address = probe.address();
      probe.close(() => resolve(typeof address === "object" && address ? address.port : 0));
    });
  });
  const dataDir = mkdtempSync(join(tmpdir(), "core-care-e2e-extra-"));
  const child = spawn("pnpm", ["--filter", "@core-care/api", "start"], {
    env: {
      ...process.env,
      PORT: String(port),
      HOST: "127.0.0.1",
      NODE_ENV: "test",
      DATA_DIR: dataDir,
      DATABASE_URL: "",
      ...(process.env.E2E_WEB_DIST ? { WEB_DIST: process.env.E2E_WEB_DIST } : {}),
      ...env,
    },
    stdio: "ignore",
    detached: true,
  });
  const baseURL = `http://127.0.0.1:${port}`;
  const stop = async () => {
    if (child.pid && child.exitCode === null) {
      const exited = new Promise((resolve) => child.once("exit", resolve));
      process.kill(-child.pid, "SIGTERM");
      await exited;
    }
    rmSync(dataDir, { recursive: true, force: true });
  };
  const deadline = Date.now() + 170_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) break;
    try {
      const response = await fetch(`${baseURL}/api/config`);
      if (response.ok) return { baseURL, dataDir, stop };
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  await stop();
  throw new Error(`the API server on port ${port} did not start`);
}

/** An API session of the demo admin, separate from the browser's cookies. */
/** The network between the browser and the app, as {@link networkCable} gives it. */
export interface NetworkCable {
  /** The app's address through the cable. */
  readonly url: string;
  /** Cuts the cable: every open connection is reset and every new one refused. */
  unplug(): void;
  /** Restores the cable. */
  plugIn(): void;
  close(): Promise<void>;
}

/**
 * A network cable to the app at `target`: a TCP relay on a port of its own. Pulling it reaches every
 * request of the browser, those its service worker makes or lets through included, which Chromium's
 * offline emulation does not (microsoft/playwright#2311): a page that loads through the cable is as
 * offline as a tablet whose Wi-Fi drops.
 */
export async function networkCable(target: string): Promise<NetworkCable> {
  const { hostname, port } = new URL(target);
  const open = new Set<Socket>();
  let plugged = true;
  const relay = createServer((browser) => {
    if (!plugged) {
      browser.resetAndDestroy();
      return;
    }
    const app = connect(Number(port), hostname);
    open.add(browser);
    open.add(app);
    const hangUp = () => {
      open.delete(browser);
      open.delete(app);
      browser.destroy();
      app.destroy();
    };
    for (const socket of [browser, app]) {
      socket.on("error", hangUp);
      socket.on("close", hangUp);
    }
    browser.pipe(app);
    app.pipe(browser);
  });
  await new Promise<void>((resolve) => relay.listen(0, "127.0.0.1", resolve));
  const { port: relayPort } = relay.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${relayPort}`,
    unplug() {
      plugged = false;
      for (const socket of open) socket.resetAndDestroy();
      open.clear();
    },
    plugIn() {
      plugged = true;
    },
    close() {
      for (const socket of open) socket.destroy();
      return new Promise((resolve) => relay.close(() => resolve()));
    },
  };
}

export async function adminApi(baseURL: string): Promise<APIRequestContext> {
  const api = await playwrightRequest.newContext({
    baseURL,
    extraHTTPHeaders: { "X-Requested-With": "XMLHttpRequest" },
  });
  const response = await api.post("/api/auth/sessions", {
    data: { email: DEMO_USERS.admin, password: DEMO_PASSWORD },
  });
  expect(response.status()).toBe(200);
  return api;
}

/**
 * Answers a built-in survey accepts as submitted: `answers` plus an allowed answer to each required
 * question they leave out (the server refuses a submission missing one). Other surveys get `answers`.
 */
export function submittable(surveyId: string | undefined, answers: Record<string, unknown> = {}) {
  const survey = BUILTIN_SURVEYS.find((s) => s.id === surveyId);
  return survey === undefined ? answers : fillRequiredAnswers(survey, answers);
}
