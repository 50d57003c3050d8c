/**
 * The shape of JSON measured on its bytes before it is parsed: how deep it nests, how many keys and
 * elements it holds in all and in any one object or array. JSON.parse builds whatever it is given on the
 * request thread, and a body of 100,000 keys (1.5 MB, under the 2 MiB body limit) takes it about 60 ms;
 * one object of 10,000 keys takes 3 ms where 500 objects of 20 keys take 0.35 ms. So the bytes are
 * counted first, as they arrive, in one pass that allocates nothing, and refused at the first count past
 * a limit: before the rest of the body is read, and before anything is decoded, built or walked.
 */

/** The limits of one JSON value. */
export interface JsonShapeLimits {
  /** Levels of objects and arrays, the outermost counted as 1. */
  depth: number;
  /** Keys and elements of the whole value, at every level. */
  entries: number;
  /** Keys of one object, elements of one array. */
  width: number;
}

/**
 * A JSON request body's limits. No request of the portal comes near them (docs/api.md, "Conventions"):
 * a survey of 200 questions saved whole, with its Spanish texts, holds about 6,200 keys and elements, 9
 * levels deep, its longest list its questions; the Tele-AWV questionnaire's definition 2,824, 25 and 9;
 * its submit about 60, 18 and 3. A batch upload's rows are held to them one row at a time
 * (delivery/batch.ts).
 */
export const JSON_BODY_LIMITS: JsonShapeLimits = { depth: 64, entries: 20_000, width: 1_000 };

/** What {@link JsonShapeScanner.scan} answers for a value past its limits. */
export const TOO_DEEP = -1;
export const TOO_MANY_ENTRIES = -2;
export const TOO_WIDE = -3;

/** The message naming the limit a value went past, for a scan's negative answer. */
export function shapeMessage(fault: number, limits: JsonShapeLimits): string {
  const count = (n: number) => n.toLocaleString("en-US");
  if (fault === TOO_DEEP) return `Must not nest deeper than ${count(limits.depth)} levels.`;
  if (fault === TOO_MANY_ENTRIES)
    return `Must not hold more than ${count(limits.entries)} keys and elements in all.`;
  return `No object or array in it may hold more than ${count(limits.width)} keys or elements.`;
}

const isHighSurrogate = (code: number) => code >= 0xd800 && code <= 0xdbff;
const isLowSurrogate = (code: number) => code >= 0xdc00 && code <= 0xdfff;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/** Where a scan is: between tokens, in a string, after a backslash, in a \u escape, in a top-level scalar. */
const BETWEEN = 0;
const IN_STRING = 1;
const ESCAPED = 2;
const IN_HEX = 3;
const IN_SCALAR = 4;

const isSpace = (c: number) => c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;
const endsScalar = (c: number) => c === 0x2c || c === 0x5d || c === 0x7d || isSpace(c);

/** A hex digit's value, or -1. */
const hexDigit = (c: number) =>
  c >= 0x30 && c <= 0x39
    ? c - 0x30
    : c >= 0x61 && c <= 0x66
      ? c - 0x57
      : c >= 0x41 && c <= 0x46
        ? c - 0x37
        : -1;

/**
 * Counts the structure of one JSON value's UTF-8 bytes against its limits, a piece at a time as they
 * arrive (a piece may end anywhere: in a string, an escape, a number). Its one buffer (the width of each
 * open level) is made with it, so a scan allocates nothing; one scanner serves one value at a time.
 *
 * The same pass tells whether the value holds text PostgreSQL cannot store: U+0000 or a lone UTF-16
 * surrogate can only be written in JSON as a `\u` escape, since UTF-8 bytes decode to neither.
 */
export class JsonShapeScanner {
  /** Whether the value so far holds a string or key with `\u0000` or a lone surrogate escaped. */
  badText = false;
  /** The keys and elements counted so far. */
  entries = 0;
  /** Whether the value has ended (what follows it is not scanned). */
  ended = false;
  private readonly widths: Int32Array;
  private depth = 0;
  private mode = BETWEEN;
  /** A container just opened: the next token is its first entry, or its end. */
  private opened = false;
  private hexLeft = 0;
  private hexValue = 0;
  /** An escaped high surrogate was just read: the next unit must be an escaped low one. */
  private lowWanted = false;
  /** The string being read holds a backslash: it is read a byte at a time to its end. */
  private bytewise = false;

  constructor(readonly limits: JsonShapeLimits) {
    this.widths = new Int32Array(limits.depth + 2);
  }

  /** Ready for a new value. */
  reset(): this {
    this.badText = false;
    this.entries = 0;
    this.ended = false;
    this.depth = 0;
    this.mode = BETWEEN;
    this.opened = false;
    this.hexLeft = 0;
    this.hexValue = 0;
    this.lowWanted = false;
    this.bytewise = false;
    return this;
  }

