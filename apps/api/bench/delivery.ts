/**
 * Delivery documents built per second: HL7 v2.5.1 ORU^R01, CDA R2 and FHIR R4 Bundles from the
 * golden Tele-AWV-style case, each builder run for BENCH_SECONDS (default 2) after a warm-up.
 * Run: pnpm --filter @core-care/api exec tsx --conditions=source bench/delivery.ts
 */
import { buildCda } from "../src/delivery/cda.js";
import { buildFhirBundle } from "../src/delivery/fhir.js";
import { goldenCases } from "../src/delivery/golden.js";
import { buildOruR01 } from "../src/delivery/hl7-oru.js";

const seconds = Number(process.env.BENCH_SECONDS ?? 2);
const input = goldenCases().find((c) => c.name === "awv-full")?.input;
if (input === undefined) throw new Error("golden case awv-full is missing");

function measure(name: string, build: (controlId: string) => string): number {
  for (let i = 0; i < 200; i++) build(`WARM${i}`);
  let count = 0;
  const start = process.hrtime.bigint();
  const end = start + BigInt(Math.round(seconds * 1e9));
  while (process.hrtime.bigint() < end) {
    build(`B${count}`);
    count++;
  }
  const elapsed = Number(process.hrtime.bigint() - start) / 1e9;
  const perSecond = count / elapsed;
  console.log(
    `${name.padEnd(22)} ${perSecond.toFixed(0).padStart(8)} documents/s  (${count} in ${elapsed.toFixed(2)} s)`,
  );
  return perSecond;
}

console.log(`delivery builders, ${seconds} s each, golden case awv-full`);
measure("HL7 v2.5.1 ORU^R01", (controlId) => buildOruR01({ ...input, controlId }));
measure("CDA R2 (C-CDA 2.1)", (controlId) => buildCda({ ...input, controlId }));
measure("FHIR R4 Bundle", (controlId) => JSON.stringify(buildFhirBundle({ ...input, controlId })));
