import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { ETHNICITIES, INBOUND_PROCESSING_IDS, RACES } from "@core-care/schema";
import { standardsDir } from "../../test/peers/standards.js";
import {
  ACK,
  ADT,
  ADT_EVENTS,
  ETHNICITY_FROM_HL7,
  HL7_ERROR,
  MRN_IDENTIFIER_TYPE,
  RACE_FROM_CDC,
  SEX_FROM_HL7,
} from "./codes.js";

interface Resource {
  id: string;
  concept?: { code: string; display?: string }[];
  compose?: { include: { concept?: { code: string; display?: string }[] }[] };
}
const bundle = JSON.parse(readFileSync(join(standardsDir(), "hl7v2/v2-tables-subset.json"), "utf8")) as {
  entry: { resource: Resource }[];
};
function concepts(table: string): { code: string; display?: string }[] {
  const resource = bundle.entry.map((e) => e.resource).find((r) => r.id === `v2-${table}`);
  if (!resource) throw new Error(`table ${table} missing from the subset`);
  return resource.concept ?? resource.compose!.include.flatMap((i) => i.concept ?? []);
}
const codes = (table: string) => concepts(table).map((c) => c.code);

describe("inbound HL7 codes", () => {
  test.each([
    ["0076", [ADT, ACK]],
    ["0003", [...ADT_EVENTS]],
    ["0001", Object.keys(SEX_FROM_HL7)],
    ["0203", [MRN_IDENTIFIER_TYPE]],
    ["0103", [...INBOUND_PROCESSING_IDS]],
  ])("every value taken from table %s is in the table", (table, values) => {
    expect(codes(table)).toEqual(expect.arrayContaining(values));
  });

  test("table 0357 codes and texts are the table's", () => {
    const table = new Map(concepts("0357").map((c) => [c.code, c.display]));
    for (const { code, text } of Object.values(HL7_ERROR)) expect(table.get(code)).toBe(text);
  });

  test("race and ethnicity codes map onto the portal's lists", () => {
    for (const race of Object.values(RACE_FROM_CDC)) expect(RACES).toContain(race);
    for (const ethnicity of Object.values(ETHNICITY_FROM_HL7)) expect(ETHNICITIES).toContain(ethnicity);
    // CDC Race & Ethnicity Code Set 1.0 codes: nnnn-n with a check digit.
    for (const code of [...Object.keys(RACE_FROM_CDC), "2135-2", "2186-5"])
      expect(code).toMatch(/^\d{4}-\d$/);
  });
});
