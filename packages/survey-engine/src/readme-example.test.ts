import { describe, expect, test } from "vitest";
import { shouldDisplayPage, validatePage, type Page } from "./index.js";

describe("README example", () => {
  test("shows the page and reports the blank required answer", () => {
    const page: Page = {
      id: "p1",
      title: "Pain",
      conditions: [{ fieldName: "age", action: "Greater Than", fieldValue: 64 }],
      questions: [
        { id: "q1", type: "text", fieldName: "pain.where", title: "Where does it hurt?", required: true },
      ],
    };
    const context = { answers: { pain: { where: "  " } }, age: 70 };
    expect(shouldDisplayPage(page, context)).toBe(true);
    expect(validatePage(page, context.answers, context)).toEqual([
      { code: "required", field: "pain.where", message: "This field is required.", messageId: "required" },
    ]);
    expect(shouldDisplayPage(page, { ...context, age: 50 })).toBe(false);
  });
});
