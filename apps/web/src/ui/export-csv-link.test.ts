import { describe, expect, test } from "vitest";
import { exportUrl } from "./export-csv-link";

describe("exportUrl", () => {
  test("carries the filters that are set, and only those", () => {
    expect(exportUrl("results", { duration: 0, surveyId: undefined, patientId: "abc" })).toBe(
      "/api/surveyresults/export?duration=0&patientId=abc",
    );
    expect(exportUrl("patients", { q: "Hobbs, Walter", sort: "dob", order: "desc" })).toBe(
      "/api/patients/export?q=Hobbs%2C+Walter&sort=dob&order=desc",
    );
    expect(exportUrl("patients", { q: "" })).toBe("/api/patients/export");
  });
});
