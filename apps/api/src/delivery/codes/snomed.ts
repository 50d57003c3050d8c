/**
 * SNOMED CT values for coded answers.
 *
 * Source: shared/standards/loinc-awv.csv, rows 72166-2 (smoking status value set, from
 * HL7/C-CDA-Examples Social History and the ONC ISA "Representing Patient Tobacco Use") and
 * 45473-6 (yes/no/unknown, from HL7/US-Core observation-ADI-example). `loinc.test.ts` checks each
 * code against those rows.
 */

export const SNOMED_OID = "2.16.840.1.113883.6.96";
export const SNOMED_URI = "http://snomed.info/sct";

export interface SnomedAnswer {
  code: string;
  display: string;
  matches: readonly (string | number | boolean)[];
}

/**
 * Smoking status. SPEC §3: values include never and quit; any other value means a current
 * smoker whose frequency the survey does not ask, hence "current status unknown" as the default.
 */
export const SMOKING_STATUS = {
  everyDay: {
    code: "449868002",
    display: "Current every day smoker",
    matches: ["every day", "everyday", "daily"],
  },
  someDay: {
    code: "428041000124106",
    display: "Current some day smoker",
    matches: ["some days", "someday", "somedays"],
  },
  former: { code: "8517006", display: "Former smoker", matches: ["quit", "quitrecent", "former"] },
  never: { code: "266919005", display: "Never smoker", matches: ["never"] },
  currentUnknown: { code: "77176002", display: "Smoker current status unknown", matches: [] },
} as const satisfies Record<string, SnomedAnswer>;

export const YES_NO_UNKNOWN: readonly SnomedAnswer[] = [
  { code: "373066001", display: "Yes", matches: ["yes", "y", true] },
  { code: "373067005", display: "No", matches: ["no", "n", false] },
  { code: "261665006", display: "Unknown", matches: ["unknown", "i don't know", "dont know"] },
];
