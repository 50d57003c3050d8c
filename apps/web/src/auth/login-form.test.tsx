import { createServer, type Server, type ServerResponse } from "node:http";
import { grants } from "../test/grants";
import type { AddressInfo } from "node:net";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from "vitest";
import { cleanup, render, screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { MemoryRouter } from "react-router-dom";
import type { Me } from "../api/types";
import { configureClient } from "../api/client";
import { setMe } from "../api/session";
import { ELEVATED_KEY, LoginForm } from "./login-form";

const ME = {
  user: {
    id: "64a1c0de00000000000000ab",
    email: "ann@example.org",
    firstName: "Ann",
    lastName: "Lee",
    roles: 1,
    tenant: "demo",
    tenants: ["demo"],
  },
  tenant: { id: "demo", name: "Demo", settings: { teleAwvEmail: false, alternateFalls: false } },
  may: grants(),
} as Me;

// A real HTTP peer on 127.0.0.1 stands in for the API. Each sign-in waits until the test answers it.
let server: Server;
let pending: { body: unknown; answer: (status: number, body: unknown) => void }[] = [];
beforeAll(async () => {
  server = createServer((request, response: ServerResponse) => {
    let text = "";
    request.on("data", (chunk: Buffer) => (text += chunk.toString()));
    request.on("end", () => {
      pending.push({
        body: JSON.parse(text || "null") as unknown,
        answer: (status, body) => {
          response.writeHead(status, { "content-type": "application/json" });
          response.end(JSON.stringify(body));
        },
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  configureClient({ baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}` });
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
beforeEach(() => {
  pending = [];
  localStorage.clear();
  setMe(null);
});
afterEach(cleanup);

async function nextRequest() {
  await waitFor(() => expect(pending).toHaveLength(1));
  return pending.shift()!;
}

describe("LoginForm", () => {
  test("reads 'Processing...' while signing in and 'Sign in' again after a failed login", async () => {
    const user = userEvent.setup();
    const signedIn: Me[] = [];
    render(
      <MemoryRouter>
        <LoginForm onSignedIn={(me) => signedIn.push(me)} />
      </MemoryRouter>,
    );
    await user.type(screen.getByLabelText("E-mail"), "ann@example.org");
    await user.type(screen.getByLabelText("Password"), "wrong password");
    await user.click(screen.getByRole("button", { name: "Sign in" }));

    const request = await nextRequest();
    expect(request.body).toEqual({ email: "ann@example.org", password: "wrong password" });
    const button = screen.getByRole("button", { name: "Processing..." });
    expect(button).toHaveProperty("disabled", true);

    request.answer(401, { responseStatus: { message: "Invalid e-mail or password." } });
    await screen.findByText("Invalid e-mail or password.");
    expect(screen.getByRole("button", { name: "Sign in" })).toHaveProperty("disabled", false);
    expect(screen.queryByRole("button", { name: "Processing..." })).toBeNull();
    expect(button.closest("form")?.classList.contains("is-leaving")).toBe(false);
    expect(localStorage.getItem(ELEVATED_KEY)).toBeNull();
    expect(signedIn).toEqual([]);
  });

  test("restores the button text and fades the form out on success, then hands over the user", async () => {
    const user = userEvent.setup();
    const signedIn: Me[] = [];
    render(
      <MemoryRouter>
        <LoginForm onSignedIn={(me) => signedIn.push(me)} />
      </MemoryRouter>,
    );
    await user.type(screen.getByLabelText("E-mail"), "ann@example.org");
    await user.type(screen.getByLabelText("Password"), "right password");
    await user.click(screen.getByRole("button", { name: "Sign in" }));

    const request = await nextRequest();
    const form = screen.getByRole("button", { name: "Processing..." }).closest("form")!;
    expect(form.classList.contains("is-leaving")).toBe(false);

    request.answer(200, ME);
    await waitFor(() => expect(form.classList.contains("is-leaving")).toBe(true));
    expect(screen.getByRole("button", { name: "Sign in" })).toHaveProperty("disabled", false);
    expect(localStorage.getItem(ELEVATED_KEY)).toBe("true");
    // The page moves on once the fade is over.
    expect(signedIn).toEqual([]);
    await waitFor(() => expect(signedIn).toEqual([ME]));
  });

  test("asks for the code after the password when the account has a second factor", async () => {
    const user = userEvent.setup();
    const signedIn: Me[] = [];
    render(
      <MemoryRouter>
        <LoginForm onSignedIn={(me) => signedIn.push(me)} />
      </MemoryRouter>,
    );
    await user.type(screen.getByLabelText("E-mail"), "ann@example.org");
    await user.type(screen.getByLabelText("Password"), "right password");
    await user.click(screen.getByRole("button", { name: "Sign in" }));
    (await nextRequest()).answer(202, { secondFactor: "totp" });

    const field = await screen.findByLabelText("Authentication code");
    expect(field.getAttribute("inputmode")).toBe("numeric");
    expect(field.getAttribute("autocomplete")).toBe("one-time-code");
    expect(document.activeElement).toBe(field);
    await user.type(field, "123456");
    await user.click(screen.getByRole("button", { name: "Verify" }));
    const wrong = await nextRequest();
    expect(wrong.body).toEqual({ code: "123456" });
    wrong.answer(400, {
      responseStatus: {
        message: "The code is not valid.",
        errors: [{ field: "code", message: "The code is not valid." }],
      },
    });
    // The alert's element may be there a moment before its message (a busy machine showed it empty).
    await waitFor(() => expect(screen.getByRole("alert").textContent).toBe("The code is not valid."));
    expect(screen.getByLabelText("Authentication code").getAttribute("aria-invalid")).toBe("true");

    await user.click(screen.getByRole("button", { name: "Use a recovery code" }));
    const recovery = screen.getByLabelText("Recovery code");
    expect(recovery.getAttribute("inputmode")).toBe("text");
    await user.type(recovery, "ABCD-EFGH-JKLM");
    await user.click(screen.getByRole("button", { name: "Verify" }));
    const right = await nextRequest();
    expect(right.body).toEqual({ code: "ABCD-EFGH-JKLM" });
    right.answer(200, ME);
    await waitFor(() => expect(signedIn).toEqual([ME]));
  });
});
