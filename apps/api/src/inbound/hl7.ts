/**
 * Reading an inbound HL7 v2 message (HL7 v2.5.1 chapter 2: 2.5 message construction, 2.7 escape
 * sequences) with `@medplum/core`'s `Hl7Message`, which splits it with the delimiters its MSH-1 and
 * MSH-2 declare and keeps every repetition (PID-13 carries the telephone and the e-mail as repetitions).
 *
 * What `Hl7Message` leaves to its caller is done here: it checks neither the delimiters nor the
 * segment names, so a message is checked before it is split, and it returns values still escaped, so
 * each value read is unescaped here, exactly (`\X0D\` is a CR). What is stored of a value is made free
 * of control characters by its reader (`withoutControls`, see adt.ts); the ACK escapes them.
 */
import { Hl7Message, type Hl7Context, type Hl7Field } from "@medplum/core";
import type { Hl7ErrorCode } from "./codes.js";

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

/** The segments of a text: CR as the standard says, LF and CR LF as some senders write them. */
export const SEGMENT_BREAK = /\r\n|\r|\n/;

/** The five delimiters a header segment (MSH, BHS, FHS) declares in its first eight characters. */
export function declaredDelimiters(segment: string): string[] | undefined {
  const chars = [...segment.slice(3, 8)];
  if (
    chars.length !== 5 ||
    chars.some((c) => /[A-Za-z0-9\r\n ]/.test(c)) ||
    new Set(chars).size !== chars.length
  ) {
    return undefined;
  }
  return chars;
}

const SEGMENT_NAME = /^[A-Z][A-Z0-9]{2}$/;

/** Reads one message; throws Hl7ReadError when MSH or a segment is broken. */
export function parseMessage(text: string): Hl7Message {
  if (!text.startsWith("MSH"))
    throw new Hl7ReadError("The message does not begin with MSH.", "MSH", "segmentSequence");
  const delimiters = declaredDelimiters(text);
  if (delimiters === undefined) {
    throw new Hl7ReadError("MSH-1 and MSH-2 do not declare five distinct delimiters.", "MSH-2", "dataType");
  }
  const field = delimiters[0]!;
  const lines = text.split(SEGMENT_BREAK).filter((line) => line !== "");
  lines.forEach((line, index) => {
    if (!SEGMENT_NAME.test(line.slice(0, 3)) || (line.length > 3 && line[3] !== field)) {
      throw new Hl7ReadError(
        `Segment ${index + 1} is not an HL7 segment.`,
        `segment ${index + 1}`,
        "segmentSequence",
      );
    }
  });
  return Hl7Message.parse(lines.join("\r"));
}

/** A field of the first segment of this name (MSH counted as the standard counts it); undefined if absent. */
function fieldOf(message: Hl7Message, segment: string, field: number): Hl7Field | undefined {
  return message.getSegment(segment)?.getField(field);
}

/** The raw (still escaped) text of a field; "" when absent. */
export function rawField(message: Hl7Message, segment: string, field: number): string {
  return fieldOf(message, segment, field)?.toString() ?? "";
}

/**
 * A field's repetitions, each as its components, each unescaped (its first subcomponent); [] when the
 * field is absent or empty.
 */
export function repetitions(message: Hl7Message, segment: string, field: number): string[][] {
  const found = fieldOf(message, segment, field);
  if (found === undefined || found.toString() === "") return [];
  const { context } = message;
  return found.components.map((rep) =>
    rep.map((component) => unescape(context, component.split(context.subcomponentSeparator)[0] ?? "")),
  );
}

/** The value of a simple field (its first component of its first repetition), unescaped. */
export function fieldValue(message: Hl7Message, segment: string, field: number): string {
  return repetitions(message, segment, field)[0]?.[0] ?? "";
}

/** C0 and C1 control characters and DEL, and the Unicode line and paragraph separators. */
// eslint-disable-next-line no-control-regex -- the control characters are what is replaced
const CONTROL_RUN = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g;

/** A value with each run of control characters made one space. */
export function withoutControls(text: string): string {
  return text.replace(CONTROL_RUN, " ");
}

const regexEscape = (c: string) => c.replace(/[.*+?^${}()|[\]\\-]/g, "\\$&");

/** The bytes of a `\Xhh..\` escape read in UTF-8, or Latin-1 when they are not UTF-8. */
function hexText(hex: string): string {
  const bytes = Buffer.from(hex, "hex");
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    return bytes.toString("latin1");
  }
}

/**
 * Undoes the escape sequences of HL7 v2.5.1 2.7 (`\F\ \S\ \T\ \R\ \E\`, `\Xhh\`, `\.br\` a line
 * break); highlighting (`\H\ \N\`), character set changes (`\C..\ \M..\`), other formatting commands
 * and unknown sequences are dropped.
 */
export function unescape(context: Hl7Context, text: string): string {
  const e = context.escapeCharacter;
  if (!text.includes(e)) return text;
  const pattern = new RegExp(`${regexEscape(e)}([^${regexEscape(e)}]*)${regexEscape(e)}`, "g");
  return text.replace(pattern, (_, code: string) => {
    switch (code) {
      case "F":
        return context.fieldSeparator;
      case "S":
        return context.componentSeparator;
      case "T":
        return context.subcomponentSeparator;
      case "R":
        return context.repetitionSeparator;
      case "E":
        return context.escapeCharacter;
      case ".br":
      case ".sp":
        return "\n";
      default:
        if (/^X([0-9A-Fa-f]{2})+$/.test(code)) return hexText(code.slice(1));
        return "";
    }
  });
}
