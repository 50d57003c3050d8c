import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { Database } from "../db/index.js";
import { createTestDatabase } from "../../test/helpers.js";
import { DEFAULT_THROTTLE_LIMITS, LoginThrottle } from "./login-throttle.js";

const limits = { ...DEFAULT_THROTTLE_LIMITS, perAccountAndAddress: 3, perAccount: 8, perAddress: 12 };

let database: Database;
let clock: number;
const now = () => new Date(clock);
const throttle = () => new LoginThrottle(database.db, limits, now);

beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await database.close();
});

const fail = async (t: LoginThrottle, account: string, address: string, times: number) => {
  for (let i = 0; i < times; i++) await t.recordFailure(account, address);
};

describe("LoginThrottle", () => {
  test("holds an account at an address back for a doubling time after its free failures, then lets it try", async () => {
    clock = Date.parse("2026-01-01T00:00:00Z");
    const t = throttle();
    await fail(t, "a@x.test", "10.0.0.1", 2);
    expect(await t.check("a@x.test", "10.0.0.1")).toEqual({ blocked: false });
    await t.recordFailure("a@x.test", "10.0.0.1");
    expect(await t.check("a@x.test", "10.0.0.1")).toEqual({ blocked: true, retryAfterSeconds: 1 });
    await t.recordFailure("a@x.test", "10.0.0.1");
    expect(await t.check("a@x.test", "10.0.0.1")).toEqual({ blocked: true, retryAfterSeconds: 2 });
    expect(await t.check("b@x.test", "10.0.0.1")).toEqual({ blocked: false });
    expect(await t.check("a@x.test", "10.0.0.2")).toEqual({ blocked: false });
    clock += 2001;
    expect(await t.check("a@x.test", "10.0.0.1")).toEqual({ blocked: false });
  });

  test("caps the wait, and forgets the failures once the window has passed", async () => {
    clock = Date.parse("2026-02-01T00:00:00Z");
    const t = throttle();
    await fail(t, "cap@x.test", "10.0.1.1", 40);
    expect(await t.check("cap@x.test", "10.0.1.1")).toEqual({ blocked: true, retryAfterSeconds: 900 });
    clock += limits.maxBackoffMs + 1;
    expect(await t.check("cap@x.test", "10.0.1.1")).toEqual({ blocked: false });
    clock += limits.windowMs;
    await t.recordFailure("cap@x.test", "10.0.1.1");
    expect(await t.check("cap@x.test", "10.0.1.1")).toEqual({ blocked: false });
  });

  test("guessing from many addresses never locks the owner out of the address they sign in from", async () => {
    clock = Date.parse("2026-03-01T00:00:00Z");
    const t = throttle();
    await t.recordSuccess("owner@x.test", "192.168.1.10");
    for (const address of ["203.0.113.1", "203.0.113.2", "203.0.113.3", "203.0.113.4"]) {
      await fail(t, "owner@x.test", address, 5);
    }
    expect(await t.check("owner@x.test", "192.168.1.10")).toEqual({ blocked: false });
    expect((await t.check("owner@x.test", "203.0.113.5")).blocked).toBe(true);
  });

  test("holds back an address trying many accounts, except on accounts it signed in to", async () => {
    clock = Date.parse("2026-04-01T00:00:00Z");
    const t = throttle();
    await t.recordSuccess("regular@x.test", "198.51.100.7");
    for (let i = 0; i < 12; i++) await t.recordFailure(`nobody${i}@x.test`, "198.51.100.7");
    expect((await t.check("someone@x.test", "198.51.100.7")).blocked).toBe(true);
    expect(await t.check("regular@x.test", "198.51.100.7")).toEqual({ blocked: false });
  });

  test("a success clears the pair's failures", async () => {
    clock = Date.parse("2026-05-01T00:00:00Z");
    const t = throttle();
    await fail(t, "c@x.test", "10.0.2.1", 2);
    await t.recordSuccess("c@x.test", "10.0.2.1");
    await fail(t, "c@x.test", "10.0.2.1", 2);
    expect(await t.check("c@x.test", "10.0.2.1")).toEqual({ blocked: false });
  });

  test("is shared by every process on the database", async () => {
    clock = Date.parse("2026-06-01T00:00:00Z");
    const first = throttle();
    const second = throttle();
    await fail(first, "d@x.test", "10.0.3.1", 2);
    await second.recordFailure("d@x.test", "10.0.3.1");
    expect((await first.check("d@x.test", "10.0.3.1")).blocked).toBe(true);
    expect((await second.check("D@X.test", "10.0.3.1")).blocked).toBe(true);
  });

  test("counts quiet events per value within their window", async () => {
    clock = Date.parse("2026-07-01T00:00:00Z");
    const t = throttle();
    expect(await t.count("reset-account", "e@x.test", 60_000)).toBe(1);
    expect(await t.count("reset-account", "E@x.test", 60_000)).toBe(2);
    clock += 60_001;
    expect(await t.count("reset-account", "e@x.test", 60_000)).toBe(1);
  });
});
