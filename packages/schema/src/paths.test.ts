import { describe, expect, test } from "vitest";
import { isTabletPath } from "./paths.js";

describe("isTabletPath", () => {
  test.each([
    ["/tablet", true],
    ["/tablet/", true],
    ["/tablet?patientId=abc", true],
    ["/tablet/patient-survey/abc/pg/2", true],
    ["/tablets", false],
    ["/tablet-sw.js", false],
    ["/auth/logout", false],
    ["/", false],
  ])("of %s is %s", (path, expected) => {
    expect(isTabletPath(path)).toBe(expected);
  });
});
