import { describe, expect, test } from "vitest";
import { MESSAGES, type ValidationIssue } from "@core-care/survey-engine";
import { CATALOGUES, LANGUAGES, i18n, issueText } from "./i18n";

type Tree = { [key: string]: string | Tree };

function keysOf(tree: Tree, prefix = ""): string[] {
  return Object.entries(tree).flatMap(([key, value]) =>
    typeof value === "string" ? [`${prefix}${key}`] : keysOf(value, `${prefix}${key}.`),
  );
}

function textAt(tree: Tree, key: string): string {
  const value = key
    .split(".")
    .reduce<string | Tree | undefined>(
      (node, part) => (typeof node === "object" ? node[part] : undefined),
      tree,
    );
  if (typeof value !== "string") throw new Error(`no text at ${key}`);
  return value;
}

const placeholders = (text: string) => [...text.matchAll(/\{\{(\w+)\}\}/g)].map((m) => m[1]).sort();

describe("message catalogues", () => {
  const english = CATALOGUES.en as Tree;

  test.each(LANGUAGES.map((language) => [language] as const))(
    "%s has every key of every other catalogue, with the same placeholders and no blank text",
    (language) => {
      const catalogue = CATALOGUES[language] as Tree;
      const all = new Set(LANGUAGES.flatMap((other) => keysOf(CATALOGUES[other] as Tree)));
      expect([...all].filter((key) => !keysOf(catalogue).includes(key))).toEqual([]);
      for (const key of keysOf(catalogue)) {
        expect(textAt(catalogue, key).trim(), key).not.toBe("");
        expect(placeholders(textAt(catalogue, key)), key).toEqual(placeholders(textAt(english, key)));
      }
    },
  );

  test("words the engine's messages in English exactly as the engine (and the spec) does", () => {
    for (const [id, message] of Object.entries(MESSAGES)) {
      expect(textAt(english, `validation.${id}`)).toBe(message.replace(/\{(\w+)\}/g, "{{$1}}"));
    }
  });

  test("keeps the spec's Tele-AWV texts exactly", () => {
    expect(textAt(english, "teleAwv.completeText")).toBe(
      "Thank you for using Core Care to complete your Annual Wellness Visit. You may now close this browser.",
    );
    expect(textAt(english, "teleAwv.linkError")).toBe(
      "An error has occurred.  Please try loading this page from the email you were sent.",
    );
    expect(textAt(english, "teleAwv.error")).toBe("An error has occurred.");
  });
});

describe("issueText", () => {
  test("words an engine message in the language, with its values", async () => {
    const issue: ValidationIssue = {
      code: "outOfRange",
      field: "n",
      message: "Please enter a value from 1 to 5.",
      messageId: "outOfRange",
      params: { min: 1, max: 5 },
    };
    await i18n.changeLanguage("es");
    expect(issueText(issue, i18n.t)).toBe("Por favor, escriba un número del 1 al 5.");
    await i18n.changeLanguage("en");
    expect(issueText(issue, i18n.t)).toBe("Please enter a value from 1 to 5.");
  });

  test("gives a question's own message as it is", () => {
    expect(issueText({ code: "required", field: "f", message: "Díganos." }, i18n.t)).toBe("Díganos.");
  });
});
