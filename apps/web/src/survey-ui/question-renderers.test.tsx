import { afterEach, describe, expect, test } from "vitest";
import { cleanup, render } from "@testing-library/react";
import {
  QUESTION_TYPE_DESCRIPTORS,
  QUESTION_TYPES,
  type Question,
  type QuestionType,
} from "@core-care/survey-engine";
import { QUESTION_RENDERERS, QuestionField, type FieldContext } from "./question-field";

afterEach(cleanup);

const ctx: FieldContext = { answers: {}, errors: new Map(), idPrefix: "t", onChange: () => undefined };

function questionOf(type: QuestionType): Question {
  return {
    id: "q",
    type,
    fieldName: "f",
    title: "The question",
    ...QUESTION_TYPE_DESCRIPTORS[type].designer.defaults(),
    ...(type === "group" ? { fields: [{ id: "g1", type: "text", fieldName: "inner", title: "Inner" }] } : {}),
    ...(type === "select" || type === "radio" || type === "checkbox"
      ? { choices: [{ value: "a", label: "A" }] }
      : {}),
  };
}

describe("every question type has a web renderer", () => {
  test("the registry holds exactly the engine's types", () => {
    expect(Object.keys(QUESTION_RENDERERS).sort()).toEqual([...QUESTION_TYPES].sort());
  });

  test.each(QUESTION_TYPES.map((type) => [type] as const))("%s renders its question", (type) => {
    expect(typeof QUESTION_RENDERERS[type]).toBe("function");
    const { container } = render(<QuestionField question={questionOf(type)} ctx={ctx} />);
    expect(container.textContent).toContain("The question");
    const { answer } = QUESTION_TYPE_DESCRIPTORS[type];
    // A question that takes an answer draws something to answer with; static text draws none.
    const inputs = container.querySelectorAll("input, select, textarea").length;
    if (answer === "none") expect(inputs).toBe(0);
    else expect(inputs).toBeGreaterThan(0);
  });

  test("a type no renderer knows draws nothing", () => {
    const unknown = { ...questionOf("text"), type: "signature" } as unknown as Question;
    const { container } = render(<QuestionField question={unknown} ctx={ctx} />);
    expect(container.innerHTML).toBe("");
  });
});
