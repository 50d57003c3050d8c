/**
 * Race and ethnicity of the patient form (SPEC 3) in the CDC Race & Ethnicity Code Set 1.0
 * (PHIN VADS, code system OID 2.16.840.1.113883.6.238, HL7 v2 table 0396 name "CDCREC"), as the
 * C-CDA US Realm Header (raceCode from the OMB race categories, sdtc:raceCode for a detailed race,
 * ethnicGroupCode from the OMB ethnicity categories) and HL7 v2 PID-10 / PID-22 use it.
 * `race-ethnicity.test.ts` checks that every form value has a code or an explicit null flavor.
 */
import type { ETHNICITIES, RACES } from "@core-care/schema";

export const CDC_RACE_OID = "2.16.840.1.113883.6.238";
export const CDC_RACE_HL7 = "CDCREC";

export interface RaceCode {
  code: string;
  display: string;
}

/** The five OMB race categories and "Other Race". */
export const OMB_RACE = {
  americanIndian: { code: "1002-5", display: "American Indian or Alaska Native" },
  asian: { code: "2028-9", display: "Asian" },
  black: { code: "2054-5", display: "Black or African American" },
  pacificIslander: { code: "2076-8", display: "Native Hawaiian or Other Pacific Islander" },
  white: { code: "2106-3", display: "White" },
  other: { code: "2131-1", display: "Other Race" },
} as const satisfies Record<string, RaceCode>;

/** Detailed races of the CDC code set that the patient form offers. */
export const DETAILED_RACE = {
  chinese: { code: "2034-7", display: "Chinese" },
  filipino: { code: "2036-2", display: "Filipino" },
  japanese: { code: "2039-6", display: "Japanese" },
  nativeHawaiian: { code: "2079-2", display: "Native Hawaiian" },
} as const satisfies Record<string, RaceCode>;

/** A form value as an OMB category (and a detailed race); `undefined` means "unknown" (null flavor UNK). */
export const RACE_CODES: Record<(typeof RACES)[number], { omb: RaceCode; detailed?: RaceCode } | undefined> =
  {
    // Hispanic is an ethnicity, not an OMB race; the form offers it as a race, which OMB counts as "Other Race".
    Hispanic: { omb: OMB_RACE.other },
    Asian: { omb: OMB_RACE.asian },
    Caucasian: { omb: OMB_RACE.white },
    "African American": { omb: OMB_RACE.black },
    "Black or African American": { omb: OMB_RACE.black },
    "American Indian or Alaska Native": { omb: OMB_RACE.americanIndian },
    "Native American": { omb: OMB_RACE.americanIndian },
    Other: { omb: OMB_RACE.other },
    Undetermined: undefined,
    Chinese: { omb: OMB_RACE.asian, detailed: DETAILED_RACE.chinese },
    Filipino: { omb: OMB_RACE.asian, detailed: DETAILED_RACE.filipino },
    Japanese: { omb: OMB_RACE.asian, detailed: DETAILED_RACE.japanese },
    "Native Hawaiian": { omb: OMB_RACE.pacificIslander, detailed: DETAILED_RACE.nativeHawaiian },
    // OMB reports more than one race by listing each; a bare "Multiracial" names none of them.
    Multiracial: { omb: OMB_RACE.other },
    "Pacific Islander": { omb: OMB_RACE.pacificIslander },
  };

/** The OMB ethnicity categories; "Other or Undetermined" is unknown (null flavor UNK). */
export const ETHNICITY_CODES: Record<(typeof ETHNICITIES)[number], RaceCode | undefined> = {
  "Hispanic or Latino": { code: "2135-2", display: "Hispanic or Latino" },
  "Non Hispanic or Latino": { code: "2186-5", display: "Not Hispanic or Latino" },
  "Other or Undetermined": undefined,
};

/** The codes of a stored race; undefined when it is missing, unknown or not a form value. */
export function raceCode(race: string | undefined) {
  return race !== undefined && Object.hasOwn(RACE_CODES, race)
    ? RACE_CODES[race as keyof typeof RACE_CODES]
    : undefined;
}

/** The code of a stored ethnicity; undefined when it is missing, unknown or not a form value. */
export function ethnicityCode(ethnicity: string | undefined) {
  return ethnicity !== undefined && Object.hasOwn(ETHNICITY_CODES, ethnicity)
    ? ETHNICITY_CODES[ethnicity as keyof typeof ETHNICITY_CODES]
    : undefined;
}

/** Null flavor (HL7 v3 NullFlavor / v2 table 0396 "NULLFL") of an unknown race or ethnicity. */
export const UNKNOWN = { code: "UNK", display: "Unknown", hl7System: "NULLFL" } as const;
