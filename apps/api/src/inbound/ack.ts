/**
 * The acknowledgment of an inbound message (HL7 v2.5.1 2.9.2 original mode, segments MSA and ERR),
 * written with the standard delimiters `|^~\&` whatever the message declared, sender and receiver
 * swapped. Every value it echoes is escaped (2.7), control characters included, so an ACK never
 * carries a delimiter of its own or an MLLP block character (0x0B, 0x1C) it was sent.
 */
import { randomBytes } from "node:crypto";
import type { Hl7Message } from "@medplum/core";
import { ACK_STRUCTURE, HL7_ERROR, type Hl7ErrorCode } from "./codes.js";
import { declaredDelimiters, fieldValue, parseMessage, repetitions, SEGMENT_BREAK } from "./hl7.js";

/** Escapes a value for a field of an acknowledgment (2.7); a control character becomes `\Xhh\`. */
export function escapeValue(value: string): string {
  return value
    .replace(/\\/g, "\\E\\")
    .replace(/\|/g, "\\F\\")
    .replace(/\^/g, "\\S\\")
    .replace(/~/g, "\\R\\")
    .replace(/&/g, "\\T\\")
    .replace(
      // eslint-disable-next-line no-control-regex -- the control characters are what is escaped
      /[\u0000-\u001f\u007f]/g,
      (c) => `\\X${c.charCodeAt(0).toString(16).padStart(2, "0").toUpperCase()}\\`,
    );
}

/** The MSH fields an acknowledgment echoes, as they were read (already unescaped components). */
export interface AckHeader {
  sendingApplication: string[];
  sendingFacility: string[];
  receivingApplication: string[];
  receivingFacility: string[];
  triggerEvent: string;
  controlId: string;
  /** MSH-11.1 as sent ("" when absent); the ACK says P then. */
  processingId: string;
  version: string;
}

/** What an acknowledgment says: MSA-1, MSA-3, and for AE/AR the field at fault (ERR-2) and its code. */
export interface AckContent {
  code: "AA" | "AE" | "AR";
  text: string;
  error?: { location: string; code: Hl7ErrorCode } | undefined;
}

/** The header of a message whose MSH could not be read: nothing to echo. */
export const EMPTY_HEADER: AckHeader = {
  sendingApplication: [],
  sendingFacility: [],
  receivingApplication: [],
  receivingFacility: [],
  triggerEvent: "",
  controlId: "",
  processingId: "",
  version: "2.5.1",
};

export function headerOf(message: Hl7Message): AckHeader {
  const hd = (field: number) => repetitions(message, "MSH", field)[0] ?? [];
  return {
    sendingApplication: hd(3),
    sendingFacility: hd(4),
    receivingApplication: hd(5),
    receivingFacility: hd(6),
    triggerEvent: repetitions(message, "MSH", 9)[0]?.[1] ?? "",
    controlId: fieldValue(message, "MSH", 10),
    processingId: fieldValue(message, "MSH", 11).trim(),
    version: fieldValue(message, "MSH", 12) || "2.5.1",
  };
}

/** How far into a frame its MSH is looked for when the frame as a whole cannot be read. */
const HEAD_BYTES = 64 * 1024;

/**
 * The header of the first MSH segment of raw bytes, for the answer to a message that cannot be read as
 * a whole (bytes not of its character set, a broken segment, over the size limit): MSH is ASCII, so
 * its fields are read as Latin-1. EMPTY_HEADER when no MSH can be read.
 */
export function headerOfBytes(bytes: Buffer): AckHeader {
  const lines = bytes.subarray(0, HEAD_BYTES).toString("latin1").split(SEGMENT_BREAK);
  const msh = lines.map((line) => line.replace(/^\s+/, "")).find((line) => line.startsWith("MSH"));
  if (msh === undefined || declaredDelimiters(msh) === undefined) return EMPTY_HEADER;
  try {
    return headerOf(parseMessage(msh));
  } catch {
    return EMPTY_HEADER;
  }
}

/**
 * ERR-2 (ERL) of a location such as `PID-11.4`: segment id ^ sequence ^ field ^ repetition ^ component.
 * A location that names no field (`segment 3`) goes in ERR-8's text only.
 */
function errorLocation(location: string): string {
  const match = /^([A-Z][A-Z0-9]{2})(?:-(\d+)(?:\.(\d+))?)?$/.exec(location);
  if (match === null) return "";
  const [, segment, field, component] = match;
  return [segment, "1", field ?? "", field === undefined ? "" : "1", component ?? ""]
    .join("^")
    .replace(/\^+$/, "");
}

/** An HD (or other composite) value: its components escaped, joined with `^`, trailing empties dropped. */
const composite = (components: string[]) => components.map(escapeValue).join("^").replace(/\^+$/, "");

/** A timestamp (DTM) to the second. */
export const hl7Timestamp = (now: Date) => now.toISOString().replace(/[-:T]/g, "").slice(0, 14);

/** A new control id (ST, at most 20 characters in 2.5.1) for a message or batch of our own. */
export const newControlId = () => `A${randomBytes(9).toString("hex")}`;

/** Writes the acknowledgment of a message (sender and receiver swapped), with ERR for AE and AR. */
export function buildAck(header: AckHeader, content: AckContent, now = new Date()): string {
  const msh = [
    "MSH",
    "^~\\&",
    composite(header.receivingApplication),
    composite(header.receivingFacility),
    composite(header.sendingApplication),
    composite(header.sendingFacility),
    hl7Timestamp(now),
    "",
    ["ACK", escapeValue(header.triggerEvent), ACK_STRUCTURE].join("^"),
    newControlId(),
    escapeValue(header.processingId || "P"),
    escapeValue(header.version),
  ].join("|");
  const msa = ["MSA", content.code, escapeValue(header.controlId), escapeValue(content.text)].join("|");
  const segments = [msh, msa];
  if (content.error !== undefined) {
    const code = HL7_ERROR[content.error.code];
    segments.push(
      [
        "ERR",
        "",
        errorLocation(content.error.location),
        `${code.code}^${code.text}^HL70357`,
        "E",
        "",
        "",
        "",
        escapeValue(content.text),
      ].join("|"),
    );
  }
  return `${segments.join("\r")}\r`;
}
