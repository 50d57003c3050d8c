import { describe, expect, test } from "vitest";
import { createPage, createQuestion, createSurvey, protectedFields } from "@core-care/survey-engine";
import { withoutProtectedFields } from "./report-data";

const data = {
  results: [
    {
      id: "r1",
      patientId: "p1",
      patientName: "Ann Smith",
      isSubmitted: true,
      answers: {
        firstName: "Ann",
        dob: "1950-01-01",
        address: { street: "1 Main St", city: "Austin", country: "US" },
        weight: 70,
        history: { notes: "private" },
      },
    },
  ],
};

describe("withoutProtectedFields", () => {
  test("removes the spec's protected names at any depth and the patient's name", () => {
    expect(withoutProtectedFields(data)).toEqual({
      results: [
        {
          id: "r1",
          isSubmitted: true,
          answers: { address: { country: "US" }, weight: 70, history: { notes: "private" } },
        },
      ],
    });
  });

  test("also removes questions flagged pii, nested as parent.child", () => {
    const survey = createSurvey({
      pages: [
        createPage({
          questions: [
            createQuestion("group", {
              fieldName: "history",
              fields: [createQuestion("textarea", { fieldName: "notes", pii: true })],
            }),
          ],
        }),
      ],
    });
    const stripped = withoutProtectedFields(data, protectedFields(survey)) as typeof data;
    expect(stripped.results[0]?.answers.history).toEqual({});
    expect(stripped.results[0]?.answers.weight).toBe(70);
  });

  test("keeps everything for a clinical report and never changes its input", () => {
    const copy = structuredClone(data);
    expect(withoutProtectedFields(data, undefined, true)).toBe(data);
    withoutProtectedFields(data);
    expect(data).toEqual(copy);
  });
});
