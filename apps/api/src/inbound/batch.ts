/**
 * HL7 v2 batches (HL7 v2.5.1 2.10.3): a frame that begins with FHS or BHS carries a file of batches,
 * each of messages (`FHS BHS MSH.. MSH.. BTS BHS .. BTS FTS`). Each message is taken on its own, as if
 * it had come alone, and the answer is a batch of their acknowledgments, one each, in the same order
 * (2.10.3's "all messages are acknowledged in the response batch"): BHS-12 and FHS-12 name the batch
 * and file answered, BTS-1 and FTS-1 count what the answer holds.
 */
import { Hl7Context, Hl7Segment } from "@medplum/core";
import { escapeValue, hl7Timestamp, newControlId } from "./ack.js";
import { declaredDelimiters, unescape } from "./hl7.js";

export interface Batch {
  /** The BHS segment as sent (absent for messages that follow the FHS with no BHS of their own). */
  header: string | undefined;
  /** Each message's bytes, from its MSH to the segment before the next MSH, BHS, BTS or FTS. */
  messages: Buffer[];
}

export interface BatchFile {
  /** The FHS segment as sent, when the frame begins with one. */
  header: string | undefined;
  batches: Batch[];
}

const HEADER_SEGMENTS = new Set(["FHS", "BHS", "BTS", "FTS"]);

/**
 * The batches of a frame that begins with FHS or BHS; undefined for a frame of one message. The
 * frame is split on its bytes (segment breaks and segment names are ASCII in every character set
 * taken), so that each message is read in the character set its own MSH-18 names.
 */
export function readBatchFile(bytes: Buffer): BatchFile | undefined {
  const text = bytes.toString("latin1");
  const first = text.replace(/^\s+/, "").slice(0, 3);
  if (first !== "FHS" && first !== "BHS") return undefined;

  const file: BatchFile = { header: undefined, batches: [] };
  let batch: Batch | undefined;
  let messageStart = -1;
  const closeMessage = (end: number) => {
    if (messageStart === -1) return;
    if (batch === undefined) {
      batch = { header: undefined, messages: [] };
      file.batches.push(batch);
    }
    batch.messages.push(bytes.subarray(messageStart, end));
    messageStart = -1;
  };

  const breaks = /\r\n|\r|\n/g;
  let lineStart = 0;
  while (lineStart < text.length) {
    const found = breaks.exec(text);
    const lineEnd = found === null ? text.length : found.index;
    const next = found === null ? text.length : found.index + found[0].length;
    const line = text.slice(lineStart, lineEnd).replace(/^\s+/, "");
    const name = line.slice(0, 3);
    if (name === "MSH") {
      closeMessage(lineStart);
      messageStart = lineStart;
    } else if (HEADER_SEGMENTS.has(name)) {
      closeMessage(lineStart);
      if (name === "FHS" && file.header === undefined && file.batches.length === 0) file.header = line;
      if (name === "BHS") {
        batch = { header: line, messages: [] };
        file.batches.push(batch);
      }
      if (name === "BTS") batch = undefined;
    }
    // Any other segment belongs to the message it follows; one outside a message is not read.
    lineStart = next;
  }
  closeMessage(text.length);
  return file;
}

/** The fields of a batch or file header (FHS, BHS) as HD components, read with its own delimiters. */
function headerFields(segment: string | undefined): (field: number) => string[] {
  const delimiters = segment === undefined ? undefined : declaredDelimiters(segment);
  if (segment === undefined || delimiters === undefined) return () => [];
  const [field, component, repetition, escape, subcomponent] = delimiters as [
    string,
    string,
    string,
    string,
    string,
  ];
  const context = new Hl7Context("\r", field, component, repetition, escape, subcomponent);
  const parsed = Hl7Segment.parse(segment, context);
  // As in MSH, field 1 is the separator itself: field n (n >= 2) is the (n-1)-th piece of the split.
  return (n) =>
    (parsed.fields[n - 1]?.components[0] ?? []).map((c) => unescape(context, c.split(subcomponent)[0] ?? ""));
}

/** The header answering a file's FHS or a batch's BHS: sender and receiver swapped, -12 naming it. */
function answerHeader(name: "FHS" | "BHS", sent: string | undefined, now: Date): string {
  const field = headerFields(sent);
  const hd = (n: number) => field(n).map(escapeValue).join("^").replace(/\^+$/, "");
  return [
    name,
    "^~\\&",
    hd(5),
    hd(6),
    hd(3),
    hd(4),
    hl7Timestamp(now),
    "",
    "",
    "",
    newControlId(),
    escapeValue(field(11)[0] ?? ""),
  ].join("|");
}

/**
 * The answer to a batch file: the same files and batches, each message's acknowledgment in its place
 * (`acks[b][m]` answers message m of batch b, each ending with its segment break).
 */
export function batchAnswer(file: BatchFile, acks: string[][], now = new Date()): string {
  const segments: string[] = [];
  if (file.header !== undefined) segments.push(answerHeader("FHS", file.header, now));
  file.batches.forEach((batch, index) => {
    const answers = acks[index] ?? [];
    segments.push(answerHeader("BHS", batch.header, now));
    for (const ack of answers) segments.push(ack.replace(/\r$/, ""));
    segments.push(`BTS|${answers.length}`);
  });
  if (file.header !== undefined) segments.push(`FTS|${file.batches.length}`);
  return `${segments.join("\r")}\r`;
}
