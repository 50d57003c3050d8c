import { describe, expect, test } from "vitest";
import { buildApp } from "./app.js";

describe("GET /api/health", () => {
  test("answers ok using the engine from source", async () => {
    const app = await buildApp({ logLevel: "silent" });
    const res = await app.inject({ method: "GET", url: "/api/health" });
    expect(res.json()).toEqual({ ok: true, sample: "555-1234" });
    await app.close();
  });
});
