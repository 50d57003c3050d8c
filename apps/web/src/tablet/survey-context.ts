import type { Condition, EvalContext, Question, Survey } from "@core-care/survey-engine";

function conditionNeedsGlobals(condition: Condition): boolean {
  const name = condition.fieldName;
  return name === "sex" || name === "age" || name.startsWith("tenant.");
}

function questionNeedsGlobals(question: Question): boolean {
  return (
    (question.visibleWhen ?? []).some(conditionNeedsGlobals) ||
    (question.fields ?? []).some(questionNeedsGlobals)
  );
}

/** True when a page or question condition reads a global (sex, age, tenant.*), so the runner must load them. */
export function surveyNeedsGlobals(survey: Survey): boolean {
  return survey.pages.some(
    (page) => page.conditions.some(conditionNeedsGlobals) || page.questions.some(questionNeedsGlobals),
  );
}

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

/** The condition globals of SPEC 3 (tenant.id, tenant.location.id, sex, age) for one patient. */
export function globalsFor(
  patient: { dob: string; sex: string; locationId?: string | undefined },
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
