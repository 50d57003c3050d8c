import { Hl7Message } from "@medplum/core";
import { describe, expect, test } from "vitest";
import { validateCda, validateFhir } from "../../test/peers/standards.js";
import { buildCda } from "./cda.js";
import { buildFhirBundle } from "./fhir.js";
import { goldenCases } from "./golden.js";
import { buildOruR01 } from "./hl7-oru.js";
import type { DeliveryDocumentInput, DeliveryParties } from "./types.js";

const base = goldenCases().find((c) => c.name === "awv-full")!.input;
const FACILITY_OID = "2.16.840.1.113883.3.72";
const AUTHORITY_OID = "2.16.840.1.113883.3.72.5.1";

/** The MRN's authority as each of the three documents names it, read by independent parsers. */
async function authorities(parties: DeliveryParties) {
  const input: DeliveryDocumentInput = { ...base, parties };
  const pid = Hl7Message.parse(buildOruR01(input)).getSegment("PID")!;
  const [name, universalId, type] = pid.getComponent(3, 4).split("&");
  const cda = buildCda(input);
  expect(await validateCda(cda)).toEqual({ valid: true, errors: "" });
  const id = /<patientRole>\s*<id ([^>]*)\/>/.exec(cda)![1]!;
  const attr = (n: string) => new RegExp(`${n}="([^"]*)"`).exec(id)?.[1];
  const bundle = buildFhirBundle(input) as {
    entry: { resource: { resourceType: string; subject?: { identifier: Record<string, unknown> } } }[];
  };
  const response = bundle.entry.find((e) => e.resource.resourceType === "QuestionnaireResponse")!.resource;
  expect(validateFhir(bundle).valid).toBe(true);
  return {
    hl7: { mrn: pid.getComponent(3, 1), name, universalId, type, idType: pid.getComponent(3, 5) },
    cda: { mrn: attr("extension"), name: attr("assigningAuthorityName"), root: attr("root") },
    fhir: response.subject!.identifier,
  };
}

describe("the MRN's assigning authority", () => {
  test("is the interface's named authority and OID in HL7 PID-3.4, CDA and FHIR alike when the facility is an OID", async () => {
    const got = await authorities({
      ...base.parties,
      sendingFacility: FACILITY_OID,
      assigningAuthority: "CCMRN",
      assigningAuthorityOid: AUTHORITY_OID,
    });
    expect(got.hl7).toEqual({
      mrn: "MRN-1001",
      name: "CCMRN",
      universalId: AUTHORITY_OID,
      type: "ISO",
      idType: "MR",
    });
    expect(got.cda).toEqual({ mrn: "MRN-1001", name: "CCMRN", root: AUTHORITY_OID });
    expect(got.fhir).toEqual({
      system: `urn:oid:${AUTHORITY_OID}`,
      value: "MRN-1001",
      assigner: { display: "CCMRN" },
    });
  });

  test("takes the facility's OID in the universal id, never as the authority's name, when the interface names only a name", async () => {
    const got = await authorities({
      ...base.parties,
      sendingFacility: FACILITY_OID,
      assigningAuthority: "CCMRN",
    });
    expect(got.hl7).toMatchObject({ name: "CCMRN", universalId: FACILITY_OID, type: "ISO" });
    expect(got.cda).toMatchObject({ name: "CCMRN", root: FACILITY_OID });
    expect(got.fhir).toMatchObject({ system: `urn:oid:${FACILITY_OID}`, assigner: { display: "CCMRN" } });
  });

  test("without an OID anywhere, names the facility and one practice UUID in all three", async () => {
    const got = await authorities(base.parties);
    expect(got.hl7).toMatchObject({ name: "DEMO", type: "UUID" });
    expect(got.cda).toEqual({ mrn: "MRN-1001", name: "DEMO", root: got.hl7.universalId });
    expect(got.fhir).toEqual({
      system: `urn:uuid:${got.hl7.universalId}`,
      value: "MRN-1001",
      assigner: { display: "DEMO" },
    });
  });
});
