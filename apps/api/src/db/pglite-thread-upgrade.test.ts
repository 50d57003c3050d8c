import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { describe, expect, test } from "vitest";
import { serialize } from "pg-protocol";
import { Parser } from "pg-protocol/dist/parser.js";

// Upgrade test of docs/decisions/012-pglite-wire-parser.md: db/pglite-thread.ts parses the PGlite
// thread's answers with pg-protocol's Parser, which the package's index does not export (it is reached
// at `pg-protocol/dist/parser.js`). A release that moves it, closes the subpath or renames the messages
// the session reads fails here, naming the record.
const RECORD =
  "pg-protocol changed what db/pglite-thread.ts relies on: see docs/decisions/012-pglite-wire-parser.md";

/** A backend message: its type byte, its length (itself included) and its body. */
function message(type: string, body: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeInt32BE(body.length + 4);
  return Buffer.concat([Buffer.from(type), length, body]);
}
const cstring = (text: string) => Buffer.from(`${text}\0`);

describe("pg-protocol's Parser as db/pglite-thread.ts uses it", () => {
  test("the package still exports its dist/ subpath, and pg's own copy is the one the thread imports", () => {
    const require = createRequire(import.meta.url);
    const manifest = JSON.parse(
      readFileSync(join(dirname(dirname(require.resolve("pg-protocol"))), "package.json"), "utf8"),
    ) as { exports?: Record<string, unknown> };
    expect(Object.keys(manifest.exports ?? {}), RECORD).toContain("./dist/*");
    const pgOwn = createRequire(require.resolve("pg")).resolve("pg-protocol");
    expect(pgOwn, `${RECORD} (pg resolves another pg-protocol than the API)`).toBe(
      require.resolve("pg-protocol"),
    );
  });

  test("parses one answer's messages in order: a notification's channel and payload, ReadyForQuery's status", () => {
    const pid = Buffer.alloc(4);
    pid.writeInt32BE(42);
    const answer = Buffer.concat([
      message("A", Buffer.concat([pid, cstring("core_care_lists"), cstring("t1")])),
      message("Z", Buffer.from("T")),
    ]);
    const seen: unknown[] = [];
    new Parser().parse(answer, (parsed) => seen.push({ ...parsed }));
    expect(seen, RECORD).toMatchObject([
      { name: "notification", channel: "core_care_lists", payload: "t1" },
      { name: "readyForQuery", status: "T" },
    ]);
  });

  test("serialize.query writes the simple query the session's reset sends", () => {
    const bytes = Buffer.from(serialize.query("ROLLBACK"));
    expect(bytes.subarray(0, 1).toString(), RECORD).toBe("Q");
    expect(bytes.subarray(5).toString(), RECORD).toBe("ROLLBACK\0");
  });
});
