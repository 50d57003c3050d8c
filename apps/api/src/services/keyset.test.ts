import { describe, expect, test } from "vitest";
import { TOTAL_CAP } from "@core-care/schema";
import { AppError } from "../errors.js";
import { assertPageWithin, lastPageNumber, pageOffset } from "./keyset.js";

const refusal = (work: () => unknown) => {
  try {
    work();
  } catch (err) {
    return err instanceof AppError
      ? { status: err.statusCode, fields: err.errors?.map((e) => e.field) }
      : err;
  }
  return undefined;
};

describe("page numbers of the capped lists", () => {
  test.each([
    [200, TOTAL_CAP / 200],
    [5, TOTAL_CAP / 5],
    [3, Math.ceil(TOTAL_CAP / 3)],
    [1, TOTAL_CAP],
  ])("a list of %i a page numbers its pages up to %i, the rows the capped count shows", (limit, last) => {
    expect(lastPageNumber(limit)).toBe(last);
    expect(pageOffset(last, limit)).toBe((last - 1) * limit);
    expect(pageOffset(1, limit)).toBe(0);
    expect(refusal(() => pageOffset(last + 1, limit))).toEqual({ status: 400, fields: ["page"] });
    expect(refusal(() => pageOffset(1_000_000, limit))).toEqual({ status: 400, fields: ["page"] });
  });

  test("an empty page past a counted list's end is refused; a first page, a page with rows or a capped list's is not", () => {
    expect(refusal(() => assertPageWithin(3, 200, 0, { total: 250, totalCapped: false }))).toEqual({
      status: 400,
      fields: ["page"],
    });
    expect(refusal(() => assertPageWithin(1, 200, 0, { total: 0, totalCapped: false }))).toBeUndefined();
    expect(refusal(() => assertPageWithin(2, 200, 50, { total: 250, totalCapped: false }))).toBeUndefined();
    expect(
      refusal(() => assertPageWithin(5, 200, 0, { total: TOTAL_CAP, totalCapped: true })),
    ).toBeUndefined();
  });
});
