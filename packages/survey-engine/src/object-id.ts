/** Sources of time and randomness for id generation; every field is optional. */
export interface IdGeneratorOptions {
  /** Current time in milliseconds since the epoch; defaults to `Date.now`. */
  now?: () => number;
  /** A number in [0, 1); defaults to `crypto.getRandomValues` when present, else `Math.random`. */
  random?: () => number;
  /** 3-byte machine id (0 to 0xffffff); random by default. */
  machineId?: number;
  /** 2-byte process id (0 to 0xffff); random by default. */
  processId?: number;
  /** First counter value (0 to 0xffffff); a random value below 0x800000 by default. */
  counterStart?: number;
}

/** Makes ObjectId-style ids. */
export interface IdGenerator {
  /**
   * A new id. Without `at`, ids are strictly increasing as strings: the seconds never go backwards and,
   * when the 3-byte counter runs out within one second, the next second is borrowed. With `at`, the id
   * carries exactly that second (for ids of records created earlier).
   */
  objectId(at?: Date): string;
}

const OBJECT_ID = /^[0-9a-f]{24}$/;
const COUNTER_LIMIT = 0x1000000;

function defaultRandom(): () => number {
  const cryptoApi = (globalThis as { crypto?: { getRandomValues?: (array: Uint32Array) => Uint32Array } })
    .crypto;
  if (typeof cryptoApi?.getRandomValues === "function") {
    const getRandomValues = cryptoApi.getRandomValues.bind(cryptoApi);
    return () => (getRandomValues(new Uint32Array(1))[0] as number) / 0x100000000;
  }
  return Math.random;
}

function hex(value: number, width: number): string {
  return value.toString(16).padStart(width, "0");
}

/** Creates an id generator with its own machine id, process id and counter. */
export function createIdGenerator(options: IdGeneratorOptions = {}): IdGenerator {
  const now = options.now ?? Date.now;
  const random = options.random ?? defaultRandom();
  const machine = hex((options.machineId ?? Math.floor(random() * 0x1000000)) & 0xffffff, 6);
  const processPart = hex((options.processId ?? Math.floor(random() * 0x10000)) & 0xffff, 4);
  const middle = machine + processPart;
  let counter = (options.counterStart ?? Math.floor(random() * 0x800000)) & 0xffffff;
  let lastSeconds = -1;

  return {
    objectId(at?: Date): string {
      if (at !== undefined) {
        counter = (counter + 1) % COUNTER_LIMIT;
        return hex(Math.floor(at.getTime() / 1000) >>> 0, 8) + middle + hex(counter, 6);
      }
      const seconds = Math.floor(now() / 1000);
      if (seconds > lastSeconds) {
        lastSeconds = seconds;
        counter = (counter + 1) % COUNTER_LIMIT;
      } else if (counter + 1 >= COUNTER_LIMIT) {
        lastSeconds += 1;
        counter = 0;
      } else {
        counter += 1;
      }
      return hex(lastSeconds >>> 0, 8) + middle + hex(counter, 6);
    },
  };
}

let defaultGenerator: IdGenerator | undefined;

/** A new 24-hex id from the process-wide default generator (see `createIdGenerator`). */
export function objectId(now?: Date): string {
  defaultGenerator ??= createIdGenerator();
  return defaultGenerator.objectId(now);
}

/** True when `value` is 24 lowercase hex characters. */
export function isObjectId(value: unknown): value is string {
  return typeof value === "string" && OBJECT_ID.test(value);
}

/** The creation second stored in an id's first four bytes. */
export function objectIdTimestamp(id: string): Date {
  return new Date(parseInt(id.slice(0, 8), 16) * 1000);
}

/** Alias of `objectIdTimestamp`. */
export const objectIdTime = objectIdTimestamp;
