// Checks docs/spec-coverage.md: every row names at least one test, and every test it names exists,
// found by its file and by the titles of its describe blocks and itself, as the document's header says.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";

const root = join(import.meta.dirname, "..");
const doc = readFileSync(join(root, "docs/spec-coverage.md"), "utf8");
const problems = [];
let references = 0;
let rows = 0;

/** Whether a title stands in the source as a string: between quotes or backquotes, escaped as needed. */
const quoted = (source, title) =>
  ['"', "'", "`"].some((q) => source.includes(`${q}${title.replaceAll(q, `\\${q}`)}${q}`));

for (const line of doc.split("\n")) {
  const row = /^\|\s*(\d+\.\d+[a-z]?)\s*\|/.exec(line);
  if (row === null) continue;
  rows++;
  const refs = [...line.matchAll(/`([^`]+ › [^`]+)`/g)].map((m) => m[1]);
  if (refs.length === 0) problems.push(`${row[1]}: no test named`);
  for (const ref of refs) {
    references++;
    const [file, ...titles] = ref.split(" › ");
    const path = join(root, file);
    if (!existsSync(path)) {
      problems.push(`${row[1]}: ${file} does not exist`);
      continue;
    }
    const source = readFileSync(path, "utf8");
    for (const title of titles) {
      if (!quoted(source, title))
        problems.push(`${row[1]}: ${file} has no test or describe titled "${title}"`);
    }
  }
}

if (rows === 0) problems.push("docs/spec-coverage.md has no requirement rows");
for (const problem of problems) console.error(problem);
console.log(
  `spec coverage: ${rows} requirements, ${references} test references, ${problems.length} problems`,
);
if (problems.length > 0) process.exit(1);
