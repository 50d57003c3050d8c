import { PGlite } from "@electric-sql/pglite";
import pg from "pg";
import { afterAll } from "vitest";

// The 'unit' project (vitest.config.ts) runs `*.test.ts` files with no database built first and without
// the tenant-routing check. A file that opens a database belongs in the database projects: here every
// way one is opened fails the file, saying so. A PostgreSQL connection (the server's, or PGlite's
// through src/db/index.ts) is refused, as is an in-process PGlite; test/helpers.ts refuses its databases
// and server storage for want of a database kind.

const GUARD = Symbol.for("core-care.unit-file");
type Guard = { active: boolean };
const holder = globalThis as { [GUARD]?: Guard };

/** Makes every way of opening a database fail while `guard.active`; once per process. */
function install(guard: Guard) {
  const refused = () =>
    new Error(
      "a unit test file (*.test.ts) opens no database: name it *.int.test.ts to run it on the databases",
    );
  /** `owner[name]` answers `refuse(args)` instead of running while the guard is active. */
  const refuseWhileActive = (owner: object, name: string, refuse: (args: unknown[]) => unknown) => {
    const original = Reflect.get(owner, name) as (...args: unknown[]) => unknown;
    Reflect.set(owner, name, function (this: unknown, ...args: unknown[]) {
      return guard.active ? refuse(args) : Reflect.apply(original, this, args);
    });
  };

  // node-postgres: `connect()` answers a promise, `connect(callback)` calls back.
  refuseWhileActive(pg.Client.prototype, "connect", ([callback]) => {
    if (typeof callback !== "function") return Promise.reject(refused());
    process.nextTick(callback, refused());
    return undefined;
  });
  // An in-process PGlite: `PGlite.create()`, and any use of one made with `new PGlite()`.
  const rejected = () => Promise.reject(refused());
  refuseWhileActive(PGlite, "create", rejected);
  for (const method of ["query", "exec", "transaction", "execProtocol", "execProtocolRaw", "dumpDataDir"]) {
    refuseWhileActive(PGlite.prototype, method, rejected);
  }
}

const guard: Guard = holder[GUARD] ?? { active: false };
if (holder[GUARD] === undefined) {
  holder[GUARD] = guard;
  install(guard);
}
// Set for this file only: a worker may run another project's file next (the modules are shared).
guard.active = true;
afterAll(() => {
  guard.active = false;
});
