import { ETHNICITIES, RACES } from "@core-care/schema";
import { describe, expect, test } from "vitest";
import { DETAILED_RACE, ethnicityCode, OMB_RACE, raceCode } from "./race-ethnicity.js";

const CDC_CODE = /^\d{4}-\d$/;

describe("CDC race and ethnicity codes", () => {
  test("every code has the CDC code set's form", () => {
    for (const c of [...Object.values(OMB_RACE), ...Object.values(DETAILED_RACE)])
      expect(c.code).toMatch(CDC_CODE);
  });

  test.each([...RACES])("race %s is an OMB category (and a detailed race) or explicitly unknown", (race) => {
    const code = raceCode(race);
    if (race === "Undetermined") expect(code).toBeUndefined();
    else expect(Object.values(OMB_RACE)).toContain(code?.omb);
  });

  test.each([...ETHNICITIES])("ethnicity %s is an OMB ethnicity or explicitly unknown", (ethnicity) => {
    const code = ethnicityCode(ethnicity);
    if (ethnicity === "Other or Undetermined") expect(code).toBeUndefined();
    else expect(code?.code).toMatch(CDC_CODE);
  });

  test("a value that is not on the form is unknown", () => {
    expect(raceCode("Martian")).toBeUndefined();
    expect(ethnicityCode(undefined)).toBeUndefined();
  });
});
