import type { Condition, Question } from "@core-care/survey-engine";

/** A postal address; every part optional. */
export interface DeliveryAddress {
  street?: string;
  city?: string;
  state?: string;
  zip?: string;
}

/** A patient as the delivery builders need it; mirrors the API's Patient. */
export interface DeliveryPatient {
  id: string;
  mrn: string;
  firstName: string;
  lastName: string;
  /** YYYY-MM-DD */
  dob: string;
  sex: "F" | "M" | "U";
  email?: string;
  phone?: string;
  address?: DeliveryAddress;
  /** One of the patient form's races (`RACES` of @core-care/schema). */
  race?: string;
  /** One of the patient form's ethnicities (`ETHNICITIES`). */
  ethnicity?: string;
}

/** A survey question as stored in a survey version: the survey engine's. */
export type DeliveryQuestion = Question;

/** The survey version a result was taken on. */
export interface DeliverySurvey {
  id: string;
  title: string;
  version: number;
  pages: { id: string; title?: string; conditions?: Condition[]; questions: DeliveryQuestion[] }[];
}

/** The sending and receiving parties named in message headers. */
export interface DeliveryParties {
  sendingApplication: string;
  sendingFacility: string;
  receivingApplication: string;
  receivingFacility: string;
  /** The interface's assigning authority of MRNs and its OID, when it names them (`mrnAuthority`). */
  assigningAuthority?: string;
  assigningAuthorityOid?: string;
}

/**
 * Everything a document builder reads. Time and identifiers are injected so that a build is
 * deterministic: the same input always gives the same bytes.
 */
export interface DeliveryDocumentInput {
  /** The practice: author and custodian of the documents; its address and phone when it has set them. */
  tenant: { id: string; name: string; address?: DeliveryAddress; phone?: string };
  patient: DeliveryPatient;
  survey: DeliverySurvey;
  result: { id: string; answers: Record<string, unknown>; submittedAt: string };
  location?: { id: string; name: string; code: string };
  parties: DeliveryParties;
  /** Unique per delivery; HL7 MSH-10 and the CDA/FHIR document identifiers derive from it. */
  controlId: string;
  /** ISO date-time of the message creation. */
  createdAt: string;
  /** Processing id, HL7 table 0103 (P production, T training, D debugging). */
  processingId?: "P" | "T" | "D";
}
