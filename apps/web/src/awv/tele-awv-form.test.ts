import { describe, expect, test } from "vitest";
import { setAnswer, type Answers } from "@core-care/survey-engine";
import {
  buildSubmission,
  hasRequiredParams,
  hiddenFields,
  questionnaireContext,
  readFragment,
} from "./tele-awv-form";

const SIX =
  "?tenant=demo&patientId=64a1c0de00000000000000aa&ptEmail=pat%40example.org&ptS=true&ptPY=true&pt100=false";

describe("hasRequiredParams", () => {
  test("accepts a link with patientId, tenant and ptEmail", () => {
    expect(hasRequiredParams(SIX)).toBe(true);
    expect(hasRequiredParams("?patientId=p&tenant=t&ptEmail=e")).toBe(true);
  });

  test.each([
    ["?tenant=t&ptEmail=e", "patientId missing"],
    ["?patientId=p&ptEmail=e", "tenant missing"],
    ["?patientId=p&tenant=t", "ptEmail missing"],
    ["?patientId=p&tenant=t&ptEmail=%20", "ptEmail blank"],
    ["", "no query"],
  ])("refuses %s (%s)", (search) => {
    expect(hasRequiredParams(search)).toBe(false);
  });
});

describe("hiddenFields", () => {
  test("fills the six hidden fields from exactly six pairs", () => {
    expect(hiddenFields(SIX)).toEqual({
      tenant: "demo",
      patientId: "64a1c0de00000000000000aa",
      ptEmail: "pat@example.org",
      ptS: "true",
      ptPY: "true",
      pt100: "false",
    });
  });

  test("leaves every hidden field blank when the query does not have exactly six pairs", () => {
    expect(hiddenFields(`${SIX}&extra=1`)).toEqual({
      tenant: "",
      patientId: "",
      ptEmail: "",
      ptS: "",
      ptPY: "",
      pt100: "",
    });
  });
});

describe("readFragment", () => {
  test("reads the token and the falls question set from the fragment", () => {
    expect(readFragment("#token=abc_DEF-123&alternateFalls=true&lang=es")).toEqual({
      token: "abc_DEF-123",
      alternateFalls: true,
      language: "es",
    });
    expect(readFragment("#token=x&alternateFalls=false").alternateFalls).toBe(false);
  });

  test("gives an empty token and no falls setting when the fragment has none", () => {
    expect(readFragment("")).toEqual({ token: "", alternateFalls: undefined, language: undefined });
    expect(readFragment("#token=x&lang=fr").language).toBeUndefined();
  });
});

describe("questionnaireContext", () => {
  test("uses the fragment's falls setting when it has one", () => {
    const hidden = hiddenFields(SIX);
    expect(questionnaireContext(hidden, true, {}).tenant?.settings?.alternateFalls).toBe(true);
    expect(questionnaireContext(hidden, false, {}).tenant?.settings?.alternateFalls).toBe(false);
  });

  test("falls back to the spec's tenants with alternate fall questions", () => {
    const hidden = { ...hiddenFields(SIX), tenant: "tx-plano-btpa" };
    expect(questionnaireContext(hidden, undefined, {}).tenant?.settings?.alternateFalls).toBe(true);
    expect(questionnaireContext(hiddenFields(SIX), undefined, {}).tenant?.settings?.alternateFalls).toBe(
      false,
    );
  });

  test("puts the hidden fields beside the answers so the smoking conditions can read the flags", () => {
    const context = questionnaireContext(hiddenFields(SIX), undefined, { pain: { hadPain: "1" } });
    expect(context.answers).toMatchObject({
      ptS: "true",
      ptPY: "true",
      pt100: "false",
      pain: { hadPain: "1" },
    });
  });
});

describe("buildSubmission", () => {
  test("sends the hidden fields and token at the top and drops answers of hidden questions", () => {
    const hidden = hiddenFields(SIX);
    let answers: Answers = {};
    answers = setAnswer(answers, "pain.hadPain", "0");
    answers = setAnswer(answers, "pain.locations3", "shoulders");
    answers = setAnswer(answers, "social.alcoholfrequency", "never");
    answers = setAnswer(answers, "social.drinksPerDay", "3");
    answers = setAnswer(answers, "social.exerciseYesNo", "yes");
    answers = setAnswer(answers, "social.exerciseFrequency", "60");
    const body = buildSubmission(questionnaireContext(hidden, undefined, answers), hidden, "tok");
    expect(body).toMatchObject({ ...hidden, token: "tok" });
    expect(body.answers).toEqual({
      pain: { hadPain: "0" },
      social: { alcoholfrequency: "never", exerciseYesNo: "yes", exerciseFrequency: "60" },
    });
  });
});
