/**
 * Codes of inbound HL7 v2 ADT messages.
 *
 * Sources: HL7 v2 tables 0001, 0003, 0076, 0103, 0357 (shared/standards/hl7v2/v2-tables-subset.json,
 * checked by `codes.test.ts`); race and ethnicity: CDC Race & Ethnicity Code Set 1.0 (PHIN VADS,
 * OID 2.16.840.1.113883.6.238), which PID-10 and PID-22 carry in US realm messages, and HL7 table 0189
 * (H, N, U) for ethnicity.
 */
import type { Patient } from "@core-care/schema";

/** Table 0076 message type of the messages taken, and of their acknowledgment. */
export const ADT = "ADT";
export const ACK = "ACK";
/** The structure of a general acknowledgment (MSH-9.3). */
export const ACK_STRUCTURE = "ACK";

/**
 * Table 0003 events taken: A04 register a patient, A08 update patient information, A28 add person
 * information, A31 update person information. Each creates the patient or updates the one with its MRN.
 */
export const ADT_EVENTS = ["A04", "A08", "A28", "A31"] as const;
export type AdtEvent = (typeof ADT_EVENTS)[number];

/** Table 0203 identifier type of PID-3's medical record number. */
export const MRN_IDENTIFIER_TYPE = "MR";

/** Table 0357 message error condition codes an AE or AR names in ERR-3. */
export const HL7_ERROR = {
  segmentSequence: { code: "100", text: "Segment sequence error" },
  requiredField: { code: "101", text: "Required field missing" },
  dataType: { code: "102", text: "Data type error" },
  tableValue: { code: "103", text: "Table value not found" },
  valueTooLong: { code: "104", text: "Value too long" },
  unsupportedMessageType: { code: "200", text: "Unsupported message type" },
  unsupportedEvent: { code: "201", text: "Unsupported event code" },
  unsupportedProcessingId: { code: "202", text: "Unsupported processing id" },
  unsupportedVersion: { code: "203", text: "Unsupported version id" },
  unknownKey: { code: "204", text: "Unknown key identifier" },
  duplicateKey: { code: "205", text: "Duplicate key identifier" },
  applicationError: { code: "207", text: "Application error" },
} as const;
export type Hl7ErrorCode = keyof typeof HL7_ERROR;

/**
 * Table 0001 administrative sex onto the portal's F, M, U: other (O), ambiguous (A) and not applicable
 * (N) have no value of their own in the portal (SPEC 3) and are kept as unknown.
 */
export const SEX_FROM_HL7: Record<string, Patient["sex"]> = {
  F: "F",
  M: "M",
  U: "U",
  O: "U",
  A: "U",
  N: "U",
};

/** CDC race codes onto the portal's race list (SPEC 3); the list's own words are taken as they are. */
export const RACE_FROM_CDC: Record<string, NonNullable<Patient["race"]>> = {
  "1002-5": "American Indian or Alaska Native",
  "2028-9": "Asian",
  "2034-7": "Chinese",
  "2036-2": "Filipino",
  "2039-6": "Japanese",
  "2054-5": "Black or African American",
  "2076-8": "Pacific Islander",
  "2079-2": "Native Hawaiian",
  "2106-3": "Caucasian",
  "2131-1": "Other",
};

/** CDC ethnicity codes and table 0189 onto the portal's ethnicity list. */
export const ETHNICITY_FROM_HL7: Record<string, NonNullable<Patient["ethnicity"]>> = {
  "2135-2": "Hispanic or Latino",
  "2186-5": "Non Hispanic or Latino",
  H: "Hispanic or Latino",
  N: "Non Hispanic or Latino",
  U: "Other or Undetermined",
};
