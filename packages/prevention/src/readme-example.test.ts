import { describe, expect, test } from "vitest";
import readme from "../README.md?raw";
import { buildPlan, RULES, suggestBilling } from "./index.js";

describe("README example", () => {
  test("builds the plan and the billing suggestion the README shows", () => {
    const plan = buildPlan({
      asOf: "2026-12-02",
      birthDate: "1959-12-02",
      sex: "female",
      smoking: { status: "current", packYears: 30 },
      history: { mammogram: "2023-12-02", boneDensity: "never", colonoscopy: "never" },
      measures: { bmi: 31 },
    });
    const lung = plan.items.find((item) => item.topic === "lung-cancer");
    expect(lung?.due).toBe("now");
    expect(lung?.reason).toMatch(
      /^Due now: no low-dose CT on record\. Yearly low-dose CT for adults 50 to 80 who have smoked 20 pack-years or more .* \(age 67; 30 pack-years; smokes now\)$/,
    );
    expect(lung?.source.url).toBe(
      "https://www.uspreventiveservicestaskforce.org/uspstf/recommendation/lung-cancer-screening",
    );
    expect(plan.items.find((item) => item.topic === "breast-cancer")?.medicare?.nextCovered).toBe("now");
    expect(plan.schedule[0]).toMatchObject({ date: "2026-12-02", now: true, topic: "colorectal-cancer" });
    expect(plan.riskFactors.map((r) => r.id)).toEqual(["tobacco-use", "obesity"]);

    const billing = suggestBilling({
      visitDate: "2026-11-01",
      awvDates: ["2025-11-03"],
      advanceCarePlanning: { minutes: 20 },
    });
    expect(billing.visit.code).toBe("G0439");
    expect(billing.visit.rule).toBe(
      "subsequent: last AWV 2025-11-03, 11 full months ago (December 2025 to October 2026); 11 full months needed",
    );
    expect(billing.addOns.find((a) => a.code === "99497")).toMatchObject({
      code: "99497",
      modifier: "33",
      applies: true,
      rule: "advance care planning, 20 minutes face-to-face; with the AWV on the same claim, modifier 33: no deductible or coinsurance",
    });
  });

  test("the README's sources table names every row of the table", () => {
    for (const row of RULES.rows) expect(readme, row.id).toContain(`\`${row.id}\``);
    expect(readme).toContain(`Table version ${RULES.version}, published ${RULES.published}`);
  });
});
