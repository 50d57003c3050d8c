import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { ErrorResponse } from "@core-care/schema";
import { createTestApp, login, TEST_PASSWORD, type TestApp } from "../../../test/helpers.js";
import { outboxMessages, resetTokenOf, startSmtpPeer } from "../../../test/mail.js";

const XHR = { "x-requested-with": "XMLHttpRequest" };
const NEW_PASSWORD = "violet harbour lantern seventy-two";
let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

const change = (payload: Record<string, string>) =>
  t.app.inject({ method: "POST", url: "/api/auth/passwords", headers: XHR, payload });

describe("DELETE /api/auth/passwords/{email}", () => {
  test("e-mails a single-use reset link that sets a new password", async () => {
    const u = await t.createTestTenant();
    const before = outboxMessages(t.config.dataDir).length;
    const res = await t.app.inject({
      method: "DELETE",
      url: `/api/auth/passwords/${encodeURIComponent(u.email)}`,
      headers: XHR,
    });
    expect(res.statusCode).toBe(204);
    // The mail goes after the answer, so that a known and an unknown e-mail answer alike.
    await expect.poll(() => outboxMessages(t.config.dataDir), { timeout: 20_000 }).toHaveLength(before + 1);
    const messages = outboxMessages(t.config.dataDir);
    const message = messages.at(-1) ?? "";
    expect(message).toContain(`To: ${u.email}`);
    const token = resetTokenOf(message);

    const used = await change({
      email: u.email,
      oldPassword: token,
      password: NEW_PASSWORD,
      confirmPassword: NEW_PASSWORD,
    });
    expect(used.statusCode, used.body).toBe(204);
    await expect(login(t.app, u.email)).rejects.toThrow(/401/);
    expect((await login(t.app, u.email, NEW_PASSWORD)).me.user.id).toBe(u.userId);

    const again = await change({
      email: u.email,
      oldPassword: token,
      password: `${NEW_PASSWORD}!`,
      confirmPassword: `${NEW_PASSWORD}!`,
    });
    expect(again.statusCode).toBe(400);
    expect(again.json<ErrorResponse>().responseStatus.errors?.[0]?.field).toBe("oldPassword");
  });

  test("a newer link ends the earlier ones: the older is refused like a used one", async () => {
    const u = await t.createTestTenant();
    const mailFor = async () => {
      const before = outboxMessages(t.config.dataDir).length;
      const res = await t.app.inject({
        method: "DELETE",
        url: `/api/auth/passwords/${encodeURIComponent(u.email)}`,
        headers: XHR,
      });
      expect(res.statusCode).toBe(204);
      await expect.poll(() => outboxMessages(t.config.dataDir)).toHaveLength(before + 1);
      return resetTokenOf(outboxMessages(t.config.dataDir).at(-1) ?? "");
    };
    const older = await mailFor();
    const newer = await mailFor();
    expect(newer).not.toBe(older);

    const withOlder = await change({
      email: u.email,
      oldPassword: older,
      password: NEW_PASSWORD,
      confirmPassword: NEW_PASSWORD,
    });
    expect(withOlder.statusCode).toBe(400);
    expect(withOlder.json<ErrorResponse>().responseStatus.errors).toEqual([
      { field: "oldPassword", message: "The current password or reset link is not valid." },
    ]);
    expect((await login(t.app, u.email)).me.user.id).toBe(u.userId);

    const withNewer = await change({
      email: u.email,
      oldPassword: newer,
      password: NEW_PASSWORD,
      confirmPassword: NEW_PASSWORD,
    });
    expect(withNewer.statusCode, withNewer.body).toBe(204);
  });

  test("answers 204 for an unknown e-mail and sends nothing", async () => {
    const before = outboxMessages(t.config.dataDir).length;
    const res = await t.app.inject({
      method: "DELETE",
      url: "/api/auth/passwords/nobody%40example.test",
      headers: XHR,
    });
    expect(res.statusCode).toBe(204);
    // The work runs after the answer: a known account's reset asked after it is the only mail that comes.
    const u = await t.createTestTenant();
    await t.app.inject({
      method: "DELETE",
      url: `/api/auth/passwords/${encodeURIComponent(u.email)}`,
      headers: XHR,
    });
    await expect.poll(() => outboxMessages(t.config.dataDir), { timeout: 20_000 }).toHaveLength(before + 1);
    expect(outboxMessages(t.config.dataDir).at(-1)).toContain(`To: ${u.email}`);
    expect(outboxMessages(t.config.dataDir).join("\n")).not.toContain("nobody@example.test");
  });

  test("answers 400 naming email when the path is not an e-mail", async () => {
    const res = await t.app.inject({
      method: "DELETE",
      url: "/api/auth/passwords/not-an-email",
      headers: XHR,
    });
    expect(res.statusCode).toBe(400);
    expect(res.json<ErrorResponse>().responseStatus.errors?.[0]?.field).toBe("email");
  });

  test("sends the reset link through a real SMTP server when SMTP_URL is set", async () => {
    const smtp = await startSmtpPeer();
    const s = await createTestApp({
      config: { smtpUrl: smtp.url, publicUrl: "https://portal.example.test" },
    });
    try {
      const u = await s.createTestTenant();
      const res = await s.app.inject({
        method: "DELETE",
        url: `/api/auth/passwords/${u.email}`,
        headers: XHR,
      });
      expect(res.statusCode).toBe(204);
      await expect.poll(() => smtp.messages, { timeout: 20_000 }).toHaveLength(1);
      const mail = smtp.messages[0];
      expect(mail?.subject).toBe("Reset your Core Care password");
      expect(mail?.text).toMatch(
        new RegExp(
          `https://portal\\.example\\.test/auth/changepassword\\?email=${encodeURIComponent(u.email)}&pwd=[A-Za-z0-9_-]{40,}`,
        ),
      );
      expect(outboxMessages(s.config.dataDir)).toHaveLength(0);
    } finally {
      await s.close();
      await smtp.close();
    }
  });
});

