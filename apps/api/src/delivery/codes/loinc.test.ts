import { describe, expect, test } from "vitest";
import { loincCsvRows } from "../../../test/peers/standards.js";
import { codeAnswer, fieldCoding } from "../coding.js";
import {
  ALCOHOL_SIX_OR_MORE_ANSWERS,
  ALCOHOL_TYPICAL_DAY_ANSWERS,
  LOINC,
  PHQ_DIFFICULTY_ANSWERS,
  PHQ_FREQUENCY_ANSWERS,
} from "./loinc.js";
import { SMOKING_STATUS, YES_NO_UNKNOWN } from "./snomed.js";

const rows = loincCsvRows();
/** `confirmed`, or `confirmed (as document type)` and the like; never UNCONFIRMED or deprecated. */
const isConfirmed = (status: string) => /^confirmed( \(|$)/.test(status);
const confirmed = rows.filter((r) => isConfirmed(r.status ?? ""));

describe("LOINC constants", () => {
  test("the CSV has its documented columns", () => {
    expect(Object.keys(rows[0]!)).toEqual([
      "field_hint",
      "loinc",
      "display",
      "answer_list_hint",
      "source",
      "status",
    ]);
  });

  test.each(Object.entries(LOINC))("%s is a confirmed code with the CSV's display", (_key, coding) => {
    const row = confirmed.find((r) => r.loinc === coding.code);
    expect(row, `${coding.code} confirmed in loinc-awv.csv`).toBeDefined();
    expect(coding.display).toBe(row!.display);
  });

  test.each([
    ["PHQ frequency", PHQ_FREQUENCY_ANSWERS, "44250-9"],
    ["PHQ difficulty", PHQ_DIFFICULTY_ANSWERS, "69722-7"],
    ["AUDIT-C typical day", ALCOHOL_TYPICAL_DAY_ANSWERS, "68519-8"],
    ["AUDIT-C six or more", ALCOHOL_SIX_OR_MORE_ANSWERS, "68520-6"],
  ])("%s answer codes are listed by the confirmed row %s", (_name, answers, loinc) => {
    const hint = confirmed.find((r) => r.loinc === loinc)!.answer_list_hint!;
    for (const answer of answers) expect(hint).toContain(`${answer.code} ${answer.display}`);
  });

  test("no code the CSV leaves unconfirmed or deprecated is used", () => {
    const used = new Set<string>(Object.values(LOINC).map((c) => c.code));
    const unusable = rows.filter((r) => r.loinc && !isConfirmed(r.status ?? "")).map((r) => r.loinc);
    expect(unusable.length).toBeGreaterThan(0);
    for (const code of unusable) expect(used.has(code!)).toBe(false);
    expect(fieldCoding("social.packYears")).toEqual({});
    expect(fieldCoding("fallRisk.steadiFallen")).toEqual({});
  });
});

describe("SNOMED CT answers", () => {
  test("smoking status values come from the confirmed 72166-2 row", () => {
    const hint = confirmed.find((r) => r.loinc === "72166-2")!.answer_list_hint!;
    for (const value of Object.values(SMOKING_STATUS))
      expect(hint).toContain(`${value.code} ${value.display.split(" ")[0]}`);
  });

  test("yes, no and unknown come from the confirmed 45473-6 row", () => {
    const hint = confirmed.find((r) => r.loinc === "45473-6")!.answer_list_hint!;
    for (const value of YES_NO_UNKNOWN) expect(hint).toContain(`${value.code} ${value.display}`);
  });
});

describe("codeAnswer", () => {
  test.each([
    ["depression.phq9Hopeless", "Several days", "LA6569-3", 1],
    ["depression.phq9SelfHarm", "nearly every day", "LA6571-9", 3],
    ["depression.phq9Movement", 0, "LA6568-5", 0],
    ["social.drinksPerDay", 10, "LA18932-6", 4],
    ["social.smokeYesNoQuit", "never", "266919005", undefined],
    ["social.smokeYesNoQuit", "quit", "8517006", undefined],
    ["social.smokeYesNoQuit", "yes", "77176002", undefined],
    ["directives.dnr", "unknown", "261665006", undefined],
  ])("codes %s = %j as %s", (field, value, code, score) => {
    const coded = codeAnswer(field, value);
    expect(coded?.code).toBe(code);
    expect(coded?.score).toBe(score);
  });

  test("leaves values outside the answer list and uncoded fields uncoded", () => {
    expect(codeAnswer("depression.phq9Sleep", "sometimes")).toBeUndefined();
    expect(codeAnswer("hearing.aid", "yes")).toBeUndefined();
    expect(codeAnswer("social.smokeYesNoQuit", "")).toBeUndefined();
  });
});
