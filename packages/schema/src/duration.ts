import { z } from "zod";

/** Duration filters of the result lists (SPEC 3): Yesterday 0, Today 1, All 5. */
export const Duration = { Yesterday: 0, Today: 1, All: 5 } as const;
export type DurationName = keyof typeof Duration;
export type DurationValue = (typeof Duration)[DurationName];

/** Display labels of the duration filters (SPEC 3). */
export const DURATION_LABELS: Record<DurationValue, string> = {
  0: "Since Yesterday",
  1: "Today",
  5: "All",
};

/** A duration filter as it arrives in a query string. */
export const DurationSchema = z.coerce
  .number()
  .pipe(z.union([z.literal(Duration.Yesterday), z.literal(Duration.Today), z.literal(Duration.All)]));
