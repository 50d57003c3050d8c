import { setAnswer } from "./answers.js";
import { questionPath, selectedValues, setSelectedValues } from "./questions.js";
import type { Answers, Question, Survey } from "./types.js";

/**
 * `answers` completed with an allowed answer (the first choice other than "none of these", the lowest
 * number, a date, some text) to every required question of `survey` they leave unanswered, whether it
 * shows or not: answers `checkAnswers` accepts as a submission, for demos, seeds and tests.
 */
export function fillRequiredAnswers(survey: Survey, answers: Answers = {}): Answers {
  let next = answers;
  const fill = (questions: readonly Question[], prefix: string) => {
    for (const q of questions) {
      const path = questionPath(q, prefix);
      if (q.type === "group") {
        fill(q.fields ?? [], path);
        continue;
      }
      if (!q.required || q.type === "html" || selectedOrValue(q, next, prefix)) continue;
      const first = q.choices?.find((c) => c.value !== q.noneValue) ?? q.choices?.[0];
      if (q.type === "checkbox" && first !== undefined) {
        next = setSelectedValues(q, next, [first.value], prefix);
      } else if (first !== undefined) {
        next = setAnswer(next, path, first.value);
      } else {
        const typed: Partial<Record<Question["type"], unknown>> = {
          number: String(q.min ?? 0),
          scale: String(q.min ?? 0),
          date: "2000-01-01",
          email: "patient@example.org",
          phone: "5551234567",
        };
        next = setAnswer(next, path, typed[q.type] ?? "Answered");
      }
    }
  };
  for (const page of survey.pages) fill(page.questions, "");
  return next;
}

function selectedOrValue(q: Question, answers: Answers, prefix: string): boolean {
  return selectedValues(q, answers, prefix).length > 0;
}
