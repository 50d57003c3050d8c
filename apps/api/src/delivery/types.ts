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
  address?: { street?: string; city?: string; state?: string; zip?: string };
}

/** A survey question as stored in a survey version. */
export interface DeliveryQuestion {
  id: string;
  type: string;
  fieldName: string;
  title?: string;
  choices?: { value: string | number | boolean; label?: string }[];
  fields?: DeliveryQuestion[];
}

/** The survey version a result was taken on. */
export interface DeliverySurvey {
  id: string;
  title: string;
  version: number;
  pages: { id: string; title?: string; questions: DeliveryQuestion[] }[];
}

/** The sending and receiving parties named in message headers. */
export interface DeliveryParties {
  sendingApplication: string;
  sendingFacility: string;
  receivingApplication: string;
  receivingFacility: string;
}

/**
 * Everything a document builder reads. Time and identifiers are injected so that a build is
 * deterministic: the same input always gives the same bytes.
 */
export interface DeliveryDocumentInput {
  tenant: { id: string; name: string };
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
