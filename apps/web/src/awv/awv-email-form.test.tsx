import { createServer, type Server } from "node:http";
import { grants } from "../test/grants";
import type { AddressInfo } from "node:net";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test, vi } from "vitest";
import { cleanup, render, screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { configureClient } from "../api/client";
import { setMe } from "../api/session";
import type { Me, Patient } from "../api/types";
import { AwvEmailForm } from "./awv-email-form";
import { AWV_EMAIL_SENT, TELE_AWV_ERROR } from "./tele-awv-form";

// A real HTTP peer on 127.0.0.1 stands in for the API, answering with `status`.
let server: Server;
let received: { path: string; body: unknown }[] = [];
let status = 200;
beforeAll(async () => {
  server = createServer((request, response) => {
    let text = "";
    request.on("data", (chunk: Buffer) => (text += chunk.toString()));
    request.on("end", () => {
      received.push({ path: request.url ?? "", body: JSON.parse(text || "null") as unknown });
      response.writeHead(status, { "content-type": "application/json" });
      response.end(status === 200 ? '{"ok":true}' : '{"responseStatus":{"message":"Mail failed"}}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  configureClient({ baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}` });
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

let alerts: string[] = [];
beforeEach(() => {
  received = [];
  status = 200;
  alerts = [];
  vi.spyOn(window, "alert").mockImplementation((message?: unknown) => void alerts.push(String(message)));
});
afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
  setMe(null);
});

const patient: Patient = {
  id: "64a1c0de00000000000000aa",
  mrn: "M1",
  firstName: "Avery",
  lastName: "Wellness",
  dob: "1950-01-02",
  sex: "F",
  email: "avery@example.org",
};

function signedIn(teleAwvEmail: boolean): void {
  const me = {
    user: {
      id: "64a1c0de00000000000000ab",
      email: "s@x.test",
      firstName: "S",
      lastName: "T",
      roles: 1,
      tenant: "demo",
      tenants: ["demo"],
    },
    tenant: { id: "demo", name: "Demo", settings: { teleAwvEmail, alternateFalls: false } },
    may: grants(),
  } as Me;
  setMe(me);
}

describe("AwvEmailForm", () => {
  test("is not shown for a tenant without the Tele-AWV e-mail setting", () => {
    signedIn(false);
    render(<AwvEmailForm patient={patient} />);
    expect(screen.queryByRole("form", { name: "Wellness visit e-mail" })).toBeNull();
  });

  test("sends ptEmail, tenant, ptId and the three flags, then alerts the spec's text", async () => {
    signedIn(true);
    const user = userEvent.setup();
    render(<AwvEmailForm patient={patient} />);
    expect(screen.getByLabelText("Patient e-mail")).toHaveProperty("value", "avery@example.org");
    await user.click(screen.getByLabelText("Ask about 100 cigarettes"));
    await user.click(screen.getByRole("button", { name: "Send Tele-AWV e-mail" }));
    await waitFor(() => expect(alerts).toEqual([AWV_EMAIL_SENT]));
    expect(received).toEqual([
      {
        path: "/api/auth/sendAWVEmail",
        body: {
          ptEmail: "avery@example.org",
          tenant: "demo",
          ptId: patient.id,
          ptS: true,
          ptPY: true,
          pt100: false,
        },
      },
    ]);
  });

  test("alerts 'An error has occurred.' when sending fails", async () => {
    signedIn(true);
    status = 500;
    const user = userEvent.setup();
    render(<AwvEmailForm patient={patient} />);
    await user.click(screen.getByRole("button", { name: "Send Tele-AWV e-mail" }));
    await waitFor(() => expect(alerts).toEqual([TELE_AWV_ERROR]));
  });
});
