/**
 * Reading an inbound HL7 v2 message (HL7 v2.5.1 chapter 2: 2.5 message construction, 2.7 escape
 * sequences) and writing its acknowledgment (2.9.2 original mode, segments MSA and ERR).
 *
 * The message is split with the delimiters its own MSH-1 and MSH-2 declare, every repetition kept
 * (PID-13 carries the telephone and the e-mail as repetitions). hl7-standard's `get` answers only a
 * field's first repetition and leaves escape sequences in, so it serves the outbound messages only.
 */
import { randomBytes } from "node:crypto";
import { ACK_STRUCTURE, HL7_ERROR, type Hl7ErrorCode } from "./codes.js";

export interface Delimiters {
  field: string;
  component: string;
  repetition: string;
  escape: string;
  subcomponent: string;
}

/** A message that cannot be read, with where (`MSH-2`, `segment 3`) and HL7 table 0357's code. */
export class Hl7ReadError extends Error {
  constructor(
    message: string,
    readonly location: string,
    readonly code: Hl7ErrorCode,
  ) {
    super(message);
    this.name = "Hl7ReadError";
  }
}

/** The HL7 null (`""`): the sender says the value is to be removed (2.5.3). */
export const HL7_NULL = '""';

export class Hl7Message {
  private constructor(
    readonly delimiters: Delimiters,
    private readonly segments: readonly string[][],
  ) {}

  /** Splits a message into segments and fields; throws Hl7ReadError when MSH or a segment is broken. */
  static parse(text: string): Hl7Message {
    if (!text.startsWith("MSH"))
      throw new Hl7ReadError("The message does not begin with MSH.", "MSH", "segmentSequence");
    const encoding = text.slice(3, 8);
    const [field, component, repetition, escape, subcomponent] = [...encoding];
    const chars = [field, component, repetition, escape, subcomponent];
    if (
      chars.some((c) => c === undefined || /[A-Za-z0-9\r\n ]/.test(c)) ||
      new Set(chars).size !== chars.length
    ) {
      throw new Hl7ReadError("MSH-1 and MSH-2 do not declare five distinct delimiters.", "MSH-2", "dataType");
    }
    const delimiters = { field, component, repetition, escape, subcomponent } as Delimiters;
    const segments = text
      .split(/\r\n|\r|\n/)
      .filter((s) => s !== "")
      .map((s, index) => {
        if (!/^[A-Z][A-Z0-9]{2}$/.test(s.slice(0, 3)) || (s.length > 3 && s[3] !== delimiters.field)) {
          throw new Hl7ReadError(
            `Segment ${index + 1} is not an HL7 segment.`,
            `segment ${index + 1}`,
            "segmentSequence",
          );
        }
        return s.split(delimiters.field);
      });
    return new Hl7Message(delimiters, segments);
  }

  /** The first segment of this name, as its fields (index n is field n; MSH is shifted to match). */
  segment(name: string): string[] | undefined {
    const found = this.segments.find((s) => s[0] === name);
    if (found === undefined || name !== "MSH") return found;
    // MSH-1 is the field separator itself, so MSH's n-th field is the (n-1)-th piece of the split.
    return ["MSH", this.delimiters.field, ...found.slice(1)];
  }

  /** The raw (still escaped) text of a field; "" when absent. */
  raw(segment: string, field: number): string {
    return this.segment(segment)?.[field] ?? "";
  }

  /** A field's repetitions, each as its components, each unescaped (its first subcomponent). */
  repetitions(segment: string, field: number): string[][] {
    const raw = this.raw(segment, field);
    if (raw === "") return [];
    return raw.split(this.delimiters.repetition).map((rep) => this.components(rep));
  }

  /** The components of one repetition, unescaped; a component's subcomponents past the first are dropped. */
  components(repetition: string): string[] {
    return repetition
      .split(this.delimiters.component)
      .map((c) => this.unescape(c.split(this.delimiters.subcomponent)[0] ?? ""));
  }

  /** The value of a simple field (its first component of its first repetition), unescaped. */
  value(segment: string, field: number): string {
    return this.repetitions(segment, field)[0]?.[0] ?? "";
  }

