import { describe, expect, test } from "vitest";
import { redirectTarget } from "./redirect";

describe("redirectTarget", () => {
  test("goes to the redirect parameter when present", () => {
    expect(redirectTarget("?redirect=/patients?q=1", false)).toBe("/patients?q=1");
  });

  test("URL-decodes an encoded redirect", () => {
    expect(
      redirectTarget(`?redirect=${encodeURIComponent(encodeURIComponent("/results?duration=1"))}`, false),
    ).toBe("/results?duration=1");
  });

  test("goes to / without a redirect on a desktop", () => {
    expect(redirectTarget("", false)).toBe("/");
  });

  test("goes to /tablet without a redirect on a tablet", () => {
    expect(redirectTarget("?message=x", true)).toBe("/tablet");
  });

  test.each(["https://evil.test/", "//evil.test/x", "/\\evil.test", "javascript:alert(1)"])(
    "refuses %s as a redirect",
    (target) => {
      expect(redirectTarget(`?redirect=${encodeURIComponent(target)}`, false)).toBe("/");
    },
  );
});
