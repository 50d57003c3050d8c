import { readFileSync } from "node:fs";
import { describe, expect, test } from "vitest";
import { mayOf, PERMISSIONS, UI_ACTION_ROUTES, whoOf, type Permission } from "./permissions.js";

const API_DOC = new URL("../../../docs/api.md", import.meta.url);

interface DocumentedCall {
  line: number;
  call: string;
  /** The Who cell, or undefined when the call's table has no Who column. */
  who: string | undefined;
}

/** The cells of a Markdown table row (escaped pipes stay in their cell). */
const cellsOf = (row: string) =>
  row
    .trim()
    .replace(/^\||\|$/g, "")
    .split(/(?<!\\)\|/)
    .map((cell) => cell.trim());

/** Every table row of the page whose first cell is a call (`METHOD /api/…`, `GET /readyz`), with its Who cell. */
function documentedCalls(markdown: string): DocumentedCall[] {
  const lines = markdown.split("\n");
  const calls: DocumentedCall[] = [];
  let whoColumn: number | undefined;
  for (const [index, line] of lines.entries()) {
    if (!line.startsWith("|")) {
      whoColumn = undefined;
      continue;
    }
    const cells = cellsOf(line);
    if (/^\|[\s|:-]+\|$/.test(line.trim())) continue;
    if (lines[index + 1]?.startsWith("| --") === true) {
      const at = cells.indexOf("Who");
      whoColumn = at === -1 ? undefined : at;
      continue;
    }
    const call = cells[0] ?? "";
    if (/^(GET|POST|PUT|DELETE) \//.test(call)) {
      calls.push({ line: index + 1, call, who: whoColumn === undefined ? undefined : cells[whoColumn] });
    }
  }
  return calls;
}

/** A path's shape: each parameter (`:id` in the table, `{id}` on the page) as `:`. */
const shapeOf = (path: string) => path.replace(/:\w+|\{\w+\}/g, ":");

/** The table key of a documented call (`GET /api/patients/{id}?q=` -> `GET /api/patients/:id`). */
function keyOf(call: string): string | undefined {
  const match = /^(GET|POST|PUT|DELETE) (\/[^\s?`]*)/.exec(call);
  if (match === null) return undefined;
  const [, method, path] = match;
  return Object.keys(PERMISSIONS).find(
    (key) => key === `${method} ${path}` || shapeOf(key) === shapeOf(`${method} ${path}`),
  );
}

describe("docs/api.md", () => {
  const calls = documentedCalls(readFileSync(API_DOC, "utf8"));

  test("names, for each call it documents, the table's Who", () => {
    const wrong = calls
      .map(({ line, call, who }) => {
        const key = keyOf(call);
        if (key === undefined) return `line ${line}: ${call} is no route of the permission table`;
        const want = whoOf((PERMISSIONS as Record<string, Permission>)[key] as Permission);
        return who === want
          ? undefined
          : `line ${line}: ${call} says Who "${who ?? "(no column)"}", the table "${want}"`;
      })
      .filter((problem) => problem !== undefined);
    expect(wrong).toEqual([]);
  });

  test("documents every route of the permission table", () => {
    const documented = new Set(calls.map(({ call }) => keyOf(call)));
    // Entries named for a plugin's files rather than a path (the web build's, the API reference's)
    // are documented in prose: the web app's pages section and the reference's row.
    const missing = Object.keys(PERMISSIONS).filter((key) => / \//.test(key) && !documented.has(key));
    expect(missing).toEqual([]);
  });
});

describe("whoOf", () => {
  test.each([
    [{ anyone: true }, "anyone"],
    [{ staff: ["user", "admin", "sysAdmin"] }, "user"],
    [{ staff: ["admin", "sysAdmin"], usersIf: "deleteRecords" }, "admin, user if `usersMay.deleteRecords`"],
    [{ staff: ["sysAdmin"] }, "sysAdmin"],
    [{ staff: ["admin"] }, "admin only"],
    [{ tablet: "self" }, "tablet (its hand-over)"],
    [
      { staff: ["user", "admin", "sysAdmin"], tablet: "survey", teleAwv: "survey" },
      "user, tablet (its survey), Tele-AWV link (its survey)",
    ],
    [{ teleAwv: "self" }, "Tele-AWV link (its invitation)"],
  ] satisfies [Permission, string][])("%j reads %s", (permission, words) => {
    expect(whoOf(permission)).toBe(words);
  });
});

describe("what a session may do (Me.may), derived from the table", () => {
  const USER = 1;
  const ADMIN = 2;
  const SYSADMIN = 4;

  test("follows each act's route: admins' acts for admins, a system admin's for them alone", () => {
    expect(mayOf(ADMIN, {})).toMatchObject({ manageUsers: true, removePatients: true, manageTenants: false });
    expect(mayOf(SYSADMIN, {})).toMatchObject({ manageTenants: true, visitTenants: true });
    expect(Object.values(mayOf(USER, {})).some(Boolean)).toBe(false);
  });

  test("a plain user gains an act the practice grants (usersMay) on the routes that allow it", () => {
    const may = mayOf(USER, {
      usersMay: { deleteRecords: true, resendDeliveries: false, acknowledgeAlerts: false },
    });
    expect(may).toMatchObject({ removePatients: true, removeResults: true, resendDeliveries: false });
  });

  test("a grant changed in the table changes the flag, and nothing else", () => {
    const changed = {
      ...PERMISSIONS,
      [UI_ACTION_ROUTES.editSurveys]: { staff: ["user", "admin"] },
    } as Record<string, Permission>;
    const before = mayOf(USER, {});
    const after = mayOf(USER, {}, changed);
    expect(after.editSurveys).toBe(true);
    expect({ ...after, editSurveys: false }).toEqual(before);
    const refused = { ...PERMISSIONS, [UI_ACTION_ROUTES.manageUsers]: { staff: ["sysAdmin"] } } as Record<
      string,
      Permission
    >;
    expect(mayOf(ADMIN, {}, refused).manageUsers).toBe(false);
  });

  test("names a route of the table for every act", () => {
    for (const key of Object.values(UI_ACTION_ROUTES)) expect(PERMISSIONS).toHaveProperty([key]);
  });
});
