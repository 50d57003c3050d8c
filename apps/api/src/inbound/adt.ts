/**
 * The patient an ADT message's PID segment describes (HL7 v2.5.1 3.4.2), as the portal's PatientInput,
 * checked by the same schema as POST and PUT /api/patients.
 *
 * An empty field leaves the stored value as it is; the HL7 null `""` removes it (2.5.3); a value
 * replaces it. A field that cannot be read, or whose value the portal does not allow, refuses the whole
 * message (AE) naming the field, and nothing is stored. A control character in a value (a line break
 * sent as `\X0D\` or `\.br\`, or sent raw) is stored as a space, never as itself.
 */
import type { Hl7Message } from "@medplum/core";
import { ETHNICITIES, PatientInputSchema, RACES, type Patient, type PatientInput } from "@core-care/schema";
import {
  ETHNICITY_FROM_HL7,
  MRN_IDENTIFIER_TYPE,
  RACE_FROM_CDC,
  SEX_FROM_HL7,
  type Hl7ErrorCode,
} from "./codes.js";
import { fieldValue, HL7_NULL, rawField, repetitions, withoutControls } from "./hl7.js";

/** A refused field: where (`PID-7`), why (in words, without the value: it is PHI), table 0357's code. */
export interface AdtFieldError {
  location: string;
  message: string;
  code: Hl7ErrorCode;
}

/** `undefined`: the message leaves the value alone; `null`: it removes it. */
type Change<T> = T | null | undefined;

export interface PidChanges {
  mrn: string;
  lastName: Change<string>;
  firstName: Change<string>;
  dob: Change<string>;
  sex: Change<Patient["sex"]>;
  race: Change<string>;
  ethnicity: Change<string>;
  address: Change<NonNullable<PatientInput["address"]>>;
  phone: Change<string>;
  email: Change<string>;
}

export type PidResult = { ok: true; changes: PidChanges } | { ok: false; error: AdtFieldError };

class FieldRefused extends Error {
  constructor(readonly error: AdtFieldError) {
    super(error.message);
  }
}

const refuse = (location: string, message: string, code: Hl7ErrorCode = "dataType"): never => {
  throw new FieldRefused({ location, message, code });
};

/**
 * A PID field's repetitions and components, unescaped, each control character (sent raw, or escaped as
 * `\X0D\`, `\.br\`) and each run of them made one space: no stored value holds one.
 */
function pidRepetitions(message: Hl7Message, field: number): string[][] {
  return repetitions(message, "PID", field).map((rep) => rep.map(withoutControls));
}

function pidValue(message: Hl7Message, field: number): string {
  return withoutControls(fieldValue(message, "PID", field));
}

/** The raw field's state: absent, the HL7 null, or present. */
function presence(message: Hl7Message, field: number): "absent" | "null" | "present" {
  const raw = rawField(message, "PID", field);
  if (raw === "") return "absent";
  return raw === HL7_NULL ? "null" : "present";
}

/** A coded value (CWE) matched by its code (components 1 and 4) or its words against the portal's list. */
function coded<T extends string>(
  components: string[],
  byCode: Record<string, T>,
  words: readonly T[],
): T | undefined {
  for (const index of [0, 3]) {
    const code = components[index]?.trim() ?? "";
    if (code !== "" && byCode[code] !== undefined) return byCode[code];
  }
  for (const index of [1, 0, 4]) {
    const text = components[index]?.trim().toLowerCase() ?? "";
    const found = words.find((w) => w.toLowerCase() === text);
    if (text !== "" && found !== undefined) return found;
  }
  return undefined;
}

/** PID-7 (DTM): the date part YYYYMMDD of a time of birth, as YYYY-MM-DD when it is a calendar date. */
function birthDate(value: string): string {
  const match = /^(\d{4})(\d{2})(\d{2})(\d{2,})?([+-]\d{4})?$/.exec(value.trim());
  if (match === null) refuse("PID-7", "Must be a date of birth (YYYYMMDD).");
  const [, y, m, d] = match as RegExpExecArray;
  const date = new Date(Date.UTC(Number(y), Number(m) - 1, Number(d)));
  if (
    date.getUTCFullYear() !== Number(y) ||
    date.getUTCMonth() + 1 !== Number(m) ||
    date.getUTCDate() !== Number(d)
  ) {
    refuse("PID-7", "Must be a date of birth (YYYYMMDD).");
  }
  return `${y}-${m}-${d}`;
}

