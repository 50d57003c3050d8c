// Sums the Vitest and Playwright JSON reports into one "N passed, N failed" line.
// A missing report, a crashed suite or a run with no passing test counts as failure.
import { existsSync, readFileSync } from "node:fs";

let passed = 0;
let failed = 0;
let skipped = 0;
for (const file of process.argv.slice(2)) {
  if (!existsSync(file)) {
    console.error(`missing report ${file}`);
    failed++;
    continue;
  }
  const report = JSON.parse(readFileSync(file, "utf8"));
  if (report.stats && "expected" in report.stats) {
    passed += report.stats.expected + (report.stats.flaky ?? 0);
    failed += report.stats.unexpected + (report.errors?.length ?? 0);
    skipped += report.stats.skipped;
  } else {
    passed += report.numPassedTests;
    failed += report.numFailedTests + (report.numRuntimeErrorTestSuites ?? 0);
    // A run that failed outside its tests (a global setup, an unhandled error) fails with none counted.
    if (report.success === false && report.numFailedTests === 0 && !report.numRuntimeErrorTestSuites) {
      console.error(`${file}: the run failed outside its tests`);
      failed++;
    }
    skipped += (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);
  }
}
console.log(`${passed} passed, ${failed} failed, ${skipped} skipped`);
if (passed === 0 || failed > 0 || skipped > 0) process.exit(1);
