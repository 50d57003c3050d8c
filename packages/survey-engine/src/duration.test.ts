import { describe, expect, test } from "vitest";
import { DURATION_FILTERS, durationStart } from "./duration.js";

describe("durationStart", () => {
  const now = new Date("2026-11-21T13:45:10.123Z");

  test.each([
    [1, "2026-11-21T00:00:00.000Z"],
    [0, "2026-11-20T00:00:00.000Z"],
    [5, "1926-11-21T00:00:00.000Z"],
  ] as const)("starts filter %i at %s", (filter, expected) => {
    expect(durationStart(filter, now).toISOString()).toBe(expected);
  });

  test("counts from the UTC day even just after midnight UTC", () => {
    expect(durationStart(1, new Date("2026-03-01T00:00:00.001Z")).toISOString()).toBe(
      "2026-03-01T00:00:00.000Z",
    );
    expect(durationStart(0, new Date("2026-03-01T00:30:00Z")).toISOString()).toBe("2026-02-28T00:00:00.000Z");
  });

  test("labels the filters as the spec does", () => {
    expect(DURATION_FILTERS.map((filter) => [filter.value, filter.label])).toEqual([
      [0, "Since Yesterday"],
      [1, "Today"],
      [5, "All"],
    ]);
  });
});
