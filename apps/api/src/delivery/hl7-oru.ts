import HL7 from "hl7-standard";
import { answerItems, phqScores, type AnswerItem } from "./answers.js";
import {
  ADMINISTRATIVE_SEX,
  CODING_SYSTEM,
  HL7_VERSION,
  IDENTIFIER_TYPE,
  DOCUMENT_COMPLETION_AUTHENTICATED,
  DOCUMENT_TYPE_CDA,
  MDM_T02,
  ORDER_CONTROL_RESULTS,
  ORU_R01,
  PATIENT_CLASS_OUTPATIENT,
  RESULT_STATUS_FINAL,
  VALUE_TYPE,
  VALUE_TYPE_ENCAPSULATED,
  type ValueType,
} from "./codes/hl7-tables.js";
import { DOCUMENT_CODE } from "./codes/cda.js";
import { LOINC, type Coding } from "./codes/loinc.js";
import { hl7Date, hl7Timestamp } from "./time.js";
import type { DeliveryDocumentInput } from "./types.js";

const SEGMENT_END = "\r";

/**
 * Escapes text for an HL7 v2 field with the default encoding characters `|^~\&`
 * (HL7 v2.5.1 §2.7.4); line breaks become hexadecimal escapes so they cannot end a segment.
 */
export function escapeHl7(text: string): string {
  return text
    .replaceAll("\\", "\\E\\")
    .replaceAll("|", "\\F\\")
    .replaceAll("^", "\\S\\")
    .replaceAll("&", "\\T\\")
    .replaceAll("~", "\\R\\")
    .replaceAll("\r", "\\X0D\\")
    .replaceAll("\n", "\\X0A\\");
}

type Segment = ReturnType<HL7["createSegment"]>;

function put(segment: Segment, path: string, value: string | number | undefined) {
  if (value === undefined || value === "") return;
  segment.set(path, escapeHl7(String(value)));
}

function putCode(segment: Segment, path: string, code: string, text: string, system: string) {
  put(segment, `${path}.1`, code);
  put(segment, `${path}.2`, text);
  put(segment, `${path}.3`, system);
}

interface Observation {
  type: ValueType;
  identifier: { code: string; text: string; system: string };
  /** Each repetition of OBX-5, already split into components. */
  values: { code?: string; text: string; system?: string }[];
  units?: string;
}

function observationOf(item: AnswerItem): Observation {
  const identifier = item.question
    ? { code: item.question.code, text: item.question.display, system: CODING_SYSTEM.loinc }
    : { code: item.fieldName, text: item.title, system: CODING_SYSTEM.local };
  if (item.kind === "coded" && item.coded) {
    const system = item.coded.system === "LN" ? CODING_SYSTEM.loinc : CODING_SYSTEM.snomed;
    return {
      type: VALUE_TYPE.coded,
      identifier,
      values: [{ code: item.coded.code, text: item.coded.display, system }],
    };
  }
  if (item.kind === "number") {
    return { type: VALUE_TYPE.numeric, identifier, values: [{ text: String(item.number) }] };
  }
  return { type: VALUE_TYPE.text, identifier, values: item.display.map((text) => ({ text })) };
}

function scoreObservation(code: Coding, score: number): Observation {
  return {
    type: VALUE_TYPE.numeric,
    identifier: { code: code.code, text: code.display, system: CODING_SYSTEM.loinc },
    values: [{ text: String(score) }],
    units: "{score}",
  };
}

/** MSH with the interface's parties and the delivery's control id. */
function addMsh(
  message: HL7,
  input: DeliveryDocumentInput,
  type: { messageCode: string; triggerEvent: string; structure: string },
) {
  const { parties } = input;
  const msh = message.createSegment("MSH");
  msh.set("MSH.2", "^~\\&");
  put(msh, "MSH.3.1", parties.sendingApplication);
  put(msh, "MSH.4.1", parties.sendingFacility);
  put(msh, "MSH.5.1", parties.receivingApplication);
  put(msh, "MSH.6.1", parties.receivingFacility);
  put(msh, "MSH.7", hl7Timestamp(input.createdAt));
  put(msh, "MSH.9.1", type.messageCode);
  put(msh, "MSH.9.2", type.triggerEvent);
  put(msh, "MSH.9.3", type.structure);
  put(msh, "MSH.10", input.controlId);
  put(msh, "MSH.11", input.processingId ?? "P");
  put(msh, "MSH.12", HL7_VERSION);
}

/** PID and PV1 of the result's patient and location. */
function addPatientVisit(message: HL7, input: DeliveryDocumentInput) {
  const { patient, parties, location } = input;
  const pid = message.createSegment("PID");
  put(pid, "PID.1", 1);
  put(pid, "PID.3.1", patient.mrn || patient.id);
  put(pid, "PID.3.4", parties.sendingFacility);
  put(pid, "PID.3.5", patient.mrn ? IDENTIFIER_TYPE.medicalRecord : IDENTIFIER_TYPE.patientInternal);
  put(pid, "PID.5.1", patient.lastName);
  put(pid, "PID.5.2", patient.firstName);
  put(pid, "PID.7", hl7Date(patient.dob));
  put(pid, "PID.8", ADMINISTRATIVE_SEX[patient.sex]);
  if (patient.address) {
    put(pid, "PID.11.1", patient.address.street);
    put(pid, "PID.11.3", patient.address.city);
    put(pid, "PID.11.4", patient.address.state);
    put(pid, "PID.11.5", patient.address.zip);
  }
  put(pid, "PID.13.1", patient.phone);

  const pv1 = message.createSegment("PV1");
  put(pv1, "PV1.1", 1);
  put(pv1, "PV1.2", PATIENT_CLASS_OUTPATIENT);
  if (location) {
    put(pv1, "PV1.3.1", location.code);
    put(pv1, "PV1.3.4", parties.sendingFacility);
    put(pv1, "PV1.3.9", location.name);
  }
}

