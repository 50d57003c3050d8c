import { describe, expect, test } from "vitest";
import { buildPlan, type PlanItem, type PreventionPlan } from "./plan.js";
import type { PreventionFacts } from "./facts.js";
import { AS_OF, man, person, woman } from "./test/people.js";

const item = (plan: PreventionPlan, topic: string): PlanItem => {
  const found = plan.items.find((i) => i.topic === topic);
  if (!found) throw new Error(`no ${topic} item`);
  return found;
};

describe("buildPlan: history and due dates", () => {
  test("a date known only to the year counts from its first day, and Medicare from its last", () => {
    const plan = buildPlan(woman(67, { history: { mammogram: "2025" } }));
    const breast = item(plan, "breast-cancer");
    expect(breast).toMatchObject({ status: "scheduled", due: "2027-01-01" });
    expect(breast.reason).toContain("last mammogram 2025 (exact date not recorded), every 2 years");
    // 11 full months after December 2025 have passed on 2026-12-01.
    expect(breast.medicare?.nextCovered).toBe("now");
  });

  test("shows the USPSTF and Medicare intervals side by side for an exact date", () => {
    const breast = item(buildPlan(woman(67, { history: { mammogram: "2026-01-15" } })), "breast-cancer");
    expect(breast).toMatchObject({ status: "scheduled", due: "2028-01-15" });
    expect(breast.medicare?.nextCovered).toBe("2027-01-01");
  });

  test("the latest of several tests decides: a colonoscopy outlasts a later stool test", () => {
    const colon = item(
      buildPlan(person(60, { history: { colonoscopy: "2020-06-01", stoolTest: "2026-03-01" } })),
      "colorectal-cancer",
    );
    expect(colon).toMatchObject({ status: "scheduled", due: "2030-06-01" });
    expect(colon.reason).toContain("last colonoscopy 2020-06-01, every 10 years");
  });

  test("an overdue stool test is due now, with the date it fell due", () => {
    const colon = item(buildPlan(person(60, { history: { stoolTest: "2025-10-01" } })), "colorectal-cancer");
    expect(colon).toMatchObject({ status: "due", due: "now" });
    expect(colon.reason).toContain("Due now (since 2026-10-01)");
    expect(colon.medicare?.nextCovered).toBe("now");
  });

  test("says never, not known, or nothing on record", () => {
    const reason = (history: PreventionFacts["history"]) =>
      item(buildPlan(woman(67, { history })), "osteoporosis").reason;
    expect(reason({ boneDensity: "never" })).toContain("bone density scan (DXA): never");
    expect(reason({ boneDensity: "unknown" })).toContain("bone density scan (DXA): date not known");
    expect(reason({})).toContain("no bone density scan (DXA) on record");
  });

  test("a future or unreadable date is reported and treated as not known", () => {
    const plan = buildPlan(woman(67, { history: { mammogram: "2027-03-01", boneDensity: "last spring" } }));
    expect(plan.issues).toEqual([
      { path: "history.mammogram", code: "futureDate", message: "is after the plan's date" },
      {
        path: "history.boneDensity",
        code: "invalidDate",
        message: 'must be "never", "unknown", YYYY, YYYY-MM or YYYY-MM-DD',
      },
    ]);
    expect(item(plan, "breast-cancer")).toMatchObject({ status: "due", due: "now" });
  });
});

