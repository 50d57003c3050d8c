import { describe, expect, test } from "vitest";
import { summarizeAwv } from "@core-care/survey-engine";
import { summaryRows } from "./awv-summary-rows";

const row = (rows: ReturnType<typeof summaryRows>, label: string) => rows.find((r) => r.label === label);

describe("summaryRows", () => {
  test("shows PHQ scores, item 9, tobacco, alcohol and directives with the findings flagged", () => {
    const rows = summaryRows(
      summarizeAwv({
        functional: { eating: "0", stairs: "2", money: "1" },
        depression: {
          phq9LittleInterest: "nearly every day",
          phq9Hopeless: "more than half the days",
          phq9Sleep: "several days",
          phq9SelfHarm: "several days",
        },
        social: {
          alcoholfrequency: "2-3week",
          drinksPerDay: "3",
          sixDrinks: "monthly",
          smokeYesNoQuit: "yes",
          packYears: "yes",
        },
        fallen: { pastYear: "yes" },
        directives: { livingWill: "yes", poa: "unknown" },
      }),
    );
    expect(row(rows, "PHQ-2")).toEqual({ label: "PHQ-2", value: "5 of 6 (positive screen)", flag: true });
    expect(row(rows, "PHQ-9")).toMatchObject({ value: "7 of 27 (mild)", flag: true });
    expect(row(rows, "PHQ-9 item 9 (self-harm)")).toMatchObject({
      value: "Positive: review today",
      flag: true,
    });
    expect(row(rows, "Fall risk")).toMatchObject({ value: "Positive", flag: true });
    expect(row(rows, "Tobacco")).toMatchObject({ value: "Current smoker", flag: true });
    expect(row(rows, "Lung cancer screening")).toMatchObject({ value: "Eligible: offer a low-dose CT" });
    expect(row(rows, "Alcohol")?.value).toBe(
      "2 to 3 times a week; 3-4 drinks a day; six or more drinks on one occasion",
    );
    expect(row(rows, "Living will")?.value).toBe("On file");
    expect(row(rows, "Health care power of attorney")?.value).toBe("Patient does not know");
    expect(row(rows, "DNR order")?.value).toBe("Not answered");
    expect(row(rows, "Needs help with")?.value).toBe("managing money, climbing stairs");
  });

  test("flags nothing for a negative questionnaire", () => {
    const rows = summaryRows(
      summarizeAwv({
        depression: { phq9LittleInterest: "not at all", phq9Hopeless: "not at all" },
        social: { alcoholfrequency: "never", smokeYesNoQuit: "never" },
        fallen: { pastYear: "no" },
      }),
    );
    expect(rows.filter((r) => r.flag)).toEqual([]);
    expect(row(rows, "PHQ-9")?.value).toBe("Not asked");
    expect(row(rows, "Alcohol")?.value).toBe("Never");
  });
});
