import { answerEntries, questionType, type Question } from "@core-care/survey-engine";
import type { Survey } from "@core-care/schema";

/** One answer as shown read-only: the question (or field name), and the answer in words. */
export interface AnswerRow {
  path: string;
  question: string;
  answer: string;
}

/**
 * The answers of a result in the survey's question order, labelled with the question titles and choice
 * labels of the survey version the result was taken on; a checkbox group is one row of its chosen
 * labels, whether its choices store their values in one list or in fields of their own. Answers the
 * survey does not know follow by field name. The rows are the survey engine's `answerEntries`, the list
 * every export (HL7, CDA, FHIR) carries too.
 */
export function answerRows(
  answers: Record<string, unknown>,
  survey: Pick<Survey, "pages"> | null,
): AnswerRow[] {
  const pages = (survey?.pages ?? []) as { questions: Question[] }[];
  return answerEntries({ pages }, answers).map((entry) => {
    // The words of each value are its question type's summary text (a free answer's for an unknown field).
    const type = questionType(entry.question?.type ?? "");
    return {
      path: entry.field,
      question: entry.question?.title || entry.field,
      answer: entry.values.map((value, i) => type.text(value, entry.choices[i])).join(", "),
    };
  });
}
