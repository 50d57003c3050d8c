import { describe, expect, test } from "vitest";
import { MESSAGES, formatMessage } from "./messages.js";
import type { Page, Question, QuestionType } from "./types.js";
import { validatePage, validateSurvey } from "./validation.js";

const q = (type: QuestionType, fieldName: string, extra: Partial<Question> = {}): Question => ({
  id: fieldName,
  type,
  fieldName,
  title: fieldName,
  ...extra,
});
const pageOf = (...questions: Question[]): Page => ({ id: "p", title: "p", conditions: [], questions });
const yesNo = [
  { value: "yes", label: "Yes" },
  { value: "no", label: "No" },
];

describe("MESSAGES", () => {
  test("holds the spec's exact texts", () => {
    expect(MESSAGES.required).toBe("This field is required.");
    expect(MESSAGES.dietRequired).toBe('Please select "I don\'t follow a diet" or the diet(s) you follow.');
    expect(MESSAGES.householdRequired).toBe(
      'Please select "I live alone" or indicate the members of your household.',
    );
    expect(MESSAGES.painLocationRequired).toBe(
      "You indicated you experienced pain in the last 3 months.  Please indicate where you are hurting.",
    );
    expect(formatMessage(MESSAGES.fieldRequired, { name: "title" })).toBe('Field "title" is required.');
  });
});

