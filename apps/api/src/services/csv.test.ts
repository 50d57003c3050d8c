import { describe, expect, test } from "vitest";
import { csvCell, csvRow } from "./csv.js";

describe("csvCell", () => {
  test.each([
    ["=SUM(A1:A9)", "'=SUM(A1:A9)"],
    ["+1 555 0100", "'+1 555 0100"],
    ["-2+3", "'-2+3"],
    ["@cmd", "'@cmd"],
    ["\tindented", "'\tindented"],
    ["\rreturn", '"\'\rreturn"'],
  ])("neutralises %j, which a spreadsheet would run as a formula", (input, output) => {
    expect(csvCell(input)).toBe(output);
  });

  test("quotes commas, quotes and line breaks, doubling quotes", () => {
    expect(csvCell('Hobbs, "Walt"')).toBe('"Hobbs, ""Walt"""');
    expect(csvCell("two\nlines")).toBe('"two\nlines"');
    expect(csvCell('=A1,"x"')).toBe('"\'=A1,""x"""');
  });

  test("writes plain text, numbers and nothing as they are", () => {
    expect(csvCell("Walter Hobbs")).toBe("Walter Hobbs");
    expect(csvCell(42)).toBe("42");
    expect(csvCell(null)).toBe("");
    expect(csvCell(undefined)).toBe("");
  });
});

describe("csvRow", () => {
  test("joins cells with commas and ends with CRLF", () => {
    expect(csvRow(["a", "=b", null, 3])).toBe("a,'=b,,3\r\n");
  });
});
