import { availableParallelism } from "node:os";
import { afterAll, describe, expect, test } from "vitest";
import { DEFAULT_DEMO_PASSWORD } from "./config.js";
import {
  cpuHog,
  freshServerStorage,
  signIn,
  startServer,
  stopServer,
  waitForStatus,
  type ServerProcess,
} from "../test/processes.js";

// The promise: a first start succeeds however busy the machine (no timeout shorter than the work it
// guards), says what it is doing meanwhile, and prints the demo sign-in in development only; a
// production start seeds no demo users and refuses to run with the demo password or without a secret.
const started: ServerProcess[] = [];
afterAll(async () => {
  await Promise.all(started.map((server) => stopServer(server, 5_000)));
});

/** Generous: a first start under a CPU hog on a shared 2-core machine has taken over a minute. */
const FIRST_START_MS = 300_000;

describe("pnpm start", () => {
  test(
    "a first start with every core busy succeeds, prints its progress and the demo sign-in",
    async () => {
      const storage = await freshServerStorage();
      const hog = cpuHog(availableParallelism());
      try {
        const server = startServer({ via: "pnpm", env: { ...storage.env, NODE_ENV: "development" } });
        started.push(server);
        const base = await server.listening;
        hog.stop();
        await waitForStatus(`${base}/readyz`);
        const output = server.output();
        expect(output).toContain("database: applying the database migrations");
        expect(output).toContain("database: seeding the demo data (first start)");
        if (storage.databaseUrl === undefined) {
          expect(output).toContain("database: creating the embedded database (first start only)");
        }
        expect(output).toContain(`Core Care is running at ${base}`);
        expect(output).toContain(`Sign in as staff@demo.test`);
        expect(output).toContain(`the password ${DEFAULT_DEMO_PASSWORD}`);
        await signIn(base, "staff@demo.test", DEFAULT_DEMO_PASSWORD);
        // pnpm itself ends on the signal at once; the server under it finishes and says so.
        await stopServer(server);
        await expect.poll(() => server.output(), { timeout: 60_000 }).toContain('"msg":"stopped"');
      } finally {
        hog.stop();
        await storage.drop();
      }
    },
    FIRST_START_MS,
  );
});

describe("a production start", () => {
  test("refuses to run without SESSION_SECRET or TRUST_PROXY, or with DEMO_PASSWORD", async () => {
    const storage = await freshServerStorage();
    try {
      const noSecret = startServer({ env: { ...storage.env, NODE_ENV: "production" } });
      started.push(noSecret);
      expect(await noSecret.exited).not.toBe(0);
      expect(noSecret.output()).toContain("SESSION_SECRET (32 characters or more) is required in production");

      // Without a TLS proxy it would answer every sign-in and leave the browser without its cookie.
      const plainHttp = startServer({
        env: { ...storage.env, NODE_ENV: "production", SESSION_SECRET: "p".repeat(40) },
      });
      started.push(plainHttp);
      expect(await plainHttp.exited).not.toBe(0);
      expect(plainHttp.output()).toContain("TRUST_PROXY=true is required in production");

      const demo = startServer({
        env: {
          ...storage.env,
          NODE_ENV: "production",
          SESSION_SECRET: "p".repeat(40),
          TRUST_PROXY: "true",
          DEMO_PASSWORD: DEFAULT_DEMO_PASSWORD,
        },
      });
      started.push(demo);
      expect(await demo.exited).not.toBe(0);
      expect(demo.output()).toContain("DEMO_PASSWORD: demo accounts are not made in production");
    } finally {
      await storage.drop();
    }
  }, 120_000);

  test(
    "seeds no demo users and prints no sign-in",
    async () => {
      const storage = await freshServerStorage();
      try {
        const server = startServer({
          env: {
            ...storage.env,
            NODE_ENV: "production",
            SESSION_SECRET: "p".repeat(40),
            TRUST_PROXY: "true",
          },
        });
        started.push(server);
        const base = await server.listening;
        await waitForStatus(`${base}/readyz`);
        const response = await fetch(`${base}/api/auth/sessions`, {
          method: "POST",
          headers: {
            "content-type": "application/json",
            "x-requested-with": "XMLHttpRequest",
            "x-forwarded-proto": "https",
          },
          body: JSON.stringify({ email: "staff@demo.test", password: DEFAULT_DEMO_PASSWORD }),
        });
        expect(response.status).toBe(401);
        expect(server.output()).not.toContain("seeding the demo data");
        expect(server.output()).not.toContain("Sign in as");
        expect(await stopServer(server)).toBe(0);
      } finally {
        await storage.drop();
      }
    },
    FIRST_START_MS,
  );
});
