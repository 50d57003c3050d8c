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
}

/** Runs `pass` (one pass = `perPass` operations) until `SECONDS` have gone by, after a warm-up. */
function measure(name: string, perPass: number, pass: () => number): Row {
  let sink = pass();
  const started = performance.now();
  let operations = 0;
  let elapsed = 0;
  while (elapsed < SECONDS * 1000) {
    sink += pass();
    operations += perPass;
    elapsed = performance.now() - started;
  }
  if (sink < 0) console.log(sink);
  return { name, operations, milliseconds: elapsed };
}

const rate = (row: Row) => row.operations / (row.milliseconds / 1000);
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
const widths = [Math.max(...rows.map((row) => row.name.length)), 14, 10, 16];
const line = (cells: string[]) =>
  cells
    .map((cell, index) => (index === 0 ? cell.padEnd(widths[0] ?? 0) : cell.padStart(widths[index] ?? 0)))
    .join(" | ");

console.log(
  `\n${ANSWER_COUNT.toLocaleString("en-US")} generated answer objects; the page shows for ${shown.toLocaleString("en-US")}; both engines agree on all of them.\n`,
);
console.log(line(["benchmark", "operations", "ms", "per second"]));
console.log(widths.map((width) => "-".repeat(width)).join("-|-"));
for (const row of rows)
  console.log(line([row.name, format(row.operations), format(row.milliseconds), format(rate(row))]));

const pagesPerSecond = rate(ours);
const ratio = pagesPerSecond / rate(surveyJs);
console.log("");
console.log(
  `page evaluations per second: ${format(pagesPerSecond)} (target ${format(TARGET_PAGES_PER_SECOND)}): ${pagesPerSecond >= TARGET_PAGES_PER_SECOND ? "met" : "MISSED"}`,
);
console.log(
  `ratio to SurveyJS ConditionRunner: ${ratio.toFixed(1)}x (target ${TARGET_RATIO}x): ${ratio >= TARGET_RATIO ? "met" : "MISSED"}`,
);