describe("buildPlan: moving through ages and risk", () => {
  test("a screen due after a row's last age takes the next row: a 74-year-old's next mammogram is a shared decision at 75", () => {
    const breast = item(buildPlan(woman(74, { history: { mammogram: "2025-12-02" } })), "breast-cancer");
    expect(breast).toMatchObject({ ruleId: "breast-75-plus", status: "discuss", due: "2027-12-02" });
  });

  test("a colonoscopy that would next fall due at 89 is not recommended, saying why", () => {
    const colon = item(
      buildPlan(person(84, { history: { colonoscopy: "2021-05-01" } })),
      "colorectal-cancer",
    );
    expect(colon).toMatchObject({
      ruleId: "colorectal-86-plus",
      status: "not-recommended",
      due: "not-recommended",
    });
    expect(colon.reason).toContain("the next would fall on 2031-05-01 (age 88)");
  });

  test("a 62-year-old woman's bone density screening is scheduled for her 65th birthday", () => {
    const bone = item(buildPlan(woman(62)), "osteoporosis");
    expect(bone).toMatchObject({ status: "scheduled", due: "2029-12-02" });
    expect(bone.reason).toContain("(age 65)");
  });

  test("with the age alone, the birthday is not known: the row starts on the plan date's anniversary", () => {
    const plan = buildPlan({ asOf: AS_OF, age: 64, sex: "female" });
    expect(item(plan, "osteoporosis")).toMatchObject({ status: "scheduled", due: "2027-12-02" });
  });

  test("lung CT stops on the 15th anniversary of quitting", () => {
    const stillIn = item(
      buildPlan(person(65, { smoking: { status: "former", packYears: 30, quitDate: "2011-12-03" } })),
      "lung-cancer",
    );
    expect(stillIn).toMatchObject({ ruleId: "lung-ldct", status: "due", due: "now" });
    // The next yearly scan would fall after the 15th anniversary, 2026-12-03.
    expect(stillIn.schedule).toEqual([AS_OF]);
    const out = item(
      buildPlan(person(65, { smoking: { status: "former", packYears: 30, quitDate: "2011-12-02" } })),
      "lung-cancer",
    );
    expect(out).toMatchObject({ ruleId: "lung-quit-15-years", status: "not-recommended" });
  });

  test("a quit year that straddles the 15-year mark asks for the exact date", () => {
    const lung = item(
      buildPlan(person(65, { smoking: { status: "former", packYears: 30, quitDate: "2011" } })),
      "lung-cancer",
    );
    expect(lung).toMatchObject({ status: "review", due: "now" });
    expect(lung.reason).toContain("the exact quit date");
  });

  test("a smoker of unknown pack-years, or unknown smoking, is asked", () => {
    const noPackYears = item(buildPlan(person(60, { smoking: { status: "current" } })), "lung-cancer");
    expect(noPackYears).toMatchObject({ status: "review", due: "now" });
    expect(noPackYears.reason).toContain("ask or check: pack-years");
    const unknown = item(buildPlan({ asOf: AS_OF, birthDate: "1960-01-01", sex: "male" }), "aaa");
    expect(unknown).toMatchObject({ ruleId: "aaa-men-ever-smoked", status: "review" });
    expect(unknown.reason).toContain("whether ever smoked");
  });

  test("a sex not recorded makes the sex-specific rows ask, never guess", () => {
    const plan = buildPlan({
      asOf: AS_OF,
      birthDate: "1966-01-01",
      sex: "unknown",
      smoking: { status: "never" },
    });
    expect(item(plan, "breast-cancer")).toMatchObject({ status: "review" });
    expect(item(plan, "breast-cancer").reason).toContain("sex");
  });
});

