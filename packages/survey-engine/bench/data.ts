import type { Answers, Condition } from "../src/index.js";

/** A small seeded generator (mulberry32), so every run measures the same answers. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const SMOKING = ["yes", "quitRecent", "quit", "never"];
const NOTES = ["", "knee pain", "ok", "follow up"];

/** `count` answer objects shaped like wellness answers, with every value type the conditions read. */
export function generateAnswers(count: number, seed = 42): Answers[] {
  const random = seededRandom(seed);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)] as T;
  const answers: Answers[] = [];
  for (let i = 0; i < count; i++) {
    const social: Record<string, unknown> = { smokeYesNoQuit: pick(SMOKING) };
    if (random() < 0.9) social.note = pick(NOTES);
    answers.push({
      pain: { hadPain: String(Math.floor(random() * 4)), activities: String(Math.floor(random() * 4)) },
      vitals: { score: Math.floor(random() * 100) },
      social,
    });
  }
  return answers;
}

/** The benchmark page: five conditions, one of each action the spec names. */
export const PAGE_CONDITIONS: Condition[] = [
  { fieldName: "pain.hadPain", action: "Not Equals", fieldValue: "0", joinType: "and" },
  { fieldName: "vitals.score", action: "Greater Than", fieldValue: 3, joinType: "and" },
  { fieldName: "vitals.score", action: "Less Than", fieldValue: 95, joinType: "and" },
  { fieldName: "social.note", action: "Has Response", joinType: "and" },
  { fieldName: "social.smokeYesNoQuit", action: "Equals", fieldValue: "yes", joinType: "and" },
];

/** The same page as a SurveyJS expression. */
export const SURVEYJS_EXPRESSION =
  "{pain.hadPain} != '0' and {vitals.score} > 3 and {vitals.score} < 95 and {social.note} notempty and {social.smokeYesNoQuit} = 'yes'";
