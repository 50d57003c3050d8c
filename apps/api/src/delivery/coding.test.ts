import { teleAwvSurvey } from "@core-care/survey-engine";
import { describe, expect, test } from "vitest";
import { leafQuestions } from "./answers.js";
import { codeAnswer, fieldCoding, PHQ9_ITEMS } from "./coding.js";
import type { DeliveryQuestion } from "./types.js";

const questions = new Map<string, DeliveryQuestion>(
  teleAwvSurvey.pages.flatMap((p) => leafQuestions(p.questions)).map((q) => [q.fieldName, q]),
);

describe("coding of the built-in Tele-AWV questionnaire", () => {
  test("finds every PHQ-9 item under one of its field names", () => {
    for (const item of PHQ9_ITEMS) {
      const field = item.fields.find((f) => questions.has(f));
      expect(field, item.coding.code).toBeDefined();
      expect(fieldCoding(field!).question?.code).toBe(item.coding.code);
    }
  });

  test.each([
    "depression.phq9LittleInterest",
    "depression.phq9Hopeless",
    "depression.difficulty",
    "social.smokeYesNoQuit",
    "social.drinksPerDay",
    "social.sixDrinks",
    "directives.livingWill",
    "directives.poa",
    "directives.dnr",
  ])("codes every choice of %s by its value or label", (field) => {
    const question = questions.get(field);
    expect(question?.choices?.length).toBeGreaterThan(1);
    for (const choice of question!.choices!) {
      const coded = codeAnswer(field, choice.value) ?? codeAnswer(field, choice.label);
      expect(coded, `${field} = ${String(choice.value)}`).toBeDefined();
    }
  });

  test("reads 'quit' and 'quitRecent' as former smoker and 'yes' as a current smoker", () => {
    expect(codeAnswer("social.smokeYesNoQuit", "quitRecent")?.display).toBe("Former smoker");
    expect(codeAnswer("social.smokeYesNoQuit", "quit")?.display).toBe("Former smoker");
    expect(codeAnswer("social.smokeYesNoQuit", "never")?.display).toBe("Never smoker");
    expect(codeAnswer("social.smokeYesNoQuit", "yes")?.display).toBe("Smoker current status unknown");
  });
});
