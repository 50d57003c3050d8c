import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { Location } from "@core-care/schema";
import { createTestApp, errorFields, login, type TestApp } from "../../../test/helpers.js";

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

async function signedIn(role: "user" | "admin", tenantId?: string) {
  const u =
    tenantId === undefined ? await t.createTestTenant({ role }) : await t.createTestUser(tenantId, { role });
  return { u, s: await login(t.app, u.email) };
}

describe("/api/locations", () => {
  test("admins create, update and delete; users list and read", async () => {
    const admin = await signedIn("admin");
    const user = await signedIn("user", admin.u.tenantId);
    const created = await admin.s.inject({
      method: "POST",
      url: "/api/locations",
      payload: { name: "North Clinic", code: "N1" },
    });
    expect(created.statusCode, created.body).toBe(201);
    const loc = created.json<Location>();
    const list = await user.s.inject({ method: "GET", url: "/api/locations" });
    expect(list.json()).toEqual({ items: [loc], total: 1 });
    expect((await user.s.inject({ method: "GET", url: `/api/locations/${loc.id}` })).json()).toEqual(loc);
    const updated = await admin.s.inject({
      method: "PUT",
      url: `/api/locations/${loc.id}`,
      payload: { name: "North", code: "N1" },
    });
    expect(updated.json<Location>().name).toBe("North");
    expect((await admin.s.inject({ method: "DELETE", url: `/api/locations/${loc.id}` })).statusCode).toBe(
      204,
    );
    expect((await user.s.inject({ method: "GET", url: `/api/locations/${loc.id}` })).statusCode).toBe(404);
  });

  test("answers 403 to a user writing", async () => {
    const { s } = await signedIn("user");
    expect(
      (await s.inject({ method: "POST", url: "/api/locations", payload: { name: "X", code: "X" } }))
        .statusCode,
    ).toBe(403);
  });

  test("answers 409 for a duplicate code", async () => {
    const { s } = await signedIn("admin");
    await s.inject({ method: "POST", url: "/api/locations", payload: { name: "A", code: "DUP" } });
    expect(
      (await s.inject({ method: "POST", url: "/api/locations", payload: { name: "B", code: "DUP" } }))
        .statusCode,
    ).toBe(409);
  });

  test.each([
    [{ name: "", code: "C" }, "name"],
    [{ name: "N" }, "code"],
  ])("answers 400 for %j naming %s", async (payload, field) => {
    const { s } = await signedIn("admin");
    const res = await s.inject({ method: "POST", url: "/api/locations", payload });
    expect(errorFields(res)).toEqual([field]);
    expect((await s.inject({ method: "GET", url: "/api/locations" })).json<{ total: number }>().total).toBe(
      0,
    );
  });

  test("answers 404 for another tenant's location", async () => {
    const a = await signedIn("admin");
    const b = await signedIn("admin");
    const loc = (
      await a.s.inject({ method: "POST", url: "/api/locations", payload: { name: "A", code: "A" } })
    ).json<Location>();
    expect((await b.s.inject({ method: "GET", url: `/api/locations/${loc.id}` })).statusCode).toBe(404);
    expect(
      (
        await b.s.inject({
          method: "PUT",
          url: `/api/locations/${loc.id}`,
          payload: { name: "Z", code: "Z" },
        })
      ).statusCode,
    ).toBe(404);
    expect((await b.s.inject({ method: "DELETE", url: `/api/locations/${loc.id}` })).statusCode).toBe(404);
    expect((await a.s.inject({ method: "GET", url: `/api/locations/${loc.id}` })).json()).toEqual(loc);
  });
});
