import { afterAll, expect } from "vitest";
import { capturedStatements, unroutedStatements } from "./tenant-routing.js";

// Ready to distribute by tenant (docs/scaling.md): after each test file, every statement its test
// databases were sent must pin each tenant-owned table it touches to one tenant, so that on Citus it
// routes to one shard. A failure names the statement and the table.
afterAll(async () => {
  const problems = await unroutedStatements(capturedStatements);
  capturedStatements.clear();
  expect(problems, "statements that do not filter a tenant-owned table on its tenant").toEqual([]);
});
