import { describe, expect, test } from "vitest";
import {
  addMonths,
  addYears,
  afterFullMonths,
  ageOn,
  dateTurning,
  formatDate,
  fullMonthsBetween,
  parseDate,
  type CalendarDate,
} from "./dates.js";

const d = (s: string): CalendarDate => {
  const date = parseDate(s);
  if (!date) throw new Error(s);
  return date;
};

describe("parseDate", () => {
  test.each(["2026-02-29", "2026-13-01", "2026-00-10", "2026-04-31", "26-01-01", "2026-1-1", ""])(
    "refuses %j",
    (value) => {
      expect(parseDate(value)).toBeUndefined();
    },
  );

  test("reads 29 February in a leap year, and 1900 is not one", () => {
    expect(parseDate("2024-02-29")).toEqual({ year: 2024, month: 2, day: 29 });
    expect(parseDate("1900-02-29")).toBeUndefined();
    expect(parseDate("2000-02-29")).toEqual({ year: 2000, month: 2, day: 29 });
  });
});

describe("addMonths and addYears", () => {
  test.each([
    ["2026-01-31", 1, "2026-02-28"],
    ["2024-01-31", 1, "2024-02-29"],
    ["2026-03-31", -1, "2026-02-28"],
    ["2026-11-15", 2, "2027-01-15"],
    ["2026-01-15", -13, "2024-12-15"],
  ])("%s plus %i months is %s", (from, months, expected) => {
    expect(formatDate(addMonths(d(from), months))).toBe(expected);
  });

  test("29 February plus a year is 28 February; plus four years is 29 February", () => {
    expect(formatDate(addYears(d("2024-02-29"), 1))).toBe("2025-02-28");
    expect(formatDate(addYears(d("2024-02-29"), 4))).toBe("2028-02-29");
  });
});

describe("afterFullMonths (CMS counting)", () => {
  test.each([
    // CMS AWV FAQ: an AWV at the end of January 2011 allows the next at the beginning of January 2012.
    ["2011-01-31", "2012-01-01"],
    ["2025-11-03", "2026-11-01"],
    ["2025-11-30", "2026-11-01"],
    ["2025-12-01", "2026-12-01"],
    ["2025-12-31", "2026-12-01"],
    ["2024-02-29", "2025-02-01"],
    ["2023-02-28", "2024-02-01"],
    ["2024-03-01", "2025-03-01"],
  ])("11 full months after the month of %s have passed on %s", (from, expected) => {
    expect(formatDate(afterFullMonths(d(from), 11))).toBe(expected);
  });

  test("counts the full months between the two months, neither counted", () => {
    expect(fullMonthsBetween(d("2025-11-03"), d("2026-10-31"))).toBe(10);
    expect(fullMonthsBetween(d("2025-11-03"), d("2026-11-01"))).toBe(11);
    expect(fullMonthsBetween(d("2025-11-03"), d("2025-11-30"))).toBe(0);
    expect(fullMonthsBetween(d("2025-11-03"), d("2025-12-01"))).toBe(0);
  });
});

describe("ageOn and dateTurning", () => {
  test("turns a year older on the birthday, not the day before", () => {
    expect(ageOn(d("1961-12-02"), d("2026-12-01"))).toBe(64);
    expect(ageOn(d("1961-12-02"), d("2026-12-02"))).toBe(65);
    expect(formatDate(dateTurning(d("1961-12-02"), 65))).toBe("2026-12-02");
  });

  test("a 29 February birthday is reached on 1 March in a common year", () => {
    expect(ageOn(d("1960-02-29"), d("2025-02-28"))).toBe(64);
    expect(ageOn(d("1960-02-29"), d("2025-03-01"))).toBe(65);
    expect(formatDate(dateTurning(d("1960-02-29"), 65))).toBe("2025-03-01");
    expect(formatDate(dateTurning(d("1960-02-29"), 64))).toBe("2024-02-29");
  });
});
