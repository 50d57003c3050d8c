import { describe, expect, test } from "vitest";
import { csvRecords, ndjsonRecords, parseCsv } from "./parse.js";

async function all<T>(rows: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const row of rows) out.push(row);
  return out;
}

/** The bytes of a text cut into pieces of `size` bytes, as a network stream may bring them. */
function bytesIn(text: string, size: number): Buffer[] {
  const bytes = Buffer.from(text, "utf8");
  const pieces: Buffer[] = [];
  for (let at = 0; at < bytes.length; at += size) pieces.push(bytes.subarray(at, at + size));
  return pieces;
}

const CSV = '\uFEFFexternalId,notes\r\nx-1,"walks, ""slowly""\r\nat night"\r\nx-2,José Núñez 李\r\n\r\n';
const EXPECTED = [
  ["externalId", "notes"],
  ["x-1", 'walks, "slowly"\r\nat night'],
  ["x-2", "José Núñez 李"],
];

describe("csvRecords", () => {
  test.each([1, 2, 3, 5, 7, 64])(
    "reads quoted line breaks, quotes, a BOM, CR LF and UTF-8 cut anywhere (pieces of %i bytes)",
    async (size) => {
      expect(await all(csvRecords(bytesIn(CSV, size)))).toEqual(EXPECTED);
    },
  );

  test("takes LF, CR LF and CR line breaks in one file, and leaves blank rows out", async () => {
    expect(await all(csvRecords(["a,b\nc,d\r\ne,f\r , \ng,h"]))).toEqual([
      ["a", "b"],
      ["c", "d"],
      ["e", "f"],
      ["g", "h"],
    ]);
  });

  test("keeps a stray quote as text", async () => {
    expect(await all(csvRecords(['a,b"c\n"d"e,f\n']))).toEqual([
      ["a", 'b"c'],
      ['"d"e', "f"],
    ]);
  });

  test("refuses an unterminated quote, a row over 1 MiB and a row of more than 1,000 cells, naming content", async () => {
    const refusal = async (text: string) => {
      try {
        await all(csvRecords([text]));
      } catch (error) {
        return { message: (error as Error).message };
      }
      return undefined;
    };
    expect((await refusal('a,"b\nc'))?.message).toContain("The CSV has an unterminated quoted field.");
    expect((await refusal(`a,${"x".repeat(1024 * 1024 + 1)}\n`))?.message).toContain(
      "A row of the CSV is longer than 1 MiB.",
    );
    expect((await refusal(`${",".repeat(1000)}x\n`))?.message).toContain(
      "A row of the CSV has more than 1,000 cells.",
    );
  });

  test("parseCsv reads a whole text the same way", () => {
    expect(parseCsv(CSV)).toEqual(EXPECTED);
  });
});

describe("ndjsonRecords", () => {
  test("reads one object a line across pieces, and names a line past the shape limits", async () => {
    const deep = `${"[".repeat(70)}${"]".repeat(70)}`;
    const text = `{"a":"é"}\n\n{"b":2}\n${deep}\nnot json\n`;
    const records = await all(ndjsonRecords(bytesIn(text, 3)));
    expect(records.slice(0, 2)).toEqual([{ value: { a: "é" } }, { value: { b: 2 } }]);
    expect(records[2]?.fault).toMatch(/nest deeper/);
    expect(records[3]).toEqual({ value: null });
  });
});
