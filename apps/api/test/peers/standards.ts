import { execFile } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { Ajv, type ValidateFunction } from "ajv";
import draft6 from "ajv/dist/refs/json-schema-draft-06.json" with { type: "json" };

const run = promisify(execFile);
const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../../../..");

/**
 * The shared standards folder, which sits beside the repository clone (locally and in CI).
 * Throws when it is missing: a validation that cannot run must fail, never pass silently.
 */
export function standardsDir(): string {
  const dir = resolve(REPO_ROOT, "../shared/standards");
  if (!existsSync(join(dir, "loinc-awv.csv"))) {
    throw new Error(`shared standards not found at ${dir}; they must sit beside the repository`);
  }
  return dir;
}

/** Validates a CDA document with xmllint against CDA_SDTC.xsd (CDA R2 with the SDTC extensions). */
export async function validateCda(xml: string): Promise<{ valid: boolean; errors: string }> {
  const xsd = join(standardsDir(), "cda/extensions/SDTC/infrastructure/cda/CDA_SDTC.xsd");
  const dir = await mkdtemp(join(tmpdir(), "cda-"));
  try {
    const file = join(dir, "document.xml");
    await writeFile(file, xml);
    try {
      await run("xmllint", ["--noout", "--nonet", "--schema", xsd, file]);
      return { valid: true, errors: "" };
    } catch (error) {
      const e = error as { code?: unknown; stderr?: string };
      if (e.code === "ENOENT") throw new Error("xmllint is not installed (Debian package libxml2-utils)");
      return { valid: false, errors: e.stderr ?? String(error) };
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

let fhirValidator: ValidateFunction | undefined;

/** The official FHIR R4 JSON schema (draft-06), compiled once per process. */
export function validateFhir(resource: unknown): { valid: boolean; errors: string } {
  if (!fhirValidator) {
    const { id, ...schema } = JSON.parse(
      readFileSync(join(standardsDir(), "fhir/fhir.schema.json"), "utf8"),
    ) as Record<string, unknown>;
    const ajv = new Ajv({ strict: false, allErrors: true });
    ajv.addMetaSchema(draft6);
    // draft-06 names the schema with "id"; Ajv 8 reads only "$id".
    fhirValidator = ajv.compile({ ...schema, $id: String(id) });
  }
  const valid = fhirValidator(resource);
  return { valid, errors: valid ? "" : JSON.stringify(fhirValidator.errors?.slice(0, 10)) };
}

/** Rows of shared/standards/loinc-awv.csv as objects keyed by the header. */
export function loincCsvRows(): Record<string, string>[] {
  const text = readFileSync(join(standardsDir(), "loinc-awv.csv"), "utf8");
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = "";
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else cell += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ",") {
      row.push(cell);
      cell = "";
    } else if (ch === "\n") {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = "";
    } else if (ch !== "\r") cell += ch;
  }
  if (cell !== "" || row.length > 0) rows.push([...row, cell]);
  const [header, ...body] = rows;
  return body.map((r) => Object.fromEntries(header!.map((h, i) => [h, r[i] ?? ""])));
}
