import { cpus, loadavg } from "node:os";
import { ConditionRunner } from "survey-core";
import {
  compileConditions,
  createIdGenerator,
  evaluateConditions,
  objectId,
  shouldDisplayPage,
} from "../src/index.js";
import type { EvalContext, Page } from "../src/index.js";
import { generateAnswers, PAGE_CONDITIONS, SURVEYJS_EXPRESSION } from "./data.js";

const ANSWER_COUNT = 100_000;
const SECONDS = Number(process.env.BENCH_SECONDS ?? "1.5");
const TARGET_PAGES_PER_SECOND = 5_000_000;
const TARGET_RATIO = 25;

interface Row {
  name: string;
  operations: number;
  milliseconds: number;
  cpuMilliseconds: number;
}

function cpuMilliseconds(): number {
  const usage = process.cpuUsage();
  return (usage.user + usage.system) / 1000;
}

// Runs `pass` (one pass = `perPass` operations) until `SECONDS` have gone by, after a warm-up.
function measure(name: string, perPass: number, pass: () => number): Row {
  let sink = pass();
  const started = performance.now();
  const cpuStarted = cpuMilliseconds();
  let operations = 0;
  let elapsed = 0;
  while (elapsed < SECONDS * 1000) {
    sink += pass();
    operations += perPass;
    elapsed = performance.now() - started;
  }
  if (sink < 0) console.log(sink);
  return { name, operations, milliseconds: elapsed, cpuMilliseconds: cpuMilliseconds() - cpuStarted };
}

const rate = (row: Row) => row.operations / (row.milliseconds / 1000);
const cpuRate = (row: Row) => row.operations / (row.cpuMilliseconds / 1000);
const format = (value: number) => Math.round(value).toLocaleString("en-US");

const answers = generateAnswers(ANSWER_COUNT);
const contexts: EvalContext[] = answers.map((answer) => ({ answers: answer }));
const page: Page = { id: "bench", title: "bench", conditions: PAGE_CONDITIONS, questions: [] };
const runner = new ConditionRunner(SURVEYJS_EXPRESSION);

let agree = 0;
let shown = 0;
for (let i = 0; i < ANSWER_COUNT; i++) {
  const ours = evaluateConditions(PAGE_CONDITIONS, contexts[i] as EvalContext);
  const theirs = runner.runValues(answers[i] as Record<string, unknown>);
  if (ours === theirs) agree++;
  if (ours) shown++;
}
if (agree !== ANSWER_COUNT) {
  console.error(`The engines disagree on ${ANSWER_COUNT - agree} of ${ANSWER_COUNT} answer objects.`);
  process.exit(1);
}

const ours = measure("survey-engine shouldDisplayPage (5 conditions)", ANSWER_COUNT, () => {
  let count = 0;
  for (let i = 0; i < contexts.length; i++) if (shouldDisplayPage(page, contexts[i] as EvalContext)) count++;
  return count;
});
const prepared = compileConditions(PAGE_CONDITIONS);
const preparedRow = measure("survey-engine compileConditions, prepared once", ANSWER_COUNT, () => {
  let count = 0;
  for (let i = 0; i < contexts.length; i++) if (prepared(contexts[i] as EvalContext)) count++;
  return count;
});
const surveyJs = measure("survey-core ConditionRunner.runValues (same expression)", ANSWER_COUNT, () => {
  let count = 0;
  for (let i = 0; i < answers.length; i++)
    if (runner.runValues(answers[i] as Record<string, unknown>)) count++;
  return count;
});
const ID_BATCH = 100_000;
const ids = measure("objectId() (default generator)", ID_BATCH, () => {
  let length = 0;
  for (let i = 0; i < ID_BATCH; i++) length += objectId().length;
  return length;
});
const seeded = createIdGenerator({ now: () => 1_700_000_000_000, random: () => 0.5 });
const seededIds = measure("createIdGenerator().objectId() (fixed clock)", ID_BATCH, () => {
  let length = 0;
  for (let i = 0; i < ID_BATCH; i++) length += seeded.objectId().length;
  return length;
});

const rows = [ours, preparedRow, surveyJs, ids, seededIds];
const header = ["benchmark", "operations", "wall ms", "per wall second", "CPU ms", "per CPU second"];
const table = [
  header,
  ...rows.map((row) => [
    row.name,
    format(row.operations),
    format(row.milliseconds),
    format(rate(row)),
    format(row.cpuMilliseconds),
    format(cpuRate(row)),
  ]),
];
const widths = header.map((_, column) => Math.max(...table.map((cells) => (cells[column] ?? "").length)));
const line = (cells: string[]) =>
  cells
    .map((cell, index) => (index === 0 ? cell.padEnd(widths[0] ?? 0) : cell.padStart(widths[index] ?? 0)))
    .join(" | ");

const [load] = loadavg();
console.log(
  `\n${format(ANSWER_COUNT)} generated answer objects; the page shows for ${format(shown)}; both engines agree on all of them.`,
);
console.log(
  `${cpus().length} CPUs, load average ${(load ?? 0).toFixed(2)} (other work shares the CPUs; the CPU-time columns count this process only).\n`,
);
console.log(line(table[0] as string[]));
console.log(widths.map((width) => "-".repeat(width)).join("-|-"));
for (const cells of table.slice(1)) console.log(line(cells));

const summary = (label: string, measure: (row: Row) => number) => {
  const pagesPerSecond = measure(ours);
  const ratio = pagesPerSecond / measure(surveyJs);
  console.log(
    `${label}: ${format(pagesPerSecond)} page evaluations per second (target ${format(TARGET_PAGES_PER_SECOND)}: ${pagesPerSecond >= TARGET_PAGES_PER_SECOND ? "met" : "missed"}), ${ratio.toFixed(1)}x SurveyJS's ConditionRunner (target ${TARGET_RATIO}x: ${ratio >= TARGET_RATIO ? "met" : "missed"})`,
  );
};
console.log("");
summary("wall clock", rate);
summary("CPU time  ", cpuRate);
