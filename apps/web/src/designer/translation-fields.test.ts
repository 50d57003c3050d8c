import { describe, expect, test } from "vitest";
import { createQuestion, localizeSurvey, createSurvey, createPage } from "@core-care/survey-engine";
import { translationOf, withTranslation } from "./translation-fields";

describe("withTranslation", () => {
  test("sets a text's Spanish and keeps the others, then removes it when emptied, leaving no empty object", () => {
    const question = createQuestion("radio", { fieldName: "smoker", title: "Do you smoke?" });
    const titled = withTranslation(question, "title", "¿Fuma usted?");
    const helped = withTranslation(titled, "help", "Cigarrillos o puros");
    expect(helped.translations).toEqual({ es: { title: "¿Fuma usted?", help: "Cigarrillos o puros" } });
    expect(translationOf(helped, "title")).toBe("¿Fuma usted?");
    expect(question.translations).toBeUndefined();

    const untitled = withTranslation(helped, "title", "");
    expect(untitled.translations).toEqual({ es: { help: "Cigarrillos o puros" } });
    const bare = withTranslation(untitled, "help", "");
    expect(bare).not.toHaveProperty("translations");
    expect(translationOf(bare, "title")).toBe("");
  });

  test("what the designer sets is what a Spanish patient reads; an untranslated text stays English", () => {
    const translated = withTranslation(
      createQuestion("text", { fieldName: "a", title: "Name" }),
      "title",
      "Nombre",
    );
    const plain = createQuestion("text", { fieldName: "b", title: "City" });
    const survey = createSurvey({ pages: [createPage({ title: "Page", questions: [translated, plain] })] });
    const spanish = localizeSurvey(survey, "es");
    expect(spanish.pages[0]?.questions.map((q) => q.title)).toEqual(["Nombre", "City"]);
  });
});