describe("buildPlan: vaccines", () => {
  const flu = (vaccine: PreventionFacts["vaccines"], asOf = AS_OF) =>
    item(buildPlan({ ...person(70), asOf, vaccines: vaccine }), "influenza");

  test("influenza: this season's dose schedules next September; last season's is due now", () => {
    expect(flu({ influenza: "2026-10-01" })).toMatchObject({ status: "scheduled", due: "2027-09-01" });
    expect(flu({ influenza: "2026-03-01" })).toMatchObject({ status: "due", due: "now" });
    expect(flu({ influenza: "never" })).toMatchObject({ status: "due", due: "now" });
  });

  test("influenza: a dose dated only by this year may be last season's, so the month is asked", () => {
    expect(flu({ influenza: "2026" })).toMatchObject({ status: "review" });
  });

  test("influenza: in August the season's dose is offered from September", () => {
    expect(flu({}, "2026-08-15")).toMatchObject({ status: "scheduled", due: "2026-09-01" });
  });

  test("influenza: the schedule has one dose each season", () => {
    expect(flu({ influenza: "2026-10-01" }).schedule.slice(0, 3)).toEqual([
      "2027-09-01",
      "2028-09-01",
      "2029-09-01",
    ]);
  });

  test("zoster: the second RZV dose 2 months after the first; two doses complete; a year alone is checked", () => {
    const zoster = (v: PreventionFacts["vaccines"]) => item(buildPlan(person(70, { vaccines: v })), "zoster");
    expect(zoster({ zoster: [{ date: "2026-11-01", product: "RZV" }] })).toMatchObject({
      status: "scheduled",
      due: "2027-01-01",
    });
    expect(zoster({ zoster: [{ date: "2026-09-01", product: "RZV" }] })).toMatchObject({
      status: "due",
      due: "now",
    });
    expect(
      zoster({
        zoster: [
          { date: "2025-01-10", product: "RZV" },
          { date: "2025-04-10", product: "RZV" },
        ],
      }),
    ).toMatchObject({ status: "complete" });
    expect(zoster({ zoster: [{ date: "2015", product: "ZVL" }] }).reason).toContain("RZV, 2 doses");
    expect(zoster({ zoster: "2021" })).toMatchObject({ status: "review" });
  });

  test("pneumococcal: PCV20 completes; PPSV23 alone calls for PCV20 or PCV21 a year later; PCV13 + PPSV23 is a shared decision", () => {
    const pneumo = (v: PreventionFacts["vaccines"]) =>
      item(buildPlan(person(70, { vaccines: v })), "pneumococcal");
    expect(pneumo({ pneumococcal: [{ date: "2024-01-01", product: "PCV20" }] })).toMatchObject({
      status: "complete",
    });
    expect(pneumo({ pneumococcal: [{ date: "2026-06-01", product: "PPSV23" }] })).toMatchObject({
      status: "scheduled",
      due: "2027-06-01",
    });
    expect(
      pneumo({
        pneumococcal: [
          { date: "2016-03-01", product: "PCV13" },
          { date: "2017-04-01", product: "PPSV23" },
        ],
      }),
    ).toMatchObject({ status: "discuss", due: "now" });
    expect(pneumo({ pneumococcal: "2019" })).toMatchObject({ status: "review" });
  });

  test("Td/Tdap: every 10 years; Tdap when none is on record", () => {
    const tdap = (v: PreventionFacts["vaccines"]) => item(buildPlan(person(70, { vaccines: v })), "td-tdap");
    expect(tdap({ tdTdap: "2020" })).toMatchObject({ status: "scheduled", due: "2030-01-01" });
    const td = tdap({ tdTdap: [{ date: "2010-05-01", product: "Td" }] });
    expect(td).toMatchObject({ status: "due", due: "now" });
    expect(td.reason).toContain("Tdap (none on record)");
  });

  test("RSV: one dose on record is complete; it is not a yearly vaccine", () => {
    expect(item(buildPlan(person(80, { vaccines: { rsv: "2024" } })), "rsv")).toMatchObject({
      status: "complete",
      due: "not-recommended",
    });
    expect(
      item(buildPlan(person(80, { vaccines: { rsv: [{ date: "2024-09-01", product: "Arexvy" }] } })), "rsv"),
    ).toMatchObject({ status: "complete" });
  });

  test("hepatitis B: the second dose of a 3-dose series a month after the first", () => {
    expect(
      item(
        buildPlan(person(40, { vaccines: { hepatitisB: [{ date: "2026-10-01", product: "HepB" }] } })),
        "hepatitis-b-vaccine",
      ),
    ).toMatchObject({ status: "due", due: "now" });
  });
});

describe("buildPlan: the written schedule", () => {
  test("covers 10 years by default, 5 to 10 as asked, and refuses other horizons", () => {
    const facts = woman(67, { smoking: { status: "current", packYears: 30 } });
    const ten = buildPlan(facts);
    expect(ten.horizon).toEqual({ from: AS_OF, to: "2036-12-02", years: 10 });
    const five = buildPlan(facts, { horizonYears: 5 });
    expect(five.horizon.to).toBe("2031-12-02");
    expect(five.schedule.every((e) => e.date <= "2031-12-02")).toBe(true);
    expect(five.schedule.length).toBeLessThan(ten.schedule.length);
    const wrong = buildPlan(facts, { horizonYears: 30 });
    expect(wrong.horizon.years).toBe(10);
    expect(wrong.issues).toContainEqual({
      path: "horizonYears",
      code: "outOfRange",
      message: "must be 5 to 10 years; 10 is used",
    });
  });

  test("lists every item's dates in date order, today's marked now", () => {
    const plan = buildPlan(
      woman(67, { smoking: { status: "current", packYears: 30 }, history: { mammogram: "2025-06-01" } }),
    );
    const dates = plan.schedule.map((e) => e.date);
    expect(dates).toEqual([...dates].sort());
    expect(plan.schedule.filter((e) => e.now).every((e) => e.date === AS_OF)).toBe(true);
    expect(plan.schedule.filter((e) => e.topic === "lung-cancer").map((e) => e.date)).toEqual(
      ["2026", "2027", "2028", "2029", "2030", "2031", "2032", "2033", "2034", "2035", "2036"].map(
        (y) => `${y}-12-02`,
      ),
    );
    expect(plan.schedule.find((e) => e.topic === "breast-cancer")?.date).toBe("2027-06-01");
    for (const i of plan.items)
      for (const date of i.schedule)
        expect(plan.schedule).toContainEqual(expect.objectContaining({ date, ruleId: i.ruleId }));
  });
});

