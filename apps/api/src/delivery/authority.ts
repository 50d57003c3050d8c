import { UNIVERSAL_ID_TYPE_ISO, UNIVERSAL_ID_TYPE_UUID } from "./codes/hl7-tables.js";
import { nameUuid } from "./ids.js";
import type { DeliveryDocumentInput } from "./types.js";

/** An ISO object identifier (dotted decimal, ISO/IEC 8824). */
export const OID = /^[0-2](\.(0|[1-9]\d*))+$/;

/**
 * The assigning authority of a patient's MRN: one name and one universal id, so that HL7 PID-3.4
 * (`name&id&ISO|UUID`), the CDA `patientRole/id` (root, `assigningAuthorityName`) and the FHIR identifier
 * (system `urn:oid:…` or `urn:uuid:…`, assigner) name the same authority for the same MRN.
 */
export interface MrnAuthority {
  name: string;
  universalId: string;
  universalIdType: typeof UNIVERSAL_ID_TYPE_ISO | typeof UNIVERSAL_ID_TYPE_UUID;
  /** The FHIR identifier system of the authority's MRNs. */
  system: string;
}

/**
 * The interface's authority when it names one; else the sending facility (its name, or its OID) and,
 * without an OID anywhere, a UUID derived from the practice (the id its CDA documents always carried).
 */
export function mrnAuthority(input: Pick<DeliveryDocumentInput, "parties" | "tenant">): MrnAuthority {
  const { parties } = input;
  const facility = parties.sendingFacility.trim();
  const facilityIsOid = OID.test(facility);
  const name =
    parties.assigningAuthority || (facility && !facilityIsOid ? facility : "") || parties.sendingApplication;
  const oid = parties.assigningAuthorityOid || (facilityIsOid ? facility : undefined);
  if (oid !== undefined) {
    return { name, universalId: oid, universalIdType: UNIVERSAL_ID_TYPE_ISO, system: `urn:oid:${oid}` };
  }
  const uuid = nameUuid(`tenant:${input.tenant.id}`);
  return { name, universalId: uuid, universalIdType: UNIVERSAL_ID_TYPE_UUID, system: `urn:uuid:${uuid}` };
}
