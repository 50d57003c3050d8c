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

describe("buildOruR01 header, patient and value types", () => {
  const base = goldenCases().find((c) => c.name === "awv-full")!.input;

  test("names OID parties as HD universal ids, sends the processing id and UTF-8", () => {
    const input = {
      ...base,
      processingId: "T" as const,
      parties: {
        ...base.parties,
        sendingApplication: "2.16.840.1.113883.3.72.5.20",
        sendingFacility: "2.16.840.1.113883.3.72",
      },
    };
    const msh = Hl7Message.parse(buildOruR01(input)).getSegment("MSH")!;
    expect(msh.getField(3).toString()).toBe("^2.16.840.1.113883.3.72.5.20^ISO");
    expect(msh.getField(4).toString()).toBe("^2.16.840.1.113883.3.72^ISO");
    expect(msh.getField(5).toString()).toBe("EHR");
    expect(msh.getField(11).toString()).toBe("T");
    expect(msh.getField(18).toString()).toBe("UNICODE UTF-8");
  });

  test.each([
    [
      "Filipino",
      "Hispanic or Latino",
      "2028-9^Asian^CDCREC~2036-2^Filipino^CDCREC",
      "2135-2^Hispanic or Latino^CDCREC",
    ],
    ["Caucasian", "Non Hispanic or Latino", "2106-3^White^CDCREC", "2186-5^Not Hispanic or Latino^CDCREC"],
    ["Undetermined", "Other or Undetermined", "UNK^Unknown^NULLFL", "UNK^Unknown^NULLFL"],
  ])("codes race %s and ethnicity %s in PID-10 and PID-22", (race, ethnicity, pid10, pid22) => {
    const input = { ...base, patient: { ...base.patient, race, ethnicity } };
    const pid = Hl7Message.parse(buildOruR01(input)).getSegment("PID")!;
    expect(pid.getField(10).toString()).toBe(pid10);
    expect(pid.getField(22).toString()).toBe(pid22);
  });

  test("types a value by its question: NM for a scale stored as text, DT for a date, FT for several lines", () => {
    const survey = {
      ...base.survey,
      pages: [
        {
          id: "p1",
          questions: [
            { id: "a", type: "scale" as const, fieldName: "pain", title: "Pain", min: 0, max: 10 },
            { id: "b", type: "date" as const, fieldName: "since", title: "Since" },
            { id: "c", type: "textarea" as const, fieldName: "notes", title: "Notes" },
          ],
        },
      ],
    };
    const fromTablet = {
      ...base,
      survey,
      result: { ...base.result, answers: { pain: 7, since: "2026-01-15", notes: "a|b\nc" } },
    };
    const fromBatch = {
      ...fromTablet,
      result: { ...fromTablet.result, answers: { pain: "7", since: "2026-01-15", notes: "a|b\nc" } },
    };
    for (const input of [fromTablet, fromBatch]) {
      const obx = Hl7Message.parse(buildOruR01(input)).getAllSegments("OBX");
      expect(obx.map((o) => [o.getField(2).toString(), o.getField(5).toString()])).toEqual([
        ["NM", "7"],
        ["DT", "20260115"],
        ["FT", "a\\F\\b\\.br\\c"],
      ]);
    }
  });
});

describe("buildMdmT02", () => {
  const input = goldenCases()[0]!.input;

  test("carries the CDA document base64-encoded in an ED OBX that Medplum reads back", () => {
    const cda = buildCda(input);
    const built = buildMdmT02(input, cda);
    expect(built.endsWith("\r")).toBe(true);
    const message = Hl7Message.parse(built.slice(0, -1));
    expect(message.segments.map((s) => s.name)).toEqual(["MSH", "EVN", "PID", "PV1", "TXA", "OBX"]);
    // TXA-12, the unique document number, is the CDA document's own id.
    const documentId = /<id root="([^"]+)"\/>/.exec(cda)?.[1];
    expect(message.getSegment("TXA")?.getField(12).toString()).toBe(documentId);
    expect(message.getSegment("MSH")?.getField(9).toString()).toBe("MDM^T02^MDM_T02");
    const obx = message.getSegment("OBX")!;
    expect(obx.getField(2).toString()).toBe("ED");
    expect(obx.getComponent(5, 4)).toBe("Base64");
    expect(Buffer.from(obx.getComponent(5, 5), "base64").toString("utf8")).toBe(cda);
  });
});
