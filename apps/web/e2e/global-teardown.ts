import { rmSync } from "node:fs";

/** Removes the run's embedded database directory when playwright.config.ts made it. */
export default function globalTeardown(): void {
  const dir = process.env.E2E_DATA_DIR;
  if (dir && process.env.E2E_DATA_DIR_CREATED === "1") rmSync(dir, { recursive: true, force: true });
}
