// Checks that every dependency of every package.json comes from the pnpm catalog (pnpm-workspace.yaml):
// a third-party package is written `catalog:` and named in the catalog, a package of this repository
// `workspace:*`, and the catalog names nothing that no package uses. One version of each library then
// holds across the repository, and an upgrade is one line (docs/dependencies.md).
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

const root = join(import.meta.dirname, "..");
const FIELDS = ["dependencies", "devDependencies", "optionalDependencies", "peerDependencies"];

/** The names of the workspace's `catalog:` map; the file is flat YAML, one `name: version` a line. */
function catalogNames(yaml) {
  const names = new Set();
  let inCatalog = false;
  for (const line of yaml.split("\n")) {
    if (/^\S/.test(line)) inCatalog = /^catalog:\s*$/.test(line);
    else if (inCatalog) {
      const entry = /^\s+("([^"]+)"|'([^']+)'|([^\s:#]+)):\s*\S/.exec(line);
      if (entry !== null) names.add(entry[2] ?? entry[3] ?? entry[4]);
    }
  }
  return names;
}

/** The workspace's package folders: the root and each `apps/*` and `packages/*` of pnpm-workspace.yaml. */
function packageFiles(yaml) {
  const globs = [...yaml.matchAll(/^\s+-\s+["']?([^"'\s]+)\/\*["']?\s*$/gm)].map((m) => m[1]);
  const files = ["package.json"];
  for (const folder of globs) {
    for (const name of readdirNames(join(root, folder))) files.push(`${folder}/${name}/package.json`);
  }
  return files;
}

function readdirNames(dir) {
  return readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && existsSync(join(dir, entry.name, "package.json")))
    .map((entry) => entry.name)
    .sort();
}

const yaml = readFileSync(join(root, "pnpm-workspace.yaml"), "utf8");
const catalog = catalogNames(yaml);
const files = packageFiles(yaml);
const own = new Set(files.map((file) => JSON.parse(readFileSync(join(root, file), "utf8")).name));
const used = new Set();
const problems = [];
let count = 0;

for (const file of files) {
  const pkg = JSON.parse(readFileSync(join(root, file), "utf8"));
  for (const field of FIELDS) {
    for (const [name, spec] of Object.entries(pkg[field] ?? {})) {
      count++;
      if (own.has(name)) {
        if (spec !== "workspace:*") problems.push(`${file} ${field}.${name}: "${spec}", not "workspace:*"`);
        continue;
      }
      used.add(name);
      if (spec !== "catalog:") problems.push(`${file} ${field}.${name}: "${spec}", not "catalog:"`);
      else if (!catalog.has(name)) problems.push(`${file} ${field}.${name}: not in the catalog`);
    }
  }
}
for (const name of catalog) {
  if (!used.has(name)) problems.push(`pnpm-workspace.yaml catalog.${name}: no package uses it`);
}

if (catalog.size === 0) problems.push("pnpm-workspace.yaml: no catalog read");
if (problems.length > 0) {
  console.error(`Dependencies outside the catalog (docs/dependencies.md):\n  ${problems.join("\n  ")}`);
  process.exit(1);
}
console.log(
  `catalog: ${count} dependencies of ${files.length} packages, all from the catalog's ${catalog.size}`,
);