describe("POST /api/auth/passwords", () => {
  test("changes the password when the current one is given", async () => {
    const u = await t.createTestTenant();
    const res = await change({
      email: u.email,
      oldPassword: TEST_PASSWORD,
      password: NEW_PASSWORD,
      confirmPassword: NEW_PASSWORD,
    });
    expect(res.statusCode, res.body).toBe(204);
    expect((await login(t.app, u.email, NEW_PASSWORD)).me.user.email).toBe(u.email);
  });

  test("ends the user's other sessions after a change", async () => {
    const u = await t.createTestTenant();
    const s = await login(t.app, u.email);
    await change({
      email: u.email,
      oldPassword: TEST_PASSWORD,
      password: NEW_PASSWORD,
      confirmPassword: NEW_PASSWORD,
    });
    expect((await s.inject({ method: "GET", url: "/api/auth/keepalive" })).statusCode).toBe(401);
  });

  test.each([
    ["a password under 15 characters", "short pass 1", "password"],
    ["a common password", "passwordpassword123", "password"],
    ["a repeated character", "aaaaaaaaaaaaaaaaaa", "password"],
  ])("refuses %s with 400 naming the field", async (_what, password, field) => {
    const u = await t.createTestTenant();
    const res = await change({
      email: u.email,
      oldPassword: TEST_PASSWORD,
      password,
      confirmPassword: password,
    });
    expect(res.statusCode).toBe(400);
    expect(res.json<ErrorResponse>().responseStatus.errors?.[0]?.field).toBe(field);
    expect((await login(t.app, u.email)).me.user.id).toBe(u.userId);
  });

  test("refuses a confirmation that differs with 400 naming confirmPassword", async () => {
    const u = await t.createTestTenant();
    const res = await change({
      email: u.email,
      oldPassword: TEST_PASSWORD,
      password: NEW_PASSWORD,
      confirmPassword: "something else entirely",
    });
    expect(res.statusCode).toBe(400);
    expect(res.json<ErrorResponse>().responseStatus.errors?.[0]?.field).toBe("confirmPassword");
  });

  test("accepts any characters and a very long password, never truncating it", async () => {
    const u = await t.createTestTenant();
    const long = `🔐 ünïcödé ${"x".repeat(300)} end`;
    const res = await change({
      email: u.email,
      oldPassword: TEST_PASSWORD,
      password: long,
      confirmPassword: long,
    });
    expect(res.statusCode, res.body).toBe(204);
    await expect(login(t.app, u.email, long.slice(0, 200))).rejects.toThrow(/401/);
    expect((await login(t.app, u.email, long)).me.user.id).toBe(u.userId);
  });

  test("answers the same 400 for a wrong current password and an unknown e-mail", async () => {
    const u = await t.createTestTenant();
    const wrong = await change({
      email: u.email,
      oldPassword: "wrong wrong wrong",
      password: NEW_PASSWORD,
      confirmPassword: NEW_PASSWORD,
    });
    const unknown = await change({
      email: "ghost@example.test",
      oldPassword: "wrong wrong wrong",
      password: NEW_PASSWORD,
      confirmPassword: NEW_PASSWORD,
    });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toEqual(unknown.json());
  });
});
