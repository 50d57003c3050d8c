import { readFileSync } from "node:fs";
import { describe, expect, test } from "vitest";
import { hashPassword, isCommonPassword, passwordProblem, verifyPassword } from "./passwords.js";

describe("hashPassword", () => {
  test("makes a salted scrypt hash that verifies only the same password", async () => {
    const a = await hashPassword("a perfectly fine passphrase");
    const b = await hashPassword("a perfectly fine passphrase");
    expect(a).toMatch(/^scrypt\$32768\$8\$1\$[\w-]{22}\$[\w-]{43}$/);
    expect(a).not.toBe(b);
    expect(await verifyPassword("a perfectly fine passphrase", a)).toBe(true);
    expect(await verifyPassword("a perfectly fine passphrasE", a)).toBe(false);
  });

  test("never truncates: a long password differs from its prefix", async () => {
    const long = "p".repeat(200) + "tail";
    const hash = await hashPassword(long);
    expect(await verifyPassword("p".repeat(200), hash)).toBe(false);
    expect(await verifyPassword(long, hash)).toBe(true);
  });

  test("rejects a malformed stored hash", async () => {
    expect(await verifyPassword("x", "plain-text")).toBe(false);
    expect(await verifyPassword("x", "scrypt$1$1$1$$")).toBe(false);
  });
});

describe("common password list", () => {
  test("ships a few thousand entries", () => {
    const lines = readFileSync(new URL("./common-passwords.txt", import.meta.url), "utf8")
      .split("\n")
      .filter((l) => l !== "" && !l.startsWith("#"));
    expect(lines.length).toBeGreaterThan(3000);
  });

  test.each([
    "passwordpassword",
    "PasswordPassword",
    "qwertyuiopasdfgh",
    "iloveyou12345678",
    "monkeymonkeymonkey",
    "zzzzzzzzzzzzzzzz",
    "abcabcabcabcabcabc",
  ])("knows %s", (pw) => {
    expect(isCommonPassword(pw)).toBe(true);
  });

  test("lets an unusual passphrase through", () => {
    expect(isCommonPassword("ochre tandem lighthouse 58")).toBe(false);
  });
});

describe("passwordProblem", () => {
  test.each([
    ["fourteen chars", "Must be at least 15 characters."],
    ["passwordpassword1", "This password is too common. Please choose another."],
    ["ochre tandem lighthouse 58", undefined],
    ["🔑🔑🔑 ünïcödé pässwörd", undefined],
  ])("answers %j with %j", (pw, problem) => {
    expect(passwordProblem(pw)).toBe(problem);
  });

  test("refuses a password holding the e-mail's name", () => {
    expect(passwordProblem("jane.doe is my secret", { email: "jane.doe@example.test" })).toBe(
      "The password must not contain your e-mail name.",
    );
  });
});
