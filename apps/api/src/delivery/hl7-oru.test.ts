import { Hl7Message } from "@medplum/core";
import { describe, expect, test } from "vitest";
import { buildCda } from "./cda.js";
import { buildMdmT02, buildOruR01, escapeHl7 } from "./hl7-oru.js";
import { goldenCases } from "./golden.js";

describe("escapeHl7", () => {
  test.each([
    ["a|b", "a\\F\\b"],
    ["a^b", "a\\S\\b"],
    ["a~b", "a\\R\\b"],
    ["a\\b", "a\\E\\b"],
    ["a&b", "a\\T\\b"],
    ["line1\r\nline2", "line1\\X0D\\\\X0A\\line2"],
    ["\\F\\", "\\E\\F\\E\\"],
  ])("escapes %j as %j", (raw, escaped) => {
    expect(escapeHl7(raw)).toBe(escaped);
  });
});

describe("buildOruR01", () => {
  const base = goldenCases().find((c) => c.name === "awv-full")!.input;

  test("keeps encoding characters in answers and names inside their field", () => {
    const input = {
      ...base,
      patient: { ...base.patient, lastName: "Smith|Jones^Jr~&" },
      result: { ...base.result, answers: { "social.occupationDetail": "x|y^z~w&v\\u" } },
    };
    const message = Hl7Message.parse(buildOruR01(input));
    expect(message.getSegment("PID")?.getField(5).toString()).toBe(
      "Smith\\F\\Jones\\S\\Jr\\R\\\\T\\^Ana María",
    );
    const obx = message.getAllSegments("OBX");
    expect(obx).toHaveLength(1);
    expect(obx[0]?.getField(5).toString()).toBe("x\\F\\y\\S\\z\\R\\w\\T\\v\\E\\u");
    expect(obx[0]?.getField(2).toString()).toBe("ST");
  });

  test("uses a different control id and the same content for another delivery", () => {
    const a = buildOruR01(base);
    const b = buildOruR01({ ...base, controlId: "other-control-id" });
    expect(Hl7Message.parse(b).getSegment("MSH")?.getField(10).toString()).toBe("other-control-id");
    expect(b.replace("other-control-id", base.controlId)).toBe(a);
  });

  test("sends no PHQ-9 total when an item is unanswered", () => {
    const answers = { depression: { phq9LittleInterest: "several days", phq9Hopeless: "several days" } };
    const message = Hl7Message.parse(buildOruR01({ ...base, result: { ...base.result, answers } }));
    const codes = message.getAllSegments("OBX").map((s) => s.getComponent(3, 1));
    expect(codes).toEqual(["44250-9", "44255-8", "55758-7"]);
  });
});

describe("buildMdmT02", () => {
  const input = goldenCases()[0]!.input;

  test("carries the CDA document base64-encoded in an ED OBX that Medplum reads back", () => {
    const cda = buildCda(input);
    const message = Hl7Message.parse(buildMdmT02(input, cda));
    expect(message.segments.map((s) => s.name)).toEqual(["MSH", "EVN", "PID", "PV1", "TXA", "OBX"]);
    expect(message.getSegment("MSH")?.getField(9).toString()).toBe("MDM^T02^MDM_T02");
    const obx = message.getSegment("OBX")!;
    expect(obx.getField(2).toString()).toBe("ED");
    expect(obx.getComponent(5, 4)).toBe("Base64");
    expect(Buffer.from(obx.getComponent(5, 5), "base64").toString("utf8")).toBe(cda);
  });
});
