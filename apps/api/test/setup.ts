import { afterAll, expect } from "vitest";
import { forgetKeptSurveys } from "../src/services/answer-check.js";
import { capturedStatements, unroutedStatements } from "./tenant-routing.js";

// The test files share one process and its modules (isolate: false in vitest.config.ts), each with
// databases of its own: what a module keeps of one database must not answer for the next file's.
forgetKeptSurveys();

// Ready to distribute by tenant (docs/scaling.md): after each test file, every statement its test
// databases were sent must pin each tenant-owned table it touches to one tenant, so that on Citus it
// routes to one shard. A failure names the statement and the table.
afterAll(async () => {
  const problems = await unroutedStatements(capturedStatements);
  capturedStatements.clear();
  expect(problems, "statements that do not filter a tenant-owned table on its tenant").toEqual([]);
});
