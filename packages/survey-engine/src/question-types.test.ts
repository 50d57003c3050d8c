import { describe, expect, test } from "vitest";
import {
  FHIR_ANSWER_KEYS,
  HL7_VALUE_TYPES,
  QUESTION_TYPE_DESCRIPTORS,
  QUESTION_TYPES,
  questionType,
  type QuestionTypeDescriptor,
} from "./question-types.js";
import type { Question } from "./types.js";

/** Every part a descriptor must have, as [path, what it must be]. */
const PARTS: readonly [
  string,
  (d: QuestionTypeDescriptor) => unknown,
  "function" | "string" | "object" | "boolean",
][] = [
  ["answer", (d) => d.answer, "string"],
  ["check", (d) => d.check, "function"],
  ["isEmpty", (d) => d.isEmpty, "function"],
  ["text", (d) => d.text, "function"],
  ["sample", (d) => d.sample, "function"],
  ["exportKind", (d) => d.exportKind, "function"],
  ["hl7.valueType", (d) => d.hl7?.valueType, "function"],
  ["fhir.itemType", (d) => d.fhir?.itemType, "function"],
  ["fhir.repeats", (d) => d.fhir?.repeats, "boolean"],
  ["csvColumns", (d) => d.csvColumns, "function"],
  ["designer.label", (d) => d.designer?.label, "string"],
  ["designer.fields", (d) => d.designer?.fields, "object"],
  ["designer.defaults", (d) => d.designer?.defaults, "function"],
];

const question = (type: Question["type"], extra: Partial<Question> = {}): Question => ({
  id: "q",
  type,
  fieldName: "f",
  title: "F",
  ...extra,
});

describe("every question type has a whole descriptor", () => {
  test("the descriptors are exactly the types, in the designer's order", () => {
    expect(Object.keys(QUESTION_TYPE_DESCRIPTORS)).toEqual([...QUESTION_TYPES]);
    expect(new Set(QUESTION_TYPES).size).toBe(QUESTION_TYPES.length);
  });

  describe.each(QUESTION_TYPES.map((type) => [type] as const))("%s", (type) => {
    const descriptor = QUESTION_TYPE_DESCRIPTORS[type];

    test.each(PARTS.map(([name, get, kind]) => [name, get, kind] as const))("has %s", (_name, get, kind) => {
      expect(typeof get(descriptor)).toBe(kind);
    });

    test("names its own type and gives well-formed parts", () => {
      expect(descriptor.type).toBe(type);
      expect(questionType(type)).toBe(descriptor);
      expect(["none", "fields", "value", "choice", "choices"]).toContain(descriptor.answer);
      expect(descriptor.designer.label.trim()).not.toBe("");
      const q = question(type, { ...descriptor.designer.defaults(), choices: [{ value: "a", label: "A" }] });
      const sample = descriptor.sample(q);
      if (descriptor.answer === "none" || descriptor.answer === "fields") {
        expect(sample).toBeUndefined();
      } else {
        // The sample is an answer the type's own check accepts, and is not empty.
        expect(descriptor.isEmpty(sample)).toBe(false);
        expect(descriptor.check(q, sample, "f")).toEqual([]);
        const kind = descriptor.exportKind(q, [sample]);
        expect(Object.keys(HL7_VALUE_TYPES)).toContain(kind);
        expect(descriptor.hl7.valueType(q, [sample])).toBe(HL7_VALUE_TYPES[kind]);
      }
      expect(Object.keys(FHIR_ANSWER_KEYS)).toContain(descriptor.fhir.itemType(q));
      expect(descriptor.isEmpty(undefined)).toBe(true);
      expect(descriptor.isEmpty("  ")).toBe(true);
      expect(descriptor.text("x", { value: "x", label: "Ex" })).toBe("Ex");
      const columns = descriptor.csvColumns(q, "pre");
      if (descriptor.answer === "none") expect(columns).toEqual([]);
      else if (descriptor.answer !== "fields") expect(columns).toEqual(["pre.f"]);
      const editable = descriptor.designer.fields;
      expect(editable.includes("title") || editable.includes("text")).toBe(true);
    });
  });

  test("a type the engine does not know is a free answer sent as text", () => {
    const unknown = questionType("signature");
    const q = { ...question("text"), type: "signature" } as unknown as Question;
    expect(unknown.answer).toBe("value");
    expect(unknown.exportKind(q, ["x"])).toBe("string");
    expect(unknown.fhir.itemType(q)).toBe("string");
    expect(questionType("__proto__")).toBe(unknown);
  });

  test("a group's columns are its fields', a per-choice checkbox group's one per choice", () => {
    const group = question("group", {
      fieldName: "address",
      fields: [question("text", { fieldName: "street" }), question("html", { fieldName: "" })],
    });
    expect(QUESTION_TYPE_DESCRIPTORS.group.csvColumns(group, "")).toEqual(["address.street"]);
    const perChoice = question("checkbox", {
      choices: [
        { value: "a", label: "A", fieldName: "f0" },
        { value: "b", label: "B", fieldName: "f1" },
      ],
    });
    expect(QUESTION_TYPE_DESCRIPTORS.checkbox.csvColumns(perChoice, "p")).toEqual(["p.f0", "p.f1"]);
  });
});
