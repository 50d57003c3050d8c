import { describe, expect, test } from "vitest";
import { answerPaths, isQuestionVisible, setSelectedValues } from "./questions.js";
import { BUILTIN_SURVEYS } from "./surveys/index.js";
import { teleAwvSurvey } from "./surveys/tele-awv.js";
import { localizeSurvey, missingTranslations } from "./translations.js";
import type { Answers, Question, Survey } from "./types.js";
import { validatePage, validateSurvey } from "./validation.js";

const survey: Survey = {
  id: "64a1c0de00000000000000ff",
  title: "Check-in",
  description: "Before your visit",
  canSubscribeTo: false,
  version: 1,
  submitLabel: "Send",
  translations: { es: { title: "Registro", description: "  ", submitLabel: "Enviar" } },
  sections: [{ id: "s", title: "About you", translations: { es: { title: "Sobre usted" } } }],
  pages: [
    {
      id: "p1",
      title: "Start",
      section: "s",
      conditions: [],
      translations: { es: { title: "Inicio" } },
      questions: [
        {
          id: "q1",
          type: "radio",
          fieldName: "smoker",
          title: "Do you smoke?",
          required: true,
          requiredMessage: "Tell us whether you smoke.",
          translations: { es: { title: "¿Fuma?", requiredMessage: "Díganos si fuma." } },
          choices: [
            { value: "yes", label: "Yes", translations: { es: { label: "Sí" } } },
            { value: "no", label: "No" },
          ],
        },
        {
          id: "q2",
          type: "group",
          fieldName: "address",
          title: "Address",
          fields: [
            {
              id: "q3",
              type: "text",
              fieldName: "city",
              title: "City",
              help: "Where you live",
              translations: { es: { title: "Ciudad" } },
            },
          ],
        },
      ],
    },
  ],
};

describe("localizeSurvey", () => {
  test("replaces each text that has a translation and keeps the own text of the others", () => {
    const es = localizeSurvey(survey, "es");
    expect(es.title).toBe("Registro");
    expect(es.description).toBe("Before your visit");
    expect(es.submitLabel).toBe("Enviar");
    expect(es.sections[0]?.title).toBe("Sobre usted");
    expect(es.pages[0]?.title).toBe("Inicio");
    const [smoker, address] = es.pages[0]?.questions ?? [];
    expect(smoker?.title).toBe("¿Fuma?");
    expect(smoker?.choices?.map((choice) => choice.label)).toEqual(["Sí", "No"]);
    expect(address?.title).toBe("Address");
    expect(address?.fields?.[0]).toMatchObject({ title: "Ciudad", help: "Where you live" });
  });

  test("leaves ids, field names, values and conditions as they are", () => {
    const es = localizeSurvey(teleAwvSurvey, "es");
    const shape = (s: Survey) =>
      s.pages.map((page) => ({
        id: page.id,
        conditions: page.conditions,
        questions: page.questions.map((q: Question) => ({
          id: q.id,
          fieldName: q.fieldName,
          paths: answerPaths(q),
          values: q.choices?.map((choice) => choice.value),
          visibleWhen: q.visibleWhen,
        })),
      }));
    expect(shape(es)).toEqual(shape(teleAwvSurvey));
  });

  test("words a question's own required message in the language, and the engine's by id", () => {
    const page = localizeSurvey(survey, "es").pages[0];
    if (page === undefined) throw new Error("no page");
    expect(validatePage(page, {})).toEqual([
      { code: "required", field: "smoker", message: "Díganos si fuma." },
    ]);
  });

  test("answers given in Spanish are those given in English", () => {
    const answer = (s: Survey): Answers => {
      let answers: Answers = { ptS: "true", ptPY: "true", pt100: "true" };
      for (const question of s.pages.flatMap((page) => page.questions)) {
        if (question.type === "html" || !isQuestionVisible(question, { answers })) continue;
        const last = question.choices?.at(-1)?.value as string;
        answers = setSelectedValues(question, answers, [last]);
      }
      return answers;
    };
    const english = answer(teleAwvSurvey);
    const spanish = answer(localizeSurvey(teleAwvSurvey, "es"));
    expect(spanish).toEqual(english);
    expect(validateSurvey(teleAwvSurvey, spanish).length).toBe(
      validateSurvey(localizeSurvey(teleAwvSurvey, "es"), spanish).length,
    );
  });

  test("returns the survey itself for its own language", () => {
    expect(localizeSurvey(survey, "en")).toBe(survey);
  });
});

describe("missingTranslations", () => {
  test("lists every text a language lacks, a blank one included", () => {
    expect(missingTranslations(survey, "es")).toEqual([
      "description",
      "smoker.choices.no",
      "address.title",
      "address.city.help",
    ]);
    expect(missingTranslations(survey, "fr")).toContain("smoker.choices.yes");
  });

  test.each(BUILTIN_SURVEYS.map((builtin) => [builtin.title, builtin] as const))(
    "%s has every text in Spanish",
    (_title, builtin) => {
      expect(missingTranslations(builtin, "es")).toEqual([]);
    },
  );
});
