import { describe, expect, test } from "vitest";
import pg from "pg";
import { LIST_READ_OPTIONS, SEARCH_READ_OPTIONS } from "./index.js";

// Upgrade test of docs/decisions/013-plan-settings.md: the list reads' and searches' pools are opened
// with PostgreSQL settings in the connection's `options`, which node-postgres must put in the startup
// message as it is. A pg release that drops or rewrites the option fails here, naming the record; the
// settings taking effect on the server is db/plan-settings-upgrade.int.test.ts's.
const RECORD = "node-postgres changed how it sends `options`: see docs/decisions/013-plan-settings.md";

/** What pg.Client sends in its startup message (the method its connect calls). */
const startupOf = (client: pg.Client) =>
  (client as unknown as { getStartupConf: () => Record<string, string | undefined> }).getStartupConf();

describe("the plan settings' way to the server", () => {
  test.each([
    ["list reads", LIST_READ_OPTIONS],
    ["searches", SEARCH_READ_OPTIONS],
  ])("the %s' settings go in the startup message as they are", (_, options) => {
    const client = new pg.Client({ connectionString: "postgres://x@127.0.0.1:1/db", options });
    expect(typeof (client as unknown as { getStartupConf?: unknown }).getStartupConf, RECORD).toBe(
      "function",
    );
    expect(startupOf(client).options, RECORD).toBe(options);
  });

  test("name only settings of the form -c name=value (an extension's setting is dotted)", () => {
    for (const options of [LIST_READ_OPTIONS, SEARCH_READ_OPTIONS])
      expect(options, RECORD).toMatch(/^-c [a-z_.]+=[a-z_0-9.]+( -c [a-z_.]+=[a-z_0-9.]+)*$/);
  });
});
