import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { Role } from "@core-care/schema";
import { createTestApp, login, type TestApp } from "../../test/helpers.js";
import { createFirstAdmin } from "./first-admin.js";

// A production database seeds no demo users: its first administrator comes from `create-admin`.
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

const PASSWORD = "a long passphrase: heron quartz 9921";

describe("createFirstAdmin", () => {
  test("refuses a password the portal would refuse", async () => {
    await expect(
      createFirstAdmin(t.db, {
        email: "first@clinic.test",
        tenantId: "clinic",
        tenantName: "Clinic",
        password: "short",
        roles: Role.sysAdmin,
      }),
    ).rejects.toThrow(/ADMIN_PASSWORD: Must be at least 15 characters/);
  });

  test("makes a practice and its system administrator, who signs in; then refuses a second", async () => {
    const input = {
      email: "first@clinic.test",
      tenantId: "clinic",
      tenantName: "Clinic",
      password: PASSWORD,
      roles: Role.sysAdmin,
    };
    await createFirstAdmin(t.db, input);
    const session = await login(t.app, input.email, PASSWORD);
    expect(session.me).toMatchObject({ user: { email: input.email }, tenant: { id: "clinic" } });
    expect((await session.inject({ method: "GET", url: "/api/tenants" })).statusCode).toBe(200);
    await expect(createFirstAdmin(t.db, { ...input, email: "second@clinic.test" })).rejects.toThrow(
      /has users already/,
    );
  });
});
