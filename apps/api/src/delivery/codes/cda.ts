/**
 * CDA R2 / C-CDA 2.1 identifiers: template OIDs, code systems and the document type.
 *
 * Source: HL7 C-CDA R2.1 Implementation Guide as used by the HL7/C-CDA-Examples and the HL7 Example
 * Task Force documents in shared/standards/cda/examples; `cda-codes.test.ts` checks that every
 * template and code appears in those examples.
 */

export const CDA_TYPE_ID = { root: "2.16.840.1.113883.1.3", extension: "POCD_HD000040" } as const;

export interface TemplateId {
  root: string;
  extension?: string;
}

export const TEMPLATE = {
  usRealmHeader: { root: "2.16.840.1.113883.10.20.22.1.1", extension: "2015-08-01" },
  functionalStatusSection: { root: "2.16.840.1.113883.10.20.22.2.14", extension: "2014-06-09" },
  mentalStatusSection: { root: "2.16.840.1.113883.10.20.22.2.56", extension: "2015-08-01" },
  socialHistorySection: { root: "2.16.840.1.113883.10.20.22.2.17", extension: "2015-08-01" },
  /** Advance Directives Section (entries optional) (V3), C-CDA R2.1 Vol. 2 §5.1; no stored example uses it. */
  advanceDirectivesSection: { root: "2.16.840.1.113883.10.20.22.2.21", extension: "2015-08-01" },
  assessmentScaleObservation: { root: "2.16.840.1.113883.10.20.22.4.69" },
  assessmentScaleSupportingObservation: { root: "2.16.840.1.113883.10.20.22.4.86" },
  smokingStatusObservation: { root: "2.16.840.1.113883.10.20.22.4.78", extension: "2014-06-09" },
} as const satisfies Record<string, TemplateId>;

/**
 * Document type: LOINC 51855-5 Patient Note, a note whose author is the patient, as a survey's answers
 * are. The document carries the US Realm Header template alone, so its code must be one no C-CDA
 * document template claims: 34133-9 (Summarization of Episode Note) is the CCD's, and a CCD needs its
 * own template and required sections (C-CDA R2.1 Vol. 2 §1.1, §1.2).
 */
export const DOCUMENT_CODE = { code: "51855-5", display: "Patient Note" } as const;

/** Document codes of C-CDA R2.1 document templates; a document using one needs that template too. */
export const TEMPLATED_DOCUMENT_CODES = {
  "34133-9": "2.16.840.1.113883.10.20.22.1.2",
  "11488-4": "2.16.840.1.113883.10.20.22.1.4",
  "18842-5": "2.16.840.1.113883.10.20.22.1.8",
  "34117-2": "2.16.840.1.113883.10.20.22.1.3",
  "11506-3": "2.16.840.1.113883.10.20.22.1.9",
} as const;

export const CODE_SYSTEM_OID = {
  administrativeGender: "2.16.840.1.113883.5.1",
  confidentiality: "2.16.840.1.113883.5.25",
} as const;

/** HL7 AdministrativeGender; U in our data is UN (undifferentiated) in CDA. */
export const ADMINISTRATIVE_GENDER = {
  F: { code: "F", display: "Female" },
  M: { code: "M", display: "Male" },
  U: { code: "UN", display: "Undifferentiated" },
} as const;

export const CONFIDENTIALITY_NORMAL = { code: "N", display: "normal" } as const;
