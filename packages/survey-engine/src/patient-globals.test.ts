import { describe, expect, test } from "vitest";
import { ageOn, patientGlobals } from "./patient-globals.js";

describe("ageOn", () => {
  test.each([
    ["1950-02-03", "2026-02-02", 75],
    ["1950-02-03", "2026-02-03", 76],
    ["2000-02-29", "2026-02-28", 25],
    ["2000-02-29", "2026-03-01", 26],
  ])("gives whole years from %s to %s", (dob, today, age) => {
    expect(ageOn(dob, new Date(`${today}T12:00:00Z`))).toBe(age);
  });

  test("gives undefined for an unreadable or future birth date", () => {
    expect(ageOn("03/02/1950", new Date("2026-01-01T00:00:00Z"))).toBeUndefined();
    expect(ageOn("2100-01-01", new Date("2026-01-01T00:00:00Z"))).toBeUndefined();
  });
});

describe("patientGlobals", () => {
  test("gives sex, age, tenant id, location and settings for conditions", () => {
    expect(
      patientGlobals(
        { dob: "1950-02-03", sex: "F", locationId: "loc1" },
        { id: "demo", settings: { alternateFalls: true } },
        new Date("2026-11-21T00:00:00Z"),
      ),
    ).toEqual({
      sex: "F",
      age: 76,
      tenant: { id: "demo", location: { id: "loc1" }, settings: { alternateFalls: true } },
    });
  });

  test("leaves out a location the patient has not got", () => {
    expect(
      patientGlobals(
        { dob: "1950-02-03", sex: "M", locationId: null },
        { id: "demo" },
        new Date("2026-11-21"),
      ),
    ).toEqual({ sex: "M", age: 76, tenant: { id: "demo" } });
  });
});
