import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import ts from "typescript";
import { describe, expect, test } from "vitest";

// The imports of apps/api/src, read from the files themselves by TypeScript's own pre-processor (every
// `import`, `export … from` and `import()`, type-only ones too: a type import still ties two modules
// together). Tests are left out: a test may reach anywhere to prove what it proves.

const SRC = import.meta.dirname;

/** The layers of the API, lowest first. A module imports its own layer or one below it, never above. */
const LAYERS: readonly { layer: string; holds: (file: string) => boolean }[] = [
  // The shared vocabulary: configuration, the one error type, the permission table, logging, the
  // response serialiser, the survey codes.
  { layer: "base", holds: (file) => !file.includes("/") && !TOP.has(file) },
  // Tables, connections and statement shapes.
  { layer: "db", holds: (file) => file.startsWith("db/") },
  // Business rules: take the database and the tenant first, know nothing of HTTP.
  { layer: "services", holds: (file) => file.startsWith("services/") },
  // Fastify plugins: sessions, access checks, the request guards, the web pages.
  { layer: "plugins", holds: (file) => file.startsWith("plugins/") },
  // The outbound delivery feature (its worker, formats and its own routes), then the inbound one,
  // which answers with the delivery's codecs.
  { layer: "delivery", holds: (file) => file.startsWith("delivery/") },
  { layer: "inbound", holds: (file) => file.startsWith("inbound/") },
  // Thin HTTP routes.
  { layer: "routes", holds: (file) => file.startsWith("routes/") },
  // The application and the processes that start it.
  { layer: "app", holds: (file) => TOP.has(file) },
];

/** The top-level files that assemble the application or are a process's entry. */
const TOP = new Set([
  "app.ts",
  "server.ts",
  "cluster.ts",
  "startup.ts",
  "seed.ts",
  "seed-cli.ts",
  "admin-cli.ts",
  "backup-cli.ts",
]);

function layerOf(file: string): number {
  const index = LAYERS.findIndex(({ holds }) => holds(file));
  if (index < 0) throw new Error(`${file} is in no layer`);
  return index;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.(ts|mts)$/.test(entry.name) && !/\.test\.ts$/.test(entry.name) && !entry.name.endsWith(".d.ts")
      ? [relative(SRC, path)]
      : [];
  });
}

/** Each module's imports of other modules of apps/api/src, by path from src. */
function importGraph(): Map<string, string[]> {
  const files = sourceFiles(SRC);
  const known = new Set(files);
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const { importedFiles } = ts.preProcessFile(readFileSync(join(SRC, file), "utf8"), true, true);
    const targets = importedFiles
      .map(({ fileName }) => fileName)
      .filter((name) => name.startsWith("."))
      .map((name) => relative(SRC, resolve(dirname(join(SRC, file)), name)).replace(/\.js$/, ".ts"))
      .filter((target) => known.has(target));
    graph.set(file, [...new Set(targets)]);
  }
  return graph;
}

/** Every circle of imports, each as the path that closes it (Tarjan's strongly connected components). */
function circles(graph: Map<string, string[]>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  let next = 0;
  const visit = (node: string) => {
    index.set(node, next);
    low.set(node, next);
    next += 1;
    stack.push(node);
    onStack.add(node);
    for (const target of graph.get(node) ?? []) {
      if (!index.has(target)) {
        visit(target);
        low.set(node, Math.min(low.get(node)!, low.get(target)!));
      } else if (onStack.has(target)) {
        low.set(node, Math.min(low.get(node)!, index.get(target)!));
      }
    }
    if (low.get(node) === index.get(node)) {
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(member);
      } while (member !== node);
      if (component.length > 1 || (graph.get(node) ?? []).includes(node)) found.push(component.sort());
    }
  };
  for (const node of graph.keys()) if (!index.has(node)) visit(node);
  return found;
}

describe("the imports of apps/api/src", () => {
  const graph = importGraph();

  test("are read: the scanner sees the modules and their imports", () => {
    // A scanner that read nothing would show no circle and no import upward.
    expect(graph.get("app.ts")).toEqual(expect.arrayContaining(["config.ts", "db/index.ts", "logging.ts"]));
    expect(graph.get("services/tele-awv.ts")).toContain("services/tele-awv-credential.ts");
    expect(graph.get("plugins/access.ts")).toContain("permissions.ts");
    expect(graph.size).toBeGreaterThan(100);
  });

  test("close no circle", () => {
    expect(circles(graph)).toEqual([]);
  });

  test("never run up a layer (services import no plugin, no route, no delivery)", () => {
    const upward = [...graph].flatMap(([file, targets]) =>
      targets
        .filter((target) => layerOf(target) > layerOf(file))
        .map(
          (target) =>
            `${file} (${LAYERS[layerOf(file)]!.layer}) -> ${target} (${LAYERS[layerOf(target)]!.layer})`,
        ),
    );
    expect(upward).toEqual([]);
  });

  test("the circle finder and the layer order catch what they are for", () => {
    const made = new Map([
      ["services/a.ts", ["services/b.ts"]],
      ["services/b.ts", ["services/a.ts"]],
      ["services/c.ts", ["plugins/auth.ts"]],
      ["plugins/auth.ts", []],
    ]);
    expect(circles(made)).toEqual([["services/a.ts", "services/b.ts"]]);
    expect(layerOf("services/c.ts")).toBeLessThan(layerOf("plugins/auth.ts"));
    expect(layerOf("routes/users/index.ts")).toBeGreaterThan(layerOf("services/users.ts"));
    expect(layerOf("permissions.ts")).toBeLessThan(layerOf("db/index.ts"));
  });
});
