import { readFileSync } from "node:fs";
import { join } from "node:path";
import { Hl7Message } from "@medplum/core";
import { describe, expect, test } from "vitest";
import { standardsDir, validateCda, validateFhir } from "../../test/peers/standards.js";
import { answerItems, phqScores } from "./answers.js";
import { GOLDEN_DIR, GOLDEN_EXTENSIONS, goldenCases, renderGolden } from "./golden.js";

const cases = goldenCases();
const golden = (name: string, ext: string) => readFileSync(join(GOLDEN_DIR, name + ext), "utf8");

describe("delivery golden cases", () => {
  test("finds the shared standards and at least two cases", () => {
    expect(standardsDir()).toMatch(/standards$/);
    expect(cases.length).toBeGreaterThanOrEqual(2);
  });

  describe.each(cases)("$name", ({ name, input }) => {
    const outputs = renderGolden(input);

    test("builds the stored HL7, CDA and FHIR documents byte for byte", () => {
      expect(outputs.hl7).toBe(golden(name, GOLDEN_EXTENSIONS.hl7));
      expect(outputs.cda).toBe(golden(name, GOLDEN_EXTENSIONS.cda));
      expect(outputs.fhir).toBe(golden(name, GOLDEN_EXTENSIONS.fhir));
    });

    test("gives an ORU^R01 that Medplum's HL7 parser reads back", () => {
      const text = golden(name, GOLDEN_EXTENSIONS.hl7);
      // Every segment ends with CR, the last one too (HL7 v2.5.1 §2.5.1); no other line ending.
      expect(text.endsWith("\r")).toBe(true);
      expect(text).not.toContain("\n");
      const message = Hl7Message.parse(text.slice(0, -1));
      expect(message.getSegment("MSH")?.getField(18).toString()).toBe("UNICODE UTF-8");
      expect(message.getSegment("MSH")?.getField(9).toString()).toBe("ORU^R01^ORU_R01");
      expect(message.getSegment("MSH")?.getField(10).toString()).toBe(input.controlId);
      expect(message.getSegment("MSH")?.getField(12).toString()).toBe("2.5.1");
      expect(message.segments.map((s) => s.name).slice(0, 5)).toEqual(["MSH", "PID", "PV1", "ORC", "OBR"]);
      expect(message.getSegment("PID")?.getComponent(5, 1)).toBe(input.patient.lastName);
      expect(message.getSegment("PID")?.getField(7).toString()).toBe(input.patient.dob.replaceAll("-", ""));
      const scores = phqScores(input.result.answers);
      const expectedObx = answerItems(input.survey, input.result.answers).length + Object.keys(scores).length;
      const obx = message.getAllSegments("OBX");
      expect(obx).toHaveLength(expectedObx);
      obx.forEach((segment, i) => {
        expect(segment.getField(1).toString()).toBe(String(i + 1));
        expect(["CWE", "NM", "ST", "DT", "FT"]).toContain(segment.getField(2).toString());
        expect(segment.getField(11).toString()).toBe("F");
      });
      if (scores.phq9 !== undefined) {
        const total = obx.find((s) => s.getComponent(3, 1) === "44261-6");
        expect(total?.getField(5).toString()).toBe(String(scores.phq9));
      }
    });

    test("gives a CDA document that validates against CDA_SDTC.xsd", async () => {
      const result = await validateCda(golden(name, GOLDEN_EXTENSIONS.cda));
      expect(result.errors).toBe("");
      expect(result.valid).toBe(true);
    });

    test("gives a FHIR Bundle whose resources validate against the FHIR R4 schema", () => {
      const bundle = JSON.parse(golden(name, GOLDEN_EXTENSIONS.fhir)) as {
        entry: { resource: { resourceType: string } }[];
      };
      expect(validateFhir(bundle)).toEqual({ valid: true, errors: "" });
      expect(bundle.entry.map((e) => e.resource.resourceType)).toEqual([
        "Questionnaire",
        "QuestionnaireResponse",
      ]);
      for (const entry of bundle.entry) expect(validateFhir(entry.resource).valid).toBe(true);
    });
  });
});

describe("independent validators", () => {
  test("xmllint rejects a CDA document that breaks the schema", async () => {
    const broken = golden(cases[0]!.name, GOLDEN_EXTENSIONS.cda).replace(
      /<recordTarget>[\s\S]*<\/recordTarget>/,
      "",
    );
    const result = await validateCda(broken);
    expect(result.valid).toBe(false);
    expect(result.errors).toMatch(/recordTarget|author/);
  });

  test("the FHIR schema rejects a QuestionnaireResponse with an unknown status", () => {
    expect(validateFhir({ resourceType: "QuestionnaireResponse", status: "sent" }).valid).toBe(false);
  });
});
