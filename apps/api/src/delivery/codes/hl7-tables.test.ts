import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { standardsDir } from "../../../test/peers/standards.js";
import {
  ACK_CODES,
  ADMINISTRATIVE_SEX,
  HL7_VERSION,
  IDENTIFIER_TYPE,
  MDM_T02,
  ORU_R01,
  PATIENT_CLASS_OUTPATIENT,
  PROCESSING_IDS,
  RESULT_STATUS_FINAL,
  VALUE_TYPE,
  VALUE_TYPE_ENCAPSULATED,
} from "./hl7-tables.js";

interface Resource {
  id: string;
  concept?: { code: string }[];
  compose?: { include: { concept?: { code: string }[] }[] };
}
const bundle = JSON.parse(readFileSync(join(standardsDir(), "hl7v2/v2-tables-subset.json"), "utf8")) as {
  entry: { resource: Resource }[];
};
function codes(table: string): string[] {
  const resource = bundle.entry.map((e) => e.resource).find((r) => r.id === `v2-${table}`);
  if (!resource) throw new Error(`table ${table} missing from the subset`);
  return (
    resource.concept?.map((c) => c.code) ??
    resource.compose!.include.flatMap((i) => i.concept ?? []).map((c) => c.code)
  );
}

describe("HL7 v2 table constants", () => {
  test.each([
    ["0104", [HL7_VERSION]],
    ["0076", [ORU_R01.messageCode, MDM_T02.messageCode]],
    ["0003", [ORU_R01.triggerEvent, MDM_T02.triggerEvent]],
    ["0001", Object.values(ADMINISTRATIVE_SEX)],
    ["0004", [PATIENT_CLASS_OUTPATIENT]],
    ["0085", [RESULT_STATUS_FINAL]],
    ["0125", [...Object.values(VALUE_TYPE), VALUE_TYPE_ENCAPSULATED]],
    ["0203", Object.values(IDENTIFIER_TYPE)],
    ["0008", [...ACK_CODES]],
    ["0103", [...PROCESSING_IDS]],
  ])("table %s holds %j", (table, values) => {
    const known = codes(table);
    for (const v of values) expect(known).toContain(v);
  });
});