describe("buildPlan: risk factors and advice", () => {
  test("finds each risk factor with its interventions and advice personalised in both languages", () => {
    const plan = buildPlan(
      woman(72, {
        smoking: { status: "current", packYears: 25 },
        measures: {
          steadi: 5,
          activityMinutesPerWeek: 60,
          auditC: 3,
          bmi: 32,
          phq2: 4,
          phq9Item9: 1,
          ad8: 2,
        },
        flags: ["hearing-concern", "home-safety-concern"],
      }),
    );
    const ids = plan.riskFactors.map((r) => r.id);
    expect(ids).toEqual([
      "falls-risk",
      "physical-activity",
      "tobacco-use",
      "unhealthy-alcohol-use",
      "obesity",
      "cognitive-concern",
      "hearing-concern",
      "home-safety",
      "depression",
      "self-harm-thoughts",
    ]);
    const falls = plan.riskFactors[0];
    expect(falls?.found).toBe("STEADI score 5 (4 or more)");
    expect(falls?.advice.en).toContain("Your falls check score is 5 out of 14.");
    expect(falls?.advice.es).toContain("Su puntaje en la revisión de caídas es 5 de 14.");
    expect(falls?.interventions[0]).toContain("USPSTF B, 2024");
    expect(plan.riskFactors.find((r) => r.id === "physical-activity")?.advice.en).toContain(
      "You move about 60 minutes a week.",
    );
    expect(plan.riskFactors.find((r) => r.id === "self-harm-thoughts")?.advice.en).toContain("988");
  });

  test("drops a sentence whose value is unknown rather than print a placeholder", () => {
    const plan = buildPlan(person(72, { flags: ["falls-risk"] }));
    const falls = plan.riskFactors.find((r) => r.id === "falls-risk");
    expect(falls?.advice.en).toBe(
      "You have a higher chance of a fall. Exercise that builds balance and strength helps, like tai chi. Stand up slowly. Wear shoes that fit well and have a firm sole. Tell us if a medicine makes you dizzy.",
    );
    expect(falls?.advice.es).not.toContain("{");
  });

  test("uses the AUDIT-C cut-offs of 4 for men and 3 for women", () => {
    const found = (facts: PreventionFacts) =>
      buildPlan(facts).riskFactors.some((r) => r.id === "unhealthy-alcohol-use");
    expect(found(woman(70, { measures: { auditC: 3 } }))).toBe(true);
    expect(found(man(70, { measures: { auditC: 3 } }))).toBe(false);
    expect(found(man(70, { measures: { auditC: 4 } }))).toBe(true);
  });

  test("finds nothing for a healthy patient", () => {
    expect(
      buildPlan(
        person(70, { measures: { bmi: 23, activityMinutesPerWeek: 200, auditC: 1, phq2: 0, steadi: 1 } }),
      ).riskFactors,
    ).toEqual([]);
  });
});

describe("buildPlan: bad facts", () => {
  test("never throws, reports each fact it could not use and builds the plan from the rest", () => {
    const junk = {
      asOf: AS_OF,
      birthDate: "1950-02-30",
      age: 76,
      sex: "other",
      smoking: { status: "sometimes", packYears: -3 },
      history: { mammogram: { year: 2020 }, xray: "2020" },
      vaccines: { influenza: [{ date: "soon" }], polio: "never" },
      flags: ["very-ill"],
      measures: { bmi: "thirty", steps: 4 },
    } as unknown as PreventionFacts;
    const plan = buildPlan(junk);
    expect(plan.issues.map((i) => `${i.path} ${i.code}`)).toEqual([
      "birthDate invalidDate",
      "sex invalidValue",
      "smoking.status unknownName",
      "smoking.packYears invalidValue",
      "history.mammogram invalidDate",
      "history.xray unknownName",
      "vaccines.influenza[0].date invalidDate",
      "vaccines.polio unknownName",
      "flags[0] unknownName",
      "measures.bmi invalidValue",
      "measures.steps unknownName",
    ]);
    expect(item(plan, "colorectal-cancer")).toMatchObject({ ruleId: "colorectal-76-85" });
  });

  test("without a readable plan date, gives no items and says why", () => {
    const plan = buildPlan({ asOf: "02/12/2026" });
    expect(plan.items).toEqual([]);
    expect(plan.issues).toEqual([{ path: "asOf", code: "required", message: "must be a YYYY-MM-DD date" }]);
  });
});
