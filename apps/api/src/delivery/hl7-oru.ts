import { HL7_VALUE_TYPES } from "@core-care/survey-engine";
import HL7 from "hl7-standard";
import { answerItems, phqScores, type AnswerItem } from "./answers.js";
import {
  ADMINISTRATIVE_SEX,
  CHARACTER_SET_UTF8,
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
  UNIT_SCORE,
  UNIVERSAL_ID_TYPE_ISO,
  type ValueType,
} from "./codes/hl7-tables.js";
import { CDC_RACE_HL7, ethnicityCode, raceCode, UNKNOWN } from "./codes/race-ethnicity.js";
import { DOCUMENT_CODE } from "./codes/cda.js";
import { LOINC, type Coding } from "./codes/loinc.js";
import { cdaDocumentId } from "./ids.js";
import { mrnAuthority, OID } from "./authority.js";
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

/** One component list of a CWE value or identifier: code^text^system[^alt code^alt text^alt system]. */
type Cwe = string[];

interface Observation {
  type: ValueType;
  identifier: Cwe;
  /** Each repetition of OBX-5, already split into components (one component for non-CWE types). */
  values: Cwe[];
  units?: Cwe;
}

/** Line breaks of formatted text (FT) as its `\.br\` escape, after escaping the delimiters. */
const formattedText = (text: string) =>
  escapeHl7(text.replace(/\r\n?/g, "\n")).replaceAll("\\X0A\\", "\\.br\\");

function observationOf(item: AnswerItem): Observation {
  const local = [item.fieldName, item.title, CODING_SYSTEM.local];
  // A LOINC-coded question keeps its survey field and wording as the CWE's alternate identifier.
  const identifier = item.question
    ? [item.question.code, item.question.display, CODING_SYSTEM.loinc, ...local]
    : local;
  // The OBX value type of the answer's export kind, as the engine's question type descriptors give it.
  switch (HL7_VALUE_TYPES[item.kind]) {
    case "CWE":
      return {
        type: VALUE_TYPE.coded,
        identifier,
        values: item.values.map((v) => {
          const own = [v.value, v.label, CODING_SYSTEM.local];
          if (!v.coded) return own;
          const system = v.coded.system === "LN" ? CODING_SYSTEM.loinc : CODING_SYSTEM.snomed;
          return [v.coded.code, v.coded.display, system, ...own];
        }),
      };
    case "NM":
      return { type: VALUE_TYPE.numeric, identifier, values: item.values.map((v) => [String(v.number)]) };
    case "DT":
      return { type: VALUE_TYPE.date, identifier, values: item.values.map((v) => [hl7Date(v.value)]) };
    case "FT":
      return { type: VALUE_TYPE.formatted, identifier, values: item.values.map((v) => [v.value]) };
    case "ST":
      return { type: VALUE_TYPE.text, identifier, values: item.values.map((v) => [v.value]) };
  }
}

function scoreObservation(code: Coding, score: number): Observation {
  return {
    type: VALUE_TYPE.numeric,
    identifier: [code.code, code.display, CODING_SYSTEM.loinc],
    values: [[String(score)]],
    units: [UNIT_SCORE.code, UNIT_SCORE.text, UNIT_SCORE.system],
  };
}

/**
 * An HD (hierarchic designator) field: a name as its namespace id, or an ISO object identifier as its
 * universal id with universal id type ISO (HL7 v2.5.1 §2.A.33).
 */
function putHd(segment: Segment, path: string, value: string) {
  if (OID.test(value.trim())) {
    put(segment, `${path}.2`, value.trim());
    put(segment, `${path}.3`, UNIVERSAL_ID_TYPE_ISO);
  } else {
    put(segment, `${path}.1`, value);
  }
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
  putHd(msh, "MSH.3", parties.sendingApplication);
  putHd(msh, "MSH.4", parties.sendingFacility);
  putHd(msh, "MSH.5", parties.receivingApplication);
  putHd(msh, "MSH.6", parties.receivingFacility);
  put(msh, "MSH.7", hl7Timestamp(input.createdAt));
  put(msh, "MSH.9.1", type.messageCode);
  put(msh, "MSH.9.2", type.triggerEvent);
  put(msh, "MSH.9.3", type.structure);
  put(msh, "MSH.10", input.controlId);
  put(msh, "MSH.11", input.processingId ?? "P");
  put(msh, "MSH.12", HL7_VERSION);
  put(msh, "MSH.18", CHARACTER_SET_UTF8);
}

