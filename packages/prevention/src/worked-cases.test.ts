import { describe, expect, test } from "vitest";
import { buildPlan, type PlanItem } from "./plan.js";
import { AS_OF, man, woman } from "./test/people.js";

const byTopic = (items: PlanItem[], topic: string) => items.find((i) => i.topic === topic);

describe("worked cases of the prevention plan", () => {
  test("a 67-year-old woman who smokes 30 pack-years, no mammogram for 3 years, no bone density scan and no colorectal screening is due for lung CT, mammography, bone density and colorectal screening", () => {
    const plan = buildPlan(
      woman(67, {
        smoking: { status: "current", packYears: 30 },
        history: { mammogram: "2023-12-02", boneDensity: "never", colonoscopy: "never", stoolTest: "never" },
      }),
    );
    for (const topic of ["lung-cancer", "breast-cancer", "osteoporosis", "colorectal-cancer"]) {
      const item = byTopic(plan.items, topic);
      expect(item?.due, topic).toBe("now");
      expect(item?.status, topic).toBe("due");
    }
    expect(byTopic(plan.items, "lung-cancer")?.reason).toContain("30 pack-years");
    const breast = byTopic(plan.items, "breast-cancer");
    expect(breast?.reason).toContain("last mammogram 2023-12-02, every 2 years");
    expect(breast?.reason).toContain("since 2025-12-02");
    // Both intervals: USPSTF every 2 years, Medicare every 12 months.
    expect(breast?.schedule.slice(0, 2)).toEqual([AS_OF, "2028-12-02"]);
    expect(breast?.medicare?.coverage).toContain("once every 12 months");
    expect(breast?.medicare?.nextCovered).toBe("now");
    expect(plan.issues).toEqual([]);
  });

  test("a 70-year-old man who quit 20 years ago is due for a one-time AAA ultrasound and not for lung CT", () => {
    for (const smoking of [
      { status: "former" as const, yearsSinceQuit: 20 },
      { status: "former" as const, yearsSinceQuit: 20, packYears: 30 },
      { status: "former" as const, quitDate: "2006-11-15", packYears: 30 },
    ]) {
      const plan = buildPlan(man(70, { smoking }));
      const aaa = byTopic(plan.items, "aaa");
      expect(aaa).toMatchObject({ ruleId: "aaa-men-ever-smoked", due: "now", status: "due" });
      expect(aaa?.schedule).toEqual([AS_OF]);
      const lung = byTopic(plan.items, "lung-cancer");
      expect(lung === undefined || lung.due === "not-recommended", JSON.stringify(smoking)).toBe(true);
      if (smoking.packYears)
        expect(lung).toMatchObject({ ruleId: "lung-quit-15-years", status: "not-recommended" });
    }
  });

  test("once the AAA ultrasound is on record it is complete, not offered again", () => {
    const plan = buildPlan(
      man(70, { smoking: { status: "former", yearsSinceQuit: 20 }, history: { aaaUltrasound: "2024-05" } }),
    );
    expect(byTopic(plan.items, "aaa")).toMatchObject({
      status: "complete",
      due: "not-recommended",
      schedule: [],
    });
  });

  test("an 82-year-old man is not routinely offered colorectal or prostate screening, or an AAA scan", () => {
    for (const smoking of [
      { status: "never" as const },
      { status: "former" as const, yearsSinceQuit: 10, packYears: 40 },
    ]) {
      const plan = buildPlan(man(82, { smoking }));
      for (const topic of ["colorectal-cancer", "prostate-cancer", "aaa"]) {
        const item = byTopic(plan.items, topic);
        expect(item?.status, topic).not.toBe("due");
        expect(item?.status, topic).not.toBe("scheduled");
      }
      // Colorectal from 76 to 85 is a selective offer (USPSTF C), never routine.
      expect(byTopic(plan.items, "colorectal-cancer")).toMatchObject({
        ruleId: "colorectal-76-85",
        status: "discuss",
      });
      expect(byTopic(plan.items, "colorectal-cancer")?.reason).toContain("selectively");
      expect(byTopic(plan.items, "prostate-cancer")).toMatchObject({
        ruleId: "prostate-70-plus",
        due: "not-recommended",
      });
      expect(byTopic(plan.items, "aaa")).toMatchObject({ ruleId: "aaa-over-75", due: "not-recommended" });
      expect(
        plan.schedule.some(
          (e) => ["colorectal-cancer", "prostate-cancer", "aaa"].includes(e.topic) && e.status === "due",
        ),
      ).toBe(false);
    }
  });
});
