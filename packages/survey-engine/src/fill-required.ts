import { setAnswer } from "./answers.js";
import { describeQuestion } from "./question-types.js";
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
      const type = describeQuestion(q);
      if (type.answer === "fields") {
        fill(q.fields ?? [], path);
        continue;
      }
      if (!q.required || type.answer === "none" || selectedOrValue(q, next, prefix)) continue;
      const first = q.choices?.find((c) => c.value !== q.noneValue) ?? q.choices?.[0];
      if (type.answer === "choices" && first !== undefined) {
        next = setSelectedValues(q, next, [first.value], prefix);
      } else if (first !== undefined) {
        next = setAnswer(next, path, first.value);
      } else {
        next = setAnswer(next, path, type.sample(q) ?? "Answered");
      }
    }
  };
  for (const page of survey.pages) fill(page.questions, "");
  return next;
}

function selectedOrValue(q: Question, answers: Answers, prefix: string): boolean {
  return selectedValues(q, answers, prefix).length > 0;
}