/**
 * Builds an HL7 v2.5.1 MDM^T02 message carrying a CDA document, base64-encoded in an ED OBX
 * (HL7 v2.5.1 §9.6.2; table 0191 TEXT, XML subtype), for CDA over MLLP.
 */
export function buildMdmT02(input: DeliveryDocumentInput, cdaXml: string): string {
  const message = new HL7(undefined, { lineEndings: SEGMENT_END });
  const created = hl7Timestamp(input.createdAt);
  addMsh(message, input, MDM_T02);
  const evn = message.createSegment("EVN");
  put(evn, "EVN.2", created);
  addPatientVisit(message, input);
  const txa = message.createSegment("TXA");
  put(txa, "TXA.1", 1);
  put(txa, "TXA.2", DOCUMENT_TYPE_CDA);
  put(txa, "TXA.3", "TEXT");
  put(txa, "TXA.4", hl7Timestamp(input.result.submittedAt));
  put(txa, "TXA.12.1", input.controlId);
  put(txa, "TXA.17", DOCUMENT_COMPLETION_AUTHENTICATED);
  const obx = message.createSegment("OBX");
  put(obx, "OBX.1", 1);
  put(obx, "OBX.2", VALUE_TYPE_ENCAPSULATED);
  putCode(obx, "OBX.3", DOCUMENT_CODE.code, DOCUMENT_CODE.display, CODING_SYSTEM.loinc);
  put(obx, "OBX.5.2", "TEXT");
  put(obx, "OBX.5.3", "XML");
  put(obx, "OBX.5.4", "Base64");
  put(obx, "OBX.5.5", Buffer.from(cdaXml, "utf8").toString("base64"));
  put(obx, "OBX.11", RESULT_STATUS_FINAL);
  return message.build();
}

/**
 * Builds an HL7 v2.5.1 ORU^R01 message for a survey result: MSH, PID, PV1, ORC, OBR (the survey)
 * and one OBX per answer, followed by PHQ-2 and PHQ-9 totals when they can be scored.
 */
export function buildOruR01(input: DeliveryDocumentInput): string {
  const { survey, result, parties } = input;
  const message = new HL7(undefined, { lineEndings: SEGMENT_END });
  const created = hl7Timestamp(input.createdAt);
  const observed = hl7Timestamp(result.submittedAt);
  addMsh(message, input, ORU_R01);
  addPatientVisit(message, input);

  const orc = message.createSegment("ORC");
  put(orc, "ORC.1", ORDER_CONTROL_RESULTS);
  put(orc, "ORC.2.1", result.id);
  put(orc, "ORC.2.2", parties.sendingApplication);
  put(orc, "ORC.3.1", result.id);
  put(orc, "ORC.3.2", parties.sendingApplication);
  put(orc, "ORC.9", created);

  const obr = message.createSegment("OBR");
  put(obr, "OBR.1", 1);
  put(obr, "OBR.2.1", result.id);
  put(obr, "OBR.2.2", parties.sendingApplication);
  put(obr, "OBR.3.1", result.id);
  put(obr, "OBR.3.2", parties.sendingApplication);
  putCode(obr, "OBR.4", `${survey.id}.v${survey.version}`, survey.title, CODING_SYSTEM.local);
  put(obr, "OBR.7", observed);
  put(obr, "OBR.22", created);
  put(obr, "OBR.25", RESULT_STATUS_FINAL);

  const scores = phqScores(result.answers);
  const observations = answerItems(survey, result.answers).map(observationOf);
  if (scores.phq2 !== undefined) observations.push(scoreObservation(LOINC.phq2Total, scores.phq2));
  if (scores.phq9 !== undefined) observations.push(scoreObservation(LOINC.phq9Total, scores.phq9));

  observations.forEach((obs, i) => {
    const obx = message.createSegment("OBX");
    put(obx, "OBX.1", i + 1);
    put(obx, "OBX.2", obs.type);
    putCode(obx, "OBX.3", obs.identifier.code, obs.identifier.text, obs.identifier.system);
    obx.set(
      "OBX.5",
      obs.values
        .map((v) =>
          v.code === undefined
            ? escapeHl7(v.text)
            : [v.code, v.text, v.system ?? ""].map((part) => escapeHl7(part)).join("^"),
        )
        .join("~"),
    );
    put(obx, "OBX.6.1", obs.units);
    put(obx, "OBX.11", RESULT_STATUS_FINAL);
    put(obx, "OBX.14", observed);
  });

  return message.build();
}
