import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from "vitest";
import { cleanup, render, waitFor } from "@testing-library/react";
import { MemoryRouter, Route, Routes } from "react-router-dom";
import type { Me } from "../api/types";
import { configureClient, useErrorBanner } from "../api/client";
import { setMe, useMe } from "../api/session";
import { ELEVATED_KEY } from "./login-form";
import LogoutPage from "./logout-page";

// A real HTTP peer on 127.0.0.1 stands in for the API; DELETE /api/auth/sessions fails with a 500.
let server: Server;
let requested: string[] = [];
beforeAll(async () => {
  server = createServer((request, response) => {
    requested.push(`${request.method ?? ""} ${request.url ?? ""}`);
    response.writeHead(500, { "content-type": "application/json" });
    response.end(JSON.stringify({ responseStatus: { message: "The session store is unavailable." } }));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  configureClient({ baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}` });
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

// window.alert is the browser's; a recording stand-in replaces it here.
const realAlert = window.alert.bind(window);
let alerts: string[] = [];
beforeEach(() => {
  requested = [];
  alerts = [];
  window.alert = (message?: unknown) => void alerts.push(String(message));
  localStorage.setItem(ELEVATED_KEY, "true");
  setMe({ user: { id: "64a1c0de00000000000000ab", email: "ann@example.org" } } as Me);
});
afterEach(() => {
  cleanup();
  window.alert = realAlert;
});

// Records the error banner and the signed-in user on every render.
let banners: (string | undefined)[] = [];
let signedIn: (Me | null)[] = [];
function Probe() {
  banners.push(useErrorBanner()?.message);
  signedIn.push(useMe());
  return null;
}

describe("LogoutPage", () => {
  test("alerts the server's message when ending the session fails, then signs out locally", async () => {
    banners = [];
    signedIn = [];
    render(
      <MemoryRouter initialEntries={["/auth/logout?redirect=%2Fpatients"]}>
        <Probe />
        <Routes>
          <Route path="/auth/logout" element={<LogoutPage />} />
        </Routes>
      </MemoryRouter>,
    );

    // jsdom then reports the move to /auth/login as "Not implemented: navigation"; the page is left as it is.
    await waitFor(() => expect(alerts).toEqual(["The session store is unavailable."]));
    expect(requested).toEqual(["DELETE /api/auth/sessions"]);
    await waitFor(() => expect(localStorage.getItem(ELEVATED_KEY)).toBeNull());
    expect(signedIn.at(-1)).toBeNull();
    // The alert is the only report: no error banner on top of it.
    expect(banners.filter(Boolean)).toEqual([]);
  });
});