describe("validatePage", () => {
  test.each<[QuestionType, unknown]>([
    ["text", undefined],
    ["text", ""],
    ["text", "   "],
    ["textarea", "\n\t "],
    ["select", ""],
    ["select", undefined],
    ["radio", undefined],
    ["radio", null],
    ["yesno", undefined],
    ["number", undefined],
    ["date", ""],
    ["email", " "],
    ["phone", ""],
    ["scale", undefined],
  ])("reports a required %s answered %j", (type, value) => {
    const question = q(type, "field", { required: true, choices: yesNo });
    expect(validatePage(pageOf(question), { field: value })).toEqual([
      { code: "required", field: "field", message: "This field is required.", messageId: "required" },
    ]);
  });

  test.each<[QuestionType, unknown]>([
    ["text", "x"],
    ["textarea", " a "],
    ["select", "b"],
    ["radio", "0"],
    ["yesno", "no"],
    ["number", 0],
    ["scale", 5],
    ["date", "2026-11-21"],
    ["email", "pat@example.org"],
    ["phone", "555-1234"],
  ])("accepts a required %s answered %j", (type, value) => {
    const question = q(type, "field", { required: true, choices: yesNo, min: 0, max: 10 });
    expect(validatePage(pageOf(question), { field: value })).toEqual([]);
  });

  test("accepts blank answers of questions that are not required", () => {
    expect(validatePage(pageOf(q("text", "a"), q("radio", "b"), q("checkbox", "c")), {})).toEqual([]);
  });

  test("reports a required checkbox group with nothing chosen", () => {
    const question = q("checkbox", "colors", { required: true, choices: yesNo });
    expect(validatePage(pageOf(question), { colors: [] })).toEqual([
      { code: "required", field: "colors", message: MESSAGES.required, messageId: "required" },
    ]);
    expect(validatePage(pageOf(question), { colors: ["yes"] })).toEqual([]);
  });

  test("never requires a hidden question", () => {
    const hidden = q("text", "detail", {
      required: true,
      visibleWhen: [{ fieldName: "show", action: "Equals", fieldValue: "yes" }],
    });
    expect(validatePage(pageOf(hidden), {})).toEqual([]);
    expect(validatePage(pageOf(hidden), { show: "yes" })).toHaveLength(1);
  });

  test("reads globals from the context", () => {
    const question = q("text", "note", {
      required: true,
      visibleWhen: [{ fieldName: "tenant.id", action: "Equals", fieldValue: "t1" }],
    });
    expect(validatePage(pageOf(question), {}, { tenant: { id: "t1" } })).toHaveLength(1);
    expect(validatePage(pageOf(question), {}, { tenant: { id: "t2" } })).toEqual([]);
  });

  test("validates group fields under the group's path", () => {
    const group = q("group", "address", {
      fields: [q("text", "street", { required: true }), q("html", "note")],
    });
    expect(validatePage(pageOf(group), { address: { street: " " } })).toEqual([
      { code: "required", field: "address.street", message: MESSAGES.required, messageId: "required" },
    ]);
    expect(validatePage(pageOf(group), { address: { street: "1 Main St" } })).toEqual([]);
  });

  describe("checkbox groups with per-choice fields and a none option", () => {
    const diets = q("checkbox", "social.diets", {
      required: true,
      noneValue: "none",
      requiredMessage: MESSAGES.dietRequired,
      choices: [
        { value: "none", label: "I don't follow a diet", fieldName: "social.diets0" },
        { value: "lowSalt", label: "Low salt", fieldName: "social.diets1" },
        { value: "lowFat", label: "Low fat", fieldName: "social.diets2" },
      ],
    });

    test("reports the group's own message when nothing is checked", () => {
      expect(validatePage(pageOf(diets), {})).toEqual([
        { code: "groupRequired", field: "social.diets", message: MESSAGES.dietRequired },
      ]);
    });

    test("accepts the none option or any diets", () => {
      expect(validatePage(pageOf(diets), { social: { diets0: "none" } })).toEqual([]);
      expect(validatePage(pageOf(diets), { social: { diets1: "lowSalt", diets2: "lowFat" } })).toEqual([]);
    });

    test("refuses the none option together with another choice", () => {
      expect(validatePage(pageOf(diets), { social: { diets0: "none", diets2: "lowFat" } })).toEqual([
        { code: "noneExclusive", field: "social.diets", message: MESSAGES.dietRequired },
      ]);
    });

    test("names the none option when the group has no message of its own", () => {
      const plain = q("checkbox", "allergies", {
        noneValue: "none",
        choices: [
          { value: "none", label: "No known allergies" },
          { value: "latex", label: "Latex" },
        ],
      });
      expect(validatePage(pageOf(plain), { allergies: ["none", "latex"] })).toEqual([
        {
          code: "noneExclusive",
          field: "allergies",
          message: 'Please choose either "No known allergies" or other options, not both.',
          messageId: "noneExclusive",
          params: { none: "No known allergies" },
        },
      ]);
    });
  });

  test.each<[Partial<Question>, unknown, string | null]>([
    [{ type: "number" }, "abc", "invalidNumber"],
    [{ type: "number" }, "12", null],
    [{ type: "number", min: 1, max: 5 }, 6, "outOfRange"],
    [{ type: "number", min: 1 }, 0, "outOfRange"],
    [{ type: "number", max: 1 }, 2, "outOfRange"],
    [{ type: "scale", min: 0, max: 10 }, 10, null],
    [{ type: "email" }, "not-an-address", "invalidEmail"],
    [{ type: "email" }, "a@b.co", null],
    [{ type: "date" }, "2026-02-30", "invalidDate"],
    [{ type: "date" }, "21/11/2026", "invalidDate"],
    [{ type: "date" }, "2024-02-29", null],
    [{ type: "phone" }, "abc", "invalidPhone"],
    [{ type: "phone" }, "555-12a-4567", "invalidPhone"],
    [{ type: "phone" }, "555-123-4567", null],
    [{ type: "phone" }, "12345", null],
  ])("checks the format of %j answered %j", (extra, value, code) => {
    const question = { ...q("text", "f"), ...extra };
    const issues = validatePage(pageOf(question), { f: value });
    expect(issues.map((issue) => issue.code)).toEqual(code === null ? [] : [code]);
  });

  test("words range messages by the bounds given", () => {
    const message = (extra: Partial<Question>, value: number) =>
      validatePage(pageOf(q("number", "n", extra)), { n: value })[0]?.message;
    expect(message({ min: 1, max: 5 }, 9)).toBe("Please enter a value from 1 to 5.");
    expect(message({ min: 1 }, 0)).toBe("Please enter a value of at least 1.");
    expect(message({ max: 5 }, 9)).toBe("Please enter a value of at most 5.");
  });

  test("names the message and its values so an app can word it in the patient's language", () => {
    const [range] = validatePage(pageOf(q("number", "n", { min: 1, max: 5 })), { n: 9 });
    expect(range).toMatchObject({ messageId: "outOfRange", params: { min: 1, max: 5 } });
    const [phone] = validatePage(pageOf(q("phone", "p")), { p: "call me" });
    expect(phone).toEqual({
      code: "invalidPhone",
      field: "p",
      message: "Please enter digits only.",
      messageId: "invalidPhone",
    });
  });

  test("gives a question's own required message without a message id", () => {
    const [own] = validatePage(pageOf(q("text", "t", { required: true, requiredMessage: "Tell us." })), {});
    expect(own).toEqual({ code: "required", field: "t", message: "Tell us." });
  });

  test("lists issues in page order", () => {
    const issues = validatePage(
      pageOf(q("text", "a", { required: true }), q("radio", "b", { required: true })),
      {},
    );
    expect(issues.map((issue) => issue.field)).toEqual(["a", "b"]);
  });
});

describe("validateSurvey", () => {
  test("validates only the pages that show", () => {
    const survey = {
      pages: [
        pageOf(q("text", "a", { required: true })),
        {
          ...pageOf(q("text", "b", { required: true })),
          conditions: [{ fieldName: "a", action: "Equals", fieldValue: "more" }],
        },
      ],
    };
    expect(validateSurvey(survey, {}).map((issue) => issue.field)).toEqual(["a"]);
    expect(validateSurvey(survey, { a: "more" }).map((issue) => issue.field)).toEqual(["b"]);
  });
});
