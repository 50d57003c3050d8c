import { describe, expect, test } from "vitest";
import { PROTECTED_FIELD_NAMES, protectedFields, withoutFields } from "./protected-fields.js";
import type { Page } from "./types.js";

describe("protectedFields", () => {
  test("lists the spec's names when no question is flagged", () => {
    expect(protectedFields({ pages: [] })).toEqual([
      "name",
      "email",
      "address.street",
      "address.city",
      "address.state",
      "address.zip",
      "firstName",
      "lastName",
      "ssn",
      "phone",
      "dob",
      "patientId",
      "sex",
      "age",
      "mrn",
    ]);
  });

  test("adds questions flagged pii, nested ones as parent.child, once each", () => {
    const page: Page = {
      id: "p",
      title: "p",
      conditions: [],
      questions: [
        { id: "1", type: "text", fieldName: "nickname", title: "", pii: true },
        { id: "2", type: "text", fieldName: "mood", title: "" },
        {
          id: "3",
          type: "group",
          fieldName: "emergency",
          title: "",
          fields: [
            { id: "4", type: "phone", fieldName: "phone", title: "", pii: true },
            { id: "5", type: "text", fieldName: "relation", title: "" },
          ],
        },
        { id: "6", type: "email", fieldName: "email", title: "", pii: true },
      ],
    };
    const fields = protectedFields({ pages: [page] });
    expect(fields).toEqual([...PROTECTED_FIELD_NAMES, "nickname", "emergency.phone"]);
  });
});

describe("withoutFields", () => {
  test("removes each dotted path at any depth and inside arrays, leaving the input unchanged", () => {
    const data = {
      results: [
        {
          id: "r1",
          patientId: "p1",
          answers: { firstName: "Ann", address: { city: "X", note: "keep" }, w: 70 },
        },
        { id: "r2", answers: { nested: { firstName: "Bo" } } },
      ],
    };
    const copy = JSON.parse(JSON.stringify(data)) as unknown;
    expect(withoutFields(data, ["firstName", "address.city", "patientId"])).toEqual({
      results: [
        { id: "r1", answers: { address: { note: "keep" }, w: 70 } },
        { id: "r2", answers: { nested: {} } },
      ],
    });
    expect(data).toEqual(copy);
  });
});
