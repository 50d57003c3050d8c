import { describe, expect, test } from "vitest";
import { suggestBilling, type BillingAdvice, type BillingCode } from "./billing.js";

const addOn = (advice: BillingAdvice, code: BillingCode) => advice.addOns.find((a) => a.code === code);

describe("suggestBilling: G0438 or G0439", () => {
  test("initial AWV when none is on record, with a caution to check Medicare's record", () => {
    const advice = suggestBilling({ visitDate: "2026-12-02" });
    expect(advice.visit).toMatchObject({ code: "G0438", applies: true, rule: "initial AWV: none on record" });
    expect(advice.notes.join(" ")).toContain("once in a lifetime");
    expect(advice.visit.source.url).toMatch(/^https:\/\/www\.cms\.gov\//);
  });

  test("subsequent once 11 full months have passed after the month of the last AWV", () => {
    const advice = suggestBilling({ visitDate: "2026-11-01", awvDates: ["2025-11-03"] });
    expect(advice.visit).toEqual({
      code: "G0439",
      applies: true,
      rule: "subsequent: last AWV 2025-11-03, 11 full months ago (December 2025 to October 2026); 11 full months needed",
      source: expect.objectContaining({ name: "CMS" }) as unknown,
    });
  });

  test("a visit too early is flagged with the date it becomes billable", () => {
    const advice = suggestBilling({ visitDate: "2026-10-31", awvDates: ["2025-11-03"] });
    expect(advice.visit).toMatchObject({ code: "G0439", applies: false, billableFrom: "2026-11-01" });
    expect(advice.visit.rule).toBe(
      "subsequent, too early: last AWV 2025-11-03, only 10 full months ago (December 2025 to September 2026); 11 full months needed; billable from 2026-11-01",
    );
  });

  test.each([
    // Month edges: the day of the month of the last AWV never matters, only its month.
    ["2025-01-31", "2025-12-31", "2026-01-01"],
    ["2025-01-01", "2025-12-31", "2026-01-01"],
    ["2025-12-01", "2026-11-30", "2026-12-01"],
    ["2025-12-31", "2026-11-30", "2026-12-01"],
    // Leap years: 29 February counts as February like any other day of it.
    ["2024-02-29", "2025-01-31", "2025-02-01"],
    ["2023-02-28", "2024-01-31", "2024-02-01"],
    ["2024-03-01", "2025-02-28", "2025-03-01"],
    ["2027-03-31", "2028-02-29", "2028-03-01"],
  ])("last AWV %s: too early on %s, billable from %s", (last, early, from) => {
    expect(suggestBilling({ visitDate: early, awvDates: [last] }).visit).toMatchObject({
      applies: false,
      billableFrom: from,
    });
    expect(suggestBilling({ visitDate: from, awvDates: [last] }).visit).toMatchObject({
      code: "G0439",
      applies: true,
    });
  });

  test("counts from the latest earlier AWV in any order, and leaves out this visit's own date and later ones", () => {
    const advice = suggestBilling({
      visitDate: "2026-12-02",
      awvDates: ["2025-12-15", "2023-01-10", "2026-12-02", "2027-01-01", "2024-11-30"],
    });
    expect(advice.visit).toMatchObject({ code: "G0439", applies: true });
    expect(advice.visit.rule).toContain("last AWV 2025-12-15");
    expect(advice.notes[0]).toContain("2026-12-02, the visit's own date, is taken to be this visit");
    expect(advice.issues).toEqual([
      { path: "awvDates[3]", code: "futureDate", message: "is after the visit; left out" },
    ]);
  });

  test("initial AWV not within 12 months of the IPPE, counted in full months", () => {
    const early = suggestBilling({ visitDate: "2027-02-28", ippeDate: "2026-03-10" });
    expect(early.visit).toMatchObject({ code: "G0438", applies: false, billableFrom: "2027-03-01" });
    expect(early.visit.rule).toBe(
      "initial, too early: none on record, but IPPE 2026-03-10, 10 full months ago (April 2026 to January 2027); 11 full months needed; billable from 2027-03-01",
    );
    const onTime = suggestBilling({ visitDate: "2027-03-01", ippeDate: "2026-03-10" });
    expect(onTime.visit).toMatchObject({ code: "G0438", applies: true });
    expect(onTime.visit.rule).toBe(
      "initial AWV: none on record; IPPE 2026-03-10, 11 full months ago (April 2026 to February 2027); 11 full months needed",
    );
  });

  test("no AWV within the first 12 months of Part B; the later of the two limits decides", () => {
    const advice = suggestBilling({ visitDate: "2026-06-01", partBStart: "2026-01-01" });
    expect(advice.visit).toMatchObject({ code: "G0438", applies: false, billableFrom: "2027-01-01" });
    expect(advice.visit.rule).toContain("the IPPE, G0402, is the visit then");
    const both = suggestBilling({
      visitDate: "2027-01-15",
      partBStart: "2026-01-01",
      ippeDate: "2026-06-20",
    });
    expect(both.visit).toMatchObject({ applies: false, billableFrom: "2027-06-01" });
  });

  test("a bad visit date is reported, never thrown", () => {
    const advice = suggestBilling({ visitDate: "tomorrow", awvDates: ["2025-02-30"] });
    expect(advice.visit.applies).toBe(false);
    expect(advice.issues).toEqual([
      { path: "visitDate", code: "required", message: "must be a YYYY-MM-DD date" },
    ]);
    expect(suggestBilling({ visitDate: "2026-12-02", awvDates: ["2025-02-30"] }).issues).toEqual([
      { path: "awvDates[0]", code: "invalidDate", message: "must be a YYYY-MM-DD date" },
    ]);
  });
});

describe("suggestBilling: add-ons", () => {
  const subsequent = { visitDate: "2026-12-02", awvDates: ["2025-11-20"] };

  test("G0444 with a subsequent AWV and a depression screen done", () => {
    expect(
      addOn(suggestBilling({ ...subsequent, depressionScreening: { done: true } }), "G0444"),
    ).toMatchObject({ applies: true });
  });

  test("G0444 not with the initial AWV, nor without a screen, nor within 11 full months of the last", () => {
    expect(
      addOn(suggestBilling({ visitDate: "2026-12-02", depressionScreening: { done: true } }), "G0444")?.rule,
    ).toContain("not with the initial AWV (G0438)");
    expect(
      addOn(suggestBilling({ ...subsequent, depressionScreening: { done: false } }), "G0444")?.applies,
    ).toBe(false);
    expect(
      addOn(
        suggestBilling({ ...subsequent, depressionScreening: { done: true, lastBilled: "2026-01-05" } }),
        "G0444",
      ),
    ).toMatchObject({
      applies: false,
      billableFrom: "2027-01-01",
    });
    expect(
      addOn(
        suggestBilling({ ...subsequent, depressionScreening: { done: true, lastBilled: "2025-12-31" } }),
        "G0444",
      ),
    ).toMatchObject({ applies: true });
  });

  test("G0444 not when the subsequent AWV itself is too early", () => {
    const advice = suggestBilling({
      visitDate: "2026-10-31",
      awvDates: ["2025-11-03"],
      depressionScreening: { done: true },
    });
    expect(addOn(advice, "G0444")).toMatchObject({
      applies: false,
      rule: "the subsequent AWV it goes with is not billable on this date",
    });
  });

  test.each([
    [15, false, 0],
    [16, true, 0],
    [45, true, 0],
    [46, true, 1],
    [75, true, 1],
    [76, true, 2],
  ])("advance care planning of %i minutes: 99497 %s, 99498 units %i", (minutes, first, units) => {
    const advice = suggestBilling({ ...subsequent, advanceCarePlanning: { minutes } });
    expect(addOn(advice, "99497")?.applies).toBe(first);
    if (first) expect(addOn(advice, "99497")).toMatchObject({ modifier: "33" });
    expect(addOn(advice, "99498")?.applies).toBe(units > 0);
    if (units > 0) expect(addOn(advice, "99498")).toMatchObject({ modifier: "33", units });
  });

  test("advance care planning without a billable AWV has no modifier 33 and says cost-sharing applies", () => {
    const advice = suggestBilling({
      visitDate: "2026-10-31",
      awvDates: ["2025-11-03"],
      advanceCarePlanning: { minutes: 20 },
    });
    const acp = addOn(advice, "99497");
    expect(acp?.applies).toBe(true);
    expect(acp?.modifier).toBeUndefined();
    expect(acp?.rule).toContain("deductible and coinsurance apply");
  });

  test("G0136 is the SDOH risk assessment to 2025", () => {
    const advice = suggestBilling({
      visitDate: "2025-06-02",
      awvDates: ["2024-05-20"],
      riskAssessment: { sdoh: true },
    });
    expect(addOn(advice, "G0136")).toMatchObject({
      applies: true,
      rule: "standardized SDOH risk assessment (5-15 minutes) with the AWV",
    });
    expect(addOn(advice, "G0136")?.source.version).toContain("2025-12-31");
  });

  test("from 2026 G0136 is a physical activity and nutrition assessment, not an SDOH assessment", () => {
    const sdoh = suggestBilling({ ...subsequent, riskAssessment: { sdoh: true } });
    expect(addOn(sdoh, "G0136")?.applies).toBe(false);
    expect(addOn(sdoh, "G0136")?.rule).toContain("no longer an SDOH risk assessment");
    expect(addOn(sdoh, "G0136")?.source.title).toContain("CY 2026");
    const activity = suggestBilling({ ...subsequent, riskAssessment: { activityNutrition: true } });
    expect(addOn(activity, "G0136")).toMatchObject({ applies: true });
    const again = suggestBilling({
      ...subsequent,
      riskAssessment: { activityNutrition: true, lastBilled: "2026-07-01" },
    });
    expect(addOn(again, "G0136")).toMatchObject({ applies: false, billableFrom: "2027-01-01" });
  });

  test("every suggestion carries its rule in words and its source", () => {
    const advice = suggestBilling({
      ...subsequent,
      depressionScreening: { done: true },
      advanceCarePlanning: { minutes: 50 },
      riskAssessment: { activityNutrition: true },
    });
    expect(advice.addOns.map((a) => a.code)).toEqual(["G0444", "99497", "99498", "G0136"]);
    for (const suggestion of [advice.visit, ...advice.addOns]) {
      expect(suggestion.rule.length).toBeGreaterThan(10);
      expect(suggestion.source.url).toMatch(/^https:\/\//);
    }
    expect(advice.rules.version).toBe("2026.12.0");
  });
});