  /** Undoes the escape sequences of HL7 v2.5.1 2.7 (\F\ \S\ \T\ \R\ \E\, \.br\, \Xhh\). */
  unescape(text: string): string {
    const e = this.delimiters.escape;
    if (!text.includes(e)) return text;
    const escapedE = e.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    const pattern = new RegExp(`${escapedE}([^${escapedE}]*)${escapedE}`, "g");
    return text.replace(pattern, (_, code: string) => {
      switch (code) {
        case "F":
          return this.delimiters.field;
        case "S":
          return this.delimiters.component;
        case "T":
          return this.delimiters.subcomponent;
        case "R":
          return this.delimiters.repetition;
        case "E":
          return this.delimiters.escape;
        case ".br":
          return "\n";
        default:
          if (/^X([0-9A-Fa-f]{2})+$/.test(code)) return Buffer.from(code.slice(1), "hex").toString("latin1");
          return "";
      }
    });
  }
}

/** The standard delimiters `|^~\&` every acknowledgment is written with. */
const STANDARD: Delimiters = { field: "|", component: "^", repetition: "~", escape: "\\", subcomponent: "&" };

/** Escapes a value for a field of the acknowledgment (2.7); line breaks become spaces. */
export function escapeValue(value: string): string {
  return value
    .replace(/\\/g, "\\E\\")
    .replace(/\|/g, "\\F\\")
    .replace(/\^/g, "\\S\\")
    .replace(/~/g, "\\R\\")
    .replace(/&/g, "\\T\\")
    .replace(/[\r\n]+/g, " ");
}

/** The MSH fields an acknowledgment echoes, as they were read (already unescaped components). */
export interface AckHeader {
  sendingApplication: string[];
  sendingFacility: string[];
  receivingApplication: string[];
  receivingFacility: string[];
  triggerEvent: string;
  controlId: string;
  processingId: string;
  version: string;
}

/** What an acknowledgment says: MSA-1, MSA-3, and for AE/AR the field at fault (ERR-2) and its code. */
export interface AckContent {
  code: "AA" | "AE" | "AR";
  text: string;
  error?: { location: string; code: Hl7ErrorCode } | undefined;
}

/** The header of a message that could not be read: nothing to echo but what was found. */
export const EMPTY_HEADER: AckHeader = {
  sendingApplication: [],
  sendingFacility: [],
  receivingApplication: [],
  receivingFacility: [],
  triggerEvent: "",
  controlId: "",
  processingId: "P",
  version: "2.5.1",
};

export function headerOf(message: Hl7Message): AckHeader {
  const hd = (field: number) => message.repetitions("MSH", field)[0] ?? [];
  return {
    sendingApplication: hd(3),
    sendingFacility: hd(4),
    receivingApplication: hd(5),
    receivingFacility: hd(6),
    triggerEvent: message.repetitions("MSH", 9)[0]?.[1] ?? "",
    controlId: message.value("MSH", 10),
    processingId: message.value("MSH", 11) || "P",
    version: message.value("MSH", 12) || "2.5.1",
  };
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

/** Writes the acknowledgment of a message (sender and receiver swapped), with ERR for AE and AR. */
export function buildAck(header: AckHeader, content: AckContent, now = new Date()): string {
  const hd = (components: string[]) => components.map(escapeValue).join("^").replace(/\^+$/, "");
  const stamp = now.toISOString().replace(/[-:T]/g, "").slice(0, 14);
  // MSH-10 of the ACK is its own id (ST, at most 20 characters in 2.5.1).
  const ackId = `A${randomBytes(9).toString("hex")}`;
  const msh = [
    "MSH",
    "^~\\&",
    hd(header.receivingApplication),
    hd(header.receivingFacility),
    hd(header.sendingApplication),
    hd(header.sendingFacility),
    stamp,
    "",
    ["ACK", escapeValue(header.triggerEvent), ACK_STRUCTURE].join(STANDARD.component),
    ackId,
    escapeValue(header.processingId),
    escapeValue(header.version),
  ].join(STANDARD.field);
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
