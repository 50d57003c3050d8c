import { createServer, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach } from "vitest";
import { configureClient } from "../api/client";

/**
 * A real HTTP server for the web client's tests that holds every request until the test answers it, by
 * path: the test decides the order in which answers arrive (a request answered after another began).
 */
export interface HeldServer {
  origin: string;
  /** Resolves once the server holds a request to `path`; the returned function answers it with `status`. */
  heldRequest(path: string): Promise<(status: number, body?: unknown) => void>;
  close(): Promise<void>;
}

function answer(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { "Content-Type": "application/json" });
  res.end(
    JSON.stringify(
      body ?? (status < 300 ? { ok: true } : { responseStatus: { status, message: `Answered ${status}.` } }),
    ),
  );
}

export async function startHeldServer(): Promise<HeldServer> {
  const held = new Map<string, (status: number, body?: unknown) => void>();
  const server = createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      const path = new URL(req.url ?? "/", "http://x").pathname;
      held.set(path, (status, body) => answer(res, status, body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    async heldRequest(path) {
      for (;;) {
        const release = held.get(path);
        if (release !== undefined) {
          held.delete(path);
          return release;
        }
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * Starts a {@link HeldServer} for the test file and points the web client at it; the returned list
 * gathers where each sign-out would have sent the user back to, and is emptied before each test.
 */
export function heldServerForFile(): { server: () => HeldServer; signOuts: string[] } {
  let server: HeldServer | undefined;
  const signOuts: string[] = [];
  beforeAll(async () => {
    server = await startHeldServer();
    configureClient({ baseUrl: server.origin, onUnauthorized: (returnTo) => signOuts.push(returnTo) });
  });
  afterAll(() => server?.close());
  beforeEach(() => {
    signOuts.length = 0;
  });
  return {
    server: () => {
      if (server === undefined) throw new Error("the held server starts in beforeAll");
      return server;
    },
    signOuts,
  };
}
