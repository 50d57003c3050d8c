import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { standardsDir } from "../../../test/peers/standards.js";
import { CDA_TYPE_ID, DOCUMENT_CODE, TEMPLATE, TEMPLATED_DOCUMENT_CODES } from "./cda.js";

const dir = join(standardsDir(), "cda/examples");
const examples = [
  ...readdirSync(dir)
    .filter((f) => f.endsWith(".xml"))
    .map((f) => join(dir, f)),
  ...readdirSync(join(dir, "fragments")).map((f) => join(dir, "fragments", f)),
]
  .map((f) => readFileSync(f, "utf8"))
  .join("\n");

describe("CDA constants", () => {
  const { advanceDirectivesSection: _fromGuideOnly, ...exampled } = TEMPLATE;

  test.each(Object.entries(exampled))("template %s appears in the HL7 examples", (_name, template) => {
    expect(examples).toContain(`root="${template.root}"`);
    if ("extension" in template)
      expect(examples).toMatch(new RegExp(`root="${template.root}"\\s+extension="${template.extension}"`));
  });

  test("the type id is that of the HL7 C-CDA 2.1 example", () => {
    expect(examples).toContain(`extension="${CDA_TYPE_ID.extension}" root="${CDA_TYPE_ID.root}"`);
  });

  test("the document code is one no C-CDA document template claims, as only the header template is sent", () => {
    expect(Object.keys(TEMPLATED_DOCUMENT_CODES)).not.toContain(DOCUMENT_CODE.code);
    // The CCD example pairs 34133-9 with the CCD template: the rule the list above encodes.
    expect(examples).toMatch(/root="2\.16\.840\.1\.113883\.10\.20\.22\.1\.2"[\s\S]*code="34133-9"/);
  });
});
