import { availableParallelism } from "node:os";
import { configDefaults, defineConfig } from "vitest/config";

// Three projects, chosen by the file's name alone:
//   *.test.ts             'unit': opens no database; no global setup, nothing to build first
//                         (test/unit-setup.ts fails a unit file that opens one);
//   *.int.test.ts         'pglite', and 'postgres' when DATABASE_URL names a server: each file opens
//                         databases of its own, copied from one migrated database made per run;
//   *.pg.int.test.ts      'postgres' only (several server processes on one database);
//   *.pglite.int.test.ts  'pglite' only (a PGlite data folder on disk).
const databaseUrl = process.env.DATABASE_URL;
const INTEGRATION = ["src/**/*.int.test.ts", "test/**/*.int.test.ts"];

export default defineConfig({
  resolve: { conditions: ["source"] },
  ssr: { resolve: { conditions: ["source"], externalConditions: ["source"] } },
  test: {
    environment: "node",
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // expect.poll gives up after one second by default; a busy machine can take longer.
    expect: { poll: { timeout: 10_000 } },
    // The files share their worker's modules instead of importing the app anew each (about a quarter of
    // the suite's time); each file still opens databases of its own, and test/setup.ts resets the one
    // module cache that assumes a single database per process.
    isolate: false,
    // Two files at a time even on two cores (vitest's default there is one): a file spends most of its
    // time waiting on its databases, servers and peers, so the second keeps the cores busy. The suite
    // took 0.60x the time (500 s against 833 s, both databases), every test passing.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    // One report for every project of the run (.ci/summary.mjs counts it).
    reporters: ["default", "json"],
    outputFile: { json: ".reports/vitest.json" },
    projects: [
      {
        extends: true as const,
        test: {
          name: "unit",
          include: ["src/**/*.test.ts", "test/**/*.test.ts"],
          exclude: [...configDefaults.exclude, ...INTEGRATION],
          setupFiles: ["test/unit-setup.ts"],
        },
      },
      {
        extends: true as const,
        test: {
          name: "pglite",
          include: INTEGRATION,
          // Several server processes on one database: a PostgreSQL server's work only.
          exclude: [...configDefaults.exclude, "src/**/*.pg.int.test.ts"],
          globalSetup: ["test/global-setup.ts"],
          // After each file: every statement it sent filters tenant-owned tables on their tenant.
          setupFiles: ["test/setup.ts"],
          provide: { dbKind: "pglite", databaseUrl: "" },
        },
      },
      ...(databaseUrl === undefined || databaseUrl === ""
        ? []
        : [
            {
              extends: true as const,
              test: {
                name: "postgres",
                include: INTEGRATION,
                exclude: [...configDefaults.exclude, "src/**/*.pglite.int.test.ts"],
                globalSetup: ["test/global-setup.ts"],
                setupFiles: ["test/setup.ts"],
                provide: { dbKind: "postgres" as const, databaseUrl },
              },
            },
          ]),
    ],
  },
});
