import type { PreventionFacts } from "../facts.js";

/** The plan date the tests use. */
export const AS_OF = "2026-12-02";

/** A birth date that makes someone exactly `age` on `AS_OF` (their birthday is the plan's date). */
export function born(age: number): string {
  return `${2026 - age}-12-02`;
}

type More = Omit<Partial<PreventionFacts>, "asOf" | "birthDate">;

/** A person of `age` on `AS_OF` who has never smoked, with more facts as given. */
export function person(age: number, more: More = {}): PreventionFacts {
  return { asOf: AS_OF, birthDate: born(age), smoking: { status: "never" }, ...more };
}

export const woman = (age: number, more: More = {}): PreventionFacts =>
  person(age, { sex: "female", ...more });
export const man = (age: number, more: More = {}): PreventionFacts => person(age, { sex: "male", ...more });
