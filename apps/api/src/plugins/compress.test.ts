import { describe, expect, test } from "vitest";
import { acceptedEncoding } from "./compress.js";

describe("acceptedEncoding", () => {
  test.each([
    [undefined, null],
    ["", null],
    ["identity", null],
    ["gzip", "gzip"],
    ["gzip, deflate, br", "br"],
    ["BR;Q=0.5, gzip", "br"],
    ["br;q=0, gzip", "gzip"],
    ["br;q=0, gzip;q=0", null],
    ["*", "br"],
    ["*;q=0, gzip", "gzip"],
    ["deflate", null],
  ])("answers %s with %s", (header, expected) => {
    expect(acceptedEncoding(header)).toBe(expected);
  });
});
