/**
 * HL7 v2.5.1 table values used in ORU^R01 and ACK messages.
 *
 * Source: shared/standards/hl7v2/v2-tables-subset.json (HL7 v2 table CodeSystems from the FHIR R4
 * definitions bundle); `hl7-tables.test.ts` checks every value here against it.
 */

/** Table 0104 Version ID. */
export const HL7_VERSION = "2.5.1";

/** Table 0076 message type, 0003 event type; MSH-9.3 is the message structure. */
export const ORU_R01 = { messageCode: "ORU", triggerEvent: "R01", structure: "ORU_R01" } as const;

/** Table 0076/0003: a transcribed document with its content (HL7 v2.5.1 §9.6.2). */
export const MDM_T02 = { messageCode: "MDM", triggerEvent: "T02", structure: "MDM_T02" } as const;

/** Table 0001 Administrative Sex. */
export const ADMINISTRATIVE_SEX = { F: "F", M: "M", U: "U" } as const;

/** Table 0004 Patient Class. */
export const PATIENT_CLASS_OUTPATIENT = "O";

/** Table 0085 Observation Result Status: final results. */
export const RESULT_STATUS_FINAL = "F";

/** Table 0125 Value Type (used in OBX-2). */
export const VALUE_TYPE = {
  coded: "CWE",
  numeric: "NM",
  text: "ST",
  date: "DT",
  /** Formatted text: line breaks travel as the `\.br\` escape (HL7 v2.5.1 §2.7.6). */
  formatted: "FT",
} as const;
export type ValueType = (typeof VALUE_TYPE)[keyof typeof VALUE_TYPE];

/** Table 0125 ED: encapsulated data, for a whole document in OBX-5. */
export const VALUE_TYPE_ENCAPSULATED = "ED";

/** Table 0270 Document Type: "CD" clinical document (HL7 v2.5.1 §9.6.1, user-defined table 0270). */
export const DOCUMENT_TYPE_CDA = "CD";

/** Table 0271 Document Completion Status: authenticated. */
export const DOCUMENT_COMPLETION_AUTHENTICATED = "AU";

/** Table 0203 Identifier Type: medical record number, patient internal identifier. */
export const IDENTIFIER_TYPE = { medicalRecord: "MR", patientInternal: "PI" } as const;

/** Table 0008 Acknowledgment Code. */
export const ACK_CODES = ["AA", "AE", "AR", "CA", "CE", "CR"] as const;
export type AckCode = (typeof ACK_CODES)[number];

/** Table 0119 Order Control: observations to follow (RE). Not in the shared subset; HL7 v2.5.1 §4.5.1.1. */
export const ORDER_CONTROL_RESULTS = "RE";

/** Coding-system names of table 0396 used in CWE components. */
export const CODING_SYSTEM = { loinc: "LN", snomed: "SCT", local: "L", ucum: "UCUM" } as const;

/** MSH-18 character set (table 0211): the messages are UTF-8. */
export const CHARACTER_SET_UTF8 = "UNICODE UTF-8";

/** Table 0103 Processing ID: production, training, debugging. */
export const PROCESSING_IDS = ["P", "T", "D"] as const;
export type ProcessingId = (typeof PROCESSING_IDS)[number];

/** Table 0301 Universal ID Type of an HD whose universal id is an ISO object identifier. */
export const UNIVERSAL_ID_TYPE_ISO = "ISO";
/** Table 0301 Universal ID Type of an HD whose universal id is a UUID (RFC 9562). */
export const UNIVERSAL_ID_TYPE_UUID = "UUID";

/** UCUM unit of a questionnaire score: the annotation `{score}` (a count with no unit). */
export const UNIT_SCORE = { code: "{score}", text: "{score}", system: "UCUM" } as const;