/** A telephone of an XTN repetition: XTN-1 as sent, or area code and local number (XTN-6, XTN-7). */
function telephone(components: string[]): string {
  const area = components[5]?.trim() ?? "";
  const local = components[6]?.trim() ?? "";
  if (local !== "") {
    if (/^\d{3}$/.test(area) && /^\d{7}$/.test(local))
      return `${area}-${local.slice(0, 3)}-${local.slice(3)}`;
    return [area, local].filter((p) => p !== "").join(" ");
  }
  return components[0]?.trim() ?? "";
}

function readPid(message: Hl7Message): PidChanges {
  if (message.getSegment("PID") === undefined)
    refuse("PID", "The message has no PID segment.", "segmentSequence");

  // PID-3: the repetition typed MR, or the first.
  const ids = pidRepetitions(message, 3);
  const mrnRep = ids.find((rep) => rep[4] === MRN_IDENTIFIER_TYPE) ?? ids[0];
  const mrn = mrnRep?.[0]?.trim() ?? "";
  if (mrn === "" || mrn === HL7_NULL)
    refuse("PID-3", "The medical record number is missing.", "requiredField");

  const changes: PidChanges = {
    mrn,
    lastName: undefined,
    firstName: undefined,
    dob: undefined,
    sex: undefined,
    race: undefined,
    ethnicity: undefined,
    address: undefined,
    phone: undefined,
    email: undefined,
  };

  // PID-5 XPN: the legal name (XPN-7 "L") or the first; family name, given name.
  switch (presence(message, 5)) {
    case "absent":
      break;
    case "null":
      refuse("PID-5", "The patient's name is required.", "requiredField");
      break;
    case "present": {
      const names = pidRepetitions(message, 5);
      const name = names.find((n) => n[6] === "L") ?? names[0] ?? [];
      changes.lastName = name[0]?.trim() ?? "";
      changes.firstName = name[1]?.trim() ?? "";
      break;
    }
  }

  switch (presence(message, 7)) {
    case "absent":
      break;
    case "null":
      refuse("PID-7", "The date of birth is required.", "requiredField");
      break;
    case "present":
      changes.dob = birthDate(pidValue(message, 7));
      break;
  }

  switch (presence(message, 8)) {
    case "absent":
      break;
    case "null":
      refuse("PID-8", "Administrative sex is required.", "requiredField");
      break;
    case "present": {
      const sex = SEX_FROM_HL7[pidValue(message, 8).trim().toUpperCase()];
      if (sex === undefined) refuse("PID-8", "Must be a code of HL7 table 0001.", "tableValue");
      changes.sex = sex;
      break;
    }
  }

  switch (presence(message, 10)) {
    case "absent":
      break;
    case "null":
      changes.race = null;
      break;
    case "present": {
      const race = coded(pidRepetitions(message, 10)[0] ?? [], RACE_FROM_CDC, RACES);
      if (race === undefined)
        refuse("PID-10", "Must be a CDC race code or one of the portal's races.", "tableValue");
      changes.race = race;
      break;
    }
  }

  switch (presence(message, 22)) {
    case "absent":
      break;
    case "null":
      changes.ethnicity = null;
      break;
    case "present": {
      const ethnicity = coded(pidRepetitions(message, 22)[0] ?? [], ETHNICITY_FROM_HL7, ETHNICITIES);
      if (ethnicity === undefined) {
        refuse("PID-22", "Must be a CDC ethnicity code or a code of HL7 table 0189.", "tableValue");
      }
      changes.ethnicity = ethnicity;
      break;
    }
  }

  // PID-11 XAD: street (and other designation), city, state, ZIP.
  switch (presence(message, 11)) {
    case "absent":
      break;
    case "null":
      changes.address = null;
      break;
    case "present": {
      const a = pidRepetitions(message, 11)[0] ?? [];
      changes.address = {
        street: [a[0], a[1]]
          .map((s) => s?.trim() ?? "")
          .filter((s) => s !== "")
          .join(", "),
        city: a[2]?.trim() ?? "",
        state: (a[3]?.trim().toUpperCase() ?? "") as NonNullable<PatientInput["address"]>["state"],
        zip: a[4]?.trim() ?? "",
      };
      break;
    }
  }

  // PID-13 XTN, home: the e-mail is the repetition of use NET or type Internet (XTN-4), the telephone
  // the first other one.
  switch (presence(message, 13)) {
    case "absent":
      break;
    case "null":
      changes.phone = null;
      changes.email = null;
      break;
    case "present": {
      const reps = pidRepetitions(message, 13);
      const isEmail = (rep: string[]) => rep[1] === "NET" || rep[2] === "Internet" || rep[2] === "X.400";
      const email = reps.find(isEmail);
      const phone = reps.find((rep) => !isEmail(rep));
      changes.email = email === undefined ? null : email[3]?.trim() || null;
      changes.phone = phone === undefined ? null : telephone(phone) || null;
      break;
    }
  }
  return changes;
}