  /**
   * Scans `bytes` from `from`: {@link TOO_DEEP}, {@link TOO_MANY_ENTRIES} or {@link TOO_WIDE} at the
   * first count past a limit, else where the scan stopped: just after the value's end when it ended in
   * these bytes (`ended`), else their length. Bytes that are not JSON are counted as far as they read
   * like JSON; JSON.parse refuses the rest.
   */
  push(bytes: Buffer, from = 0): number {
    if (this.ended) return from;
    const { depth: maxDepth, entries: maxEntries, width: maxWidth } = this.limits;
    const widths = this.widths;
    const n = bytes.length;
    let { depth, entries, mode, opened, lowWanted, bytewise, badText, hexLeft, hexValue } = this;
    let ended = false;
    /** The next backslash at or after the scan's position in these bytes, -1 when there is none. */
    let backslash = -2;
    let i = from;
    while (i < n) {
      if (mode === IN_STRING && !bytewise) {
        // Only a backslash can make a quote part of a string, or its text bad, and most strings hold
        // none: such a string is one search for its quote (the next backslash is searched for once until
        // the scan passes it); one that holds a backslash is read a byte at a time from there.
        const quote = bytes.indexOf(QUOTE, i);
        if (backslash !== -1 && backslash < i) backslash = bytes.indexOf(BACKSLASH, i);
        if (backslash !== -1 && (quote === -1 || backslash < quote)) {
          i = backslash;
          bytewise = true;
          continue;
        }
        if (quote === -1) {
          i = n;
          break;
        }
        i = quote + 1;
        mode = BETWEEN;
        if (depth === 0) {
          ended = true;
          break;
        }
        continue;
      }
      if (mode === IN_STRING && !lowWanted) {
        while (i < n && bytes[i] !== QUOTE && bytes[i] !== BACKSLASH) i++;
        if (i === n) break;
      }
      const c = bytes[i++]!;
      if (mode === IN_STRING) {
        if (c === BACKSLASH) mode = ESCAPED;
        else {
          if (lowWanted) {
            // An escaped high surrogate not followed by an escaped low one.
            badText = true;
            lowWanted = false;
          }
          if (c === QUOTE) {
            mode = BETWEEN;
            bytewise = false;
            if (depth === 0) {
              ended = true;
              break;
            }
          }
        }
      } else if (mode === BETWEEN) {
        if (isSpace(c)) continue;
        if (opened) {
          opened = false;
          if (c !== 0x5d && c !== 0x7d) {
            widths[depth] = 1;
            if (++entries > maxEntries) return this.fault(TOO_MANY_ENTRIES);
          }
        }
        if (c === QUOTE) mode = IN_STRING;
        else if (c === 0x7b || c === 0x5b) {
          if (++depth > maxDepth) return this.fault(TOO_DEEP);
          widths[depth] = 0;
          opened = true;
        } else if (c === 0x7d || c === 0x5d) {
          if (--depth <= 0) {
            ended = true;
            break;
          }
        } else if (c === 0x2c && depth > 0) {
          if (++widths[depth]! > maxWidth) return this.fault(TOO_WIDE);
          if (++entries > maxEntries) return this.fault(TOO_MANY_ENTRIES);
        } else if (depth === 0) mode = IN_SCALAR;
      } else if (mode === ESCAPED) {
        if (c === 0x75) {
          mode = IN_HEX;
          hexLeft = 4;
          hexValue = 0;
        } else {
          mode = IN_STRING;
          if (lowWanted) {
            badText = true;
            lowWanted = false;
          }
        }
      } else if (mode === IN_HEX) {
        const digit = hexDigit(c);
        hexValue = hexValue * 16 + (digit < 0 ? 0 : digit);
        if (--hexLeft === 0 || digit < 0) {
          mode = IN_STRING;
          if (lowWanted) {
            lowWanted = false;
            if (!isLowSurrogate(hexValue)) badText = true;
          } else if (hexValue === 0 || isLowSurrogate(hexValue)) badText = true;
          else if (isHighSurrogate(hexValue)) lowWanted = true;
        }
      } else if (endsScalar(c)) {
        i--;
        ended = true;
        break;
      }
    }
    this.depth = depth;
    this.entries = entries;
    this.mode = mode;
    this.opened = opened;
    this.lowWanted = lowWanted;
    this.bytewise = bytewise;
    this.badText = badText;
    this.hexLeft = hexLeft;
    this.hexValue = hexValue;
    this.ended = ended;
    return i;
  }

  /** The value's bytes are all there: a scalar at the top ends with them. */
  end(): void {
    if (this.mode === IN_SCALAR) this.ended = true;
  }

  /**
   * Scans a whole value that starts at `from` (after any white space): its end, just after its last
   * byte (or the bytes' length when it does not end), or the fault.
   */
  scan(bytes: Buffer, from = 0): number {
    const at = this.reset().push(bytes, from);
    if (at >= 0) this.end();
    return at;
  }

  private fault(code: number): number {
    this.ended = true;
    return code;
  }
}

/**
 * Where the JSON value that starts at `from` (after any white space) ends, read as a scan reads it but
 * counting nothing and bounding nothing: to step over a value a scan refused.
 */
export function skipJsonValue(bytes: Buffer, from: number): number {
  const n = bytes.length;
  let depth = 0;
  let i = from;
  while (i < n) {
    const c = bytes[i++]!;
    if (c === QUOTE) {
      while (i < n) {
        const ch = bytes[i++]!;
        if (ch === QUOTE) break;
        if (ch === BACKSLASH) i++;
      }
      if (depth === 0) return i;
    } else if (c === 0x7b || c === 0x5b) depth++;
    else if (c === 0x7d || c === 0x5d) {
      if (--depth <= 0) return i;
    } else if (depth === 0 && !isSpace(c)) {
      while (i < n && !endsScalar(bytes[i]!)) i++;
      return i;
    }
  }
  return i;
}