/** PID and PV1 of the result's patient and location. */
function addPatientVisit(message: HL7, input: DeliveryDocumentInput) {
  const { patient, parties, location } = input;
  const pid = message.createSegment("PID");
  put(pid, "PID.1", 1);
  // CX: id^^^assigning authority^identifier type, the authority an HD of subcomponents
  // (name&universal id&type, HL7 v2.5.1 §2.A.14), the same authority the CDA and FHIR documents name
  // (authority.ts). Written whole: the builder's paths reach components, not subcomponents.
  const authority = mrnAuthority(input);
  pid.set(
    "PID.3",
    [
      escapeHl7(patient.mrn || patient.id),
      "",
      "",
      [authority.name, authority.universalId, authority.universalIdType].map(escapeHl7).join("&"),
      patient.mrn ? IDENTIFIER_TYPE.medicalRecord : IDENTIFIER_TYPE.patientInternal,
    ].join("^"),
  );
  put(pid, "PID.5.1", patient.lastName);
  put(pid, "PID.5.2", patient.firstName);
  put(pid, "PID.7", hl7Date(patient.dob));
  put(pid, "PID.8", ADMINISTRATIVE_SEX[patient.sex]);
  if (patient.race !== undefined) {
    const race = raceCode(patient.race);
    const codes = race ? [race.omb, ...(race.detailed ? [race.detailed] : [])] : [];
    const reps = codes.map((c) => [c.code, c.display, CDC_RACE_HL7]);
    if (reps.length === 0) reps.push([UNKNOWN.code, UNKNOWN.display, UNKNOWN.hl7System]);
    pid.set("PID.10", reps.map((r) => r.map((part) => escapeHl7(part)).join("^")).join("~"));
  }
  if (patient.address) {
    put(pid, "PID.11.1", patient.address.street);
    put(pid, "PID.11.3", patient.address.city);
    put(pid, "PID.11.4", patient.address.state);
    put(pid, "PID.11.5", patient.address.zip);
  }
  put(pid, "PID.13.1", patient.phone);
  if (patient.ethnicity !== undefined) {
    const ethnicity = ethnicityCode(patient.ethnicity);
    if (ethnicity) putCode(pid, "PID.22", ethnicity.code, ethnicity.display, CDC_RACE_HL7);
    else putCode(pid, "PID.22", UNKNOWN.code, UNKNOWN.display, UNKNOWN.hl7System);
  }

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
  // TXA-12 Unique Document Number: the CDA document's own id (its ClinicalDocument/id root).
  put(txa, "TXA.12.1", cdaDocumentId(input));
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
  return endSegments(message.build());
}

/** Every segment, the last one included, ends with a carriage return (HL7 v2.5.1 §2.5.1). */
const endSegments = (message: string) => (message.endsWith(SEGMENT_END) ? message : message + SEGMENT_END);

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
    obx.set("OBX.3", obs.identifier.map((part) => escapeHl7(part)).join("^"));
    const escape = obs.type === VALUE_TYPE.formatted ? formattedText : escapeHl7;
    obx.set("OBX.5", obs.values.map((v) => v.map((part) => escape(part)).join("^")).join("~"));
    if (obs.units) obx.set("OBX.6", obs.units.map((part) => escapeHl7(part)).join("^"));
    put(obx, "OBX.11", RESULT_STATUS_FINAL);
    put(obx, "OBX.14", observed);
  });

  return endSegments(message.build());
}
