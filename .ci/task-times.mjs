// Prints how long each package's task of the last turbo run took, from its run summary
// (TURBO_RUN_SUMMARY=true writes one to .turbo/runs/): one line per task, in the order they started.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";

const dir = ".turbo/runs";
let runs = [];
try {
  runs = readdirSync(dir).map((name) => join(dir, name));
} catch {
  // No summary: nothing ran, which the test summary reports.
}
const last = runs.sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs)[0];
if (last === undefined) {
  console.log("no turbo run summary in .turbo/runs");
} else {
  const tasks = JSON.parse(readFileSync(last, "utf8")).tasks ?? [];
  const width = Math.max(0, ...tasks.map((task) => task.taskId.length));
  for (const task of tasks.sort((a, b) => (a.execution?.startTime ?? 0) - (b.execution?.startTime ?? 0))) {
    const { startTime, endTime, exitCode } = task.execution ?? {};
    const seconds =
      startTime === undefined || endTime === undefined ? "-" : ((endTime - startTime) / 1000).toFixed(0);
    const state = task.cache?.status === "HIT" ? "cached" : `exit ${exitCode ?? "?"}`;
    console.log(`${task.taskId.padEnd(width)}  ${seconds.padStart(5)} s  ${state}`);
  }
}
