import { randomBytes, scrypt as scryptCallback, timingSafeEqual, type ScryptOptions } from "node:crypto";
import { readFileSync } from "node:fs";
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from "@core-care/schema";

/** scrypt cost parameters of new hashes (N = 2^15, r = 8, p = 1: 32 MiB, OWASP's scrypt guidance). */
const COST = { N: 2 ** 15, r: 8, p: 1 };
const KEY_LENGTH = 32;

function scrypt(password: string, salt: Buffer, options: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scryptCallback(password.normalize("NFKC"), salt, KEY_LENGTH, options, (err, key) =>
      err === null ? resolve(key) : reject(err),
    );
  });
}

const maxmem = (o: { N: number; r: number }) => 256 * o.N * o.r;

/** Hashes a password with scrypt and a fresh 16-byte salt: `scrypt$N$r$p$salt$hash` (base64url). */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await scrypt(password, salt, { ...COST, maxmem: maxmem(COST) });
  return ["scrypt", COST.N, COST.r, COST.p, salt.toString("base64url"), key.toString("base64url")].join("$");
}

/** Checks a password against a stored hash in constant time; false for a malformed hash. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, hash] = stored.split("$");
  if (scheme !== "scrypt" || n === undefined || r === undefined || p === undefined) return false;
  if (salt === undefined || hash === undefined) return false;
  const options = { N: Number(n), r: Number(r), p: Number(p) };
  const expected = Buffer.from(hash, "base64url");
  if (expected.length !== KEY_LENGTH) return false;
  const key = await scrypt(password, Buffer.from(salt, "base64url"), { ...options, maxmem: maxmem(options) });
  return timingSafeEqual(key, expected);
}

let dummyHash: Promise<string> | undefined;

/** Spends the same time as a real check, so an unknown e-mail answers as slowly as a wrong password. */
export async function verifyAgainstDummy(password: string): Promise<false> {
  dummyHash ??= hashPassword(randomBytes(16).toString("hex"));
  await verifyPassword(password, await dummyHash);
  return false;
}

let commonPasswords: Set<string> | undefined;

function loadCommonPasswords(): Set<string> {
  const text = readFileSync(new URL("./common-passwords.txt", import.meta.url), "utf8");
  return new Set(
    text
      .split("\n")
      .map((line) => line.trim().toLowerCase())
      .filter((line) => line !== "" && !line.startsWith("#")),
  );
}

/** True when the password is, or is a repetition or simple suffix variant of, a listed common password. */
export function isCommonPassword(password: string): boolean {
  commonPasswords ??= loadCommonPasswords();
  const lower = password.toLowerCase();
  if (commonPasswords.has(lower)) return true;
  const stripped = lower.replace(/[\d!@#$%^&*?.\s]+$/, "");
  if (stripped !== lower && commonPasswords.has(stripped)) return true;
  for (let size = 1; size <= lower.length / 2; size++) {
    if (lower.length % size !== 0) continue;
    const unit = lower.slice(0, size);
    if (unit.repeat(lower.length / size) === lower && (size <= 3 || commonPasswords.has(unit))) return true;
  }
  return false;
}

/** The product's own names: a password built on them is among the first an attacker tries. */
export const PRODUCT_WORDS = ["core care", "corecare"];

const letters = (text: string) => text.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, "");

/** What is left of a password once every context word (letters and digits only) is taken out of it. */
function withoutWords(password: string, words: readonly string[]): string {
  let rest = letters(password);
  const normalized = words.map(letters).filter((word) => word.length >= 4);
  for (const word of normalized.sort((a, b) => b.length - a.length)) rest = rest.split(word).join("");
  return rest;
}

/** Below this many letters and digits besides the product's and the practice's names, a password is refused. */
const MIN_OWN_CHARACTERS = 10;

/**
 * The reason a new password is refused (NIST SP 800-63B 3.1.1.2: at least 15 characters, any characters,
 * not a known common or compromised value, not built on context-specific words such as the service's
 * name, the user's e-mail or the practice's name), or undefined when it is acceptable. `words` adds the
 * names of the user's practices to the product's own.
 */
export function passwordProblem(
  password: string,
  context: { email?: string; words?: readonly string[] } = {},
): string | undefined {
  if ([...password].length < PASSWORD_MIN_LENGTH)
    return `Must be at least ${PASSWORD_MIN_LENGTH} characters.`;
  if (password.length > PASSWORD_MAX_LENGTH) return `Must be at most ${PASSWORD_MAX_LENGTH} characters.`;
  if (isCommonPassword(password)) return "This password is too common. Please choose another.";
  const local = context.email?.split("@")[0]?.toLowerCase();
  if (local !== undefined && local.length >= 3 && password.toLowerCase().includes(local)) {
    return "The password must not contain your e-mail name.";
  }
  const rest = withoutWords(password, [...PRODUCT_WORDS, ...(context.words ?? [])]);
  if (rest !== letters(password) && (rest.length < MIN_OWN_CHARACTERS || isCommonPassword(rest))) {
    return "The password must not be built on the name of Core Care or of your practice.";
  }
  return undefined;
}