/** Reads the PID segment; a field that cannot be read answers its location and why. */
export function readPatient(message: Hl7Message): PidResult {
  try {
    return { ok: true, changes: readPid(message) };
  } catch (error) {
    if (error instanceof FieldRefused) return { ok: false, error: error.error };
    throw error;
  }
}

/** The HL7 field each PatientInput field comes from, for an AE naming it. */
const FIELD_LOCATIONS: Record<string, string> = {
  mrn: "PID-3",
  lastName: "PID-5.1",
  firstName: "PID-5.2",
  dob: "PID-7",
  sex: "PID-8",
  race: "PID-10",
  "address.street": "PID-11.1",
  "address.city": "PID-11.3",
  "address.state": "PID-11.4",
  "address.zip": "PID-11.5",
  address: "PID-11",
  phone: "PID-13",
  email: "PID-13.4",
  ethnicity: "PID-22",
};

function apply<T>(current: T | undefined, change: Change<T>): T | undefined {
  if (change === undefined) return current;
  return change === null ? undefined : change;
}

/**
 * The patient after the message: the stored one (or nothing, for a new patient) with the message's
 * changes, validated by PatientInputSchema, the rule of the API. A refusal names the HL7 field.
 */
export function patientAfter(
  current: Patient | undefined,
  changes: PidChanges,
): { ok: true; input: PatientInput } | { ok: false; error: AdtFieldError } {
  const { id: _id, ...stored } = current ?? { id: "" };
  const merged: Record<string, unknown> = {
    ...stored,
    mrn: changes.mrn,
    lastName: apply(current?.lastName, changes.lastName),
    firstName: apply(current?.firstName, changes.firstName),
    dob: apply(current?.dob, changes.dob),
    sex: apply(current?.sex, changes.sex),
    race: apply<string>(current?.race, changes.race),
    ethnicity: apply<string>(current?.ethnicity, changes.ethnicity),
    address: apply(current?.address, changes.address),
    phone: apply(current?.phone, changes.phone),
    email: apply(current?.email, changes.email),
  };
  const parsed = PatientInputSchema.safeParse(merged);
  if (parsed.success) return { ok: true, input: parsed.data };
  const issue = parsed.error.issues[0];
  const path = issue?.path.map(String).join(".") ?? "";
  const location = FIELD_LOCATIONS[path] ?? FIELD_LOCATIONS[path.split(".")[0] ?? ""] ?? "PID";
  const missing = merged[path] === undefined;
  return {
    ok: false,
    error: {
      location,
      message: missing ? "This field is required for a new patient." : (issue?.message ?? "Invalid value."),
      code: missing ? "requiredField" : "dataType",
    },
  };
}
