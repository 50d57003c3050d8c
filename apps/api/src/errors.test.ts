import { describe, expect, test } from "vitest";
import { fieldError, fieldInWords, fieldMessage } from "./errors.js";

describe("fieldInWords", () => {
  test.each([
    ["dob", "Date of birth"],
    ["oldPassword", "Current password"],
    ["firstName", "First name"],
    ["address.zip", "Address zip"],
    ["settings.teleAwvEmail", "Settings tele awv email"],
    ["id", "Id"],
    ["", "A field"],
  ])("calls %j %j", (field, words) => {
    expect(fieldInWords(field)).toBe(words);
  });
});

describe("fieldMessage", () => {
  test("keeps a message that says what it is about, and names the field before any other", () => {
    expect(fieldMessage("confirmPassword", "The passwords do not match.")).toBe(
      "The passwords do not match.",
    );
    expect(fieldMessage("id", "Must be lowercase letters, digits and hyphens.")).toBe(
      "Id: Must be lowercase letters, digits and hyphens.",
    );
  });

  test("never puts a code name such as oldPassword in front of the message", () => {
    const error = fieldError("oldPassword", "Must be at least 15 characters.");
    expect(error.message).toBe("Current password: Must be at least 15 characters.");
    expect(error.errors).toEqual([{ field: "oldPassword", message: "Must be at least 15 characters." }]);
  });
});
