import { describe, expect, test } from "vitest";
import { getTableColumns } from "drizzle-orm";
import { PatientSchema } from "@core-care/schema";
import { patients } from "../db/schema.js";
import { patientColumns } from "./patients.js";

// Upgrade test of docs/decisions/014-patient-columns.md: services/patients.ts maps a patient's 13
// columns by hand (the columns read, the raw row by PostgreSQL's names, the raw row to the row, the row
// to the answer, the input to the columns) instead of through Drizzle's per-field mapping. A column
// added to the table or the schema, or a column renamed, fails here, naming the record and the places.
const RECORD =
  "a patient column changed: update the five hand mappings of services/patients.ts (docs/decisions/014-patient-columns.md)";

/** The table's columns no answer carries: the tenant, the times, and the search text. */
const NOT_ANSWERED = ["tenantId", "createdAt", "updatedAt", "deletedAt", "searchText"];

const snake = (key: string) => key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

describe("the patient's hand-mapped columns", () => {
  test("are every column of the table but those no answer carries", () => {
    const table = Object.keys(getTableColumns(patients)).filter((key) => !NOT_ANSWERED.includes(key));
    expect(Object.keys(patientColumns).sort(), RECORD).toEqual(table.sort());
    expect(Object.keys(patientColumns), RECORD).toHaveLength(13);
  });

  test("are the fields of the patient's schema", () => {
    expect(Object.keys(patientColumns).sort(), RECORD).toEqual(Object.keys(PatientSchema.shape).sort());
  });

  test("carry PostgreSQL names the raw row reads them by (the key in snake case)", () => {
    for (const [key, column] of Object.entries(patientColumns))
      expect(column.name, `${RECORD} (${key})`).toBe(snake(key));
  });
});
