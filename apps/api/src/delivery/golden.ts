import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { buildCda } from "./cda.js";
import { buildFhirBundle } from "./fhir.js";
import { buildOruR01 } from "./hl7-oru.js";
import type { DeliveryDocumentInput } from "./types.js";

/** Golden cases: `<case>.input.json` with its expected `.hl7`, `.cda.xml` and `.fhir.json`. */
export const GOLDEN_DIR = resolve(dirname(fileURLToPath(import.meta.url)), "../../testdata/delivery");

export interface GoldenOutputs {
  hl7: string;
  cda: string;
  fhir: string;
}

export const GOLDEN_EXTENSIONS = { hl7: ".hl7", cda: ".cda.xml", fhir: ".fhir.json" } as const;

export function goldenCases(): { name: string; input: DeliveryDocumentInput }[] {
  return readdirSync(GOLDEN_DIR)
    .filter((f) => f.endsWith(".input.json"))
    .sort()
    .map((f) => ({
      name: f.slice(0, -".input.json".length),
      input: JSON.parse(readFileSync(join(GOLDEN_DIR, f), "utf8")) as DeliveryDocumentInput,
    }));
}

/** The three documents of a case, as the files store them. */
export function renderGolden(input: DeliveryDocumentInput): GoldenOutputs {
  return {
    hl7: buildOruR01(input),
    cda: buildCda(input),
    fhir: `${JSON.stringify(buildFhirBundle(input), null, 2)}\n`,
  };
}

/** Rewrites every golden output from its input; run only after reviewing the change it makes. */
export function updateGolden(): string[] {
  const written: string[] = [];
  for (const { name, input } of goldenCases()) {
    const outputs = renderGolden(input);
    for (const key of Object.keys(GOLDEN_EXTENSIONS) as (keyof GoldenOutputs)[]) {
      const file = join(GOLDEN_DIR, name + GOLDEN_EXTENSIONS[key]);
      writeFileSync(file, outputs[key]);
      written.push(file);
    }
  }
  return written;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  for (const file of updateGolden()) console.log(`wrote ${file}`);
}
