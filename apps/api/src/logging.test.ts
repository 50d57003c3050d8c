import { describe, expect, test } from "vitest";
import { redactUrl } from "./logging.js";

describe("redactUrl", () => {
  test.each([
    ["/api/patients?q=smith", "/api/patients?[redacted]"],
    ["/api/auth/passwords/jane%40example.test", "/api/auth/passwords/:email"],
    ["/api/users/jane@example.test", "/api/users/:email"],
    ["/auth/teleawv?tenant=demo&ptEmail=a%40b.c", "/auth/teleawv?[redacted]"],
    ["/api/patients/65a1b2c3d4e5f60718293a4b", "/api/patients/65a1b2c3d4e5f60718293a4b"],
  ])("logs %s as %s", (url, logged) => {
    expect(redactUrl(url)).toBe(logged);
  });
});
