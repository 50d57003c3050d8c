import type { EvalContext } from "./types.js";

/** Whole years from a `YYYY-MM-DD` birth date to `today` (UTC calendar dates); undefined if unreadable. */
export function ageOn(dob: string, today: Date): number | undefined {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(dob);
  if (!match) return undefined;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  let age = today.getUTCFullYear() - year;
  const beforeBirthday =
    today.getUTCMonth() + 1 < month || (today.getUTCMonth() + 1 === month && today.getUTCDate() < day);
  if (beforeBirthday) age -= 1;
  return age >= 0 ? age : undefined;
}

/**
 * The condition globals of SPEC 3 (`tenant.id`, `tenant.location.id`, `sex`, `age`, and the tenant's
 * settings) for one patient on `today`.
 */
export function patientGlobals(
  patient: { dob: string; sex: string; locationId?: string | null | undefined },
  tenant: { id: string; settings?: Record<string, unknown> },
  today: Date,
): Omit<EvalContext, "answers"> {
  const age = ageOn(patient.dob, today);
  return {
    sex: patient.sex,
    ...(age === undefined ? {} : { age }),
    tenant: {
      id: tenant.id,
      ...(patient.locationId ? { location: { id: patient.locationId } } : {}),
      ...(tenant.settings ? { settings: tenant.settings } : {}),
    },
  };
}
