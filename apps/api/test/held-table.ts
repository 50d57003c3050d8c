import { sql } from "drizzle-orm";
import type { Database } from "../src/db/index.js";

/**
 * Holds every read of `survey_results` waiting, as a long statement does, until `release` is called:
 * one transaction takes the table's access exclusive lock and keeps it open.
 */
export async function heldResults(database: Database): Promise<{ release: () => Promise<void> }> {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let locked!: () => void;
  const isLocked = new Promise<void>((resolve) => (locked = resolve));
  const holding = database.db.transaction(async (tx) => {
    await tx.execute(sql`lock table survey_results in access exclusive mode`);
    locked();
    await released;
  });
  await isLocked;
  return {
    release: async () => {
      release();
      await holding;
    },
  };
}
