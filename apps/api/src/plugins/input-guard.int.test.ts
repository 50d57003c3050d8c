import { afterAll, beforeAll, describe, expect, test } from "vitest";
import {
  createCondition,
  createPage,
  createQuestion,
  createSurvey,
  type Question,
  type QuestionType,
  type Survey,
} from "@core-care/survey-engine";
import { createTestApp, errorFields, login, type TestApp, type TestTenant } from "../../test/helpers.js";
import { JSON_BODY_LIMITS } from "./json-shape.js";

let t: TestApp;
let admin: TestTenant;
beforeAll(async () => {
  t = await createTestApp();
  admin = await t.createTestTenant({ role: "admin" });
});
afterAll(async () => {
  await t.close();
});

const signIn = (payload: string) =>
  t.app.inject({
    method: "POST",
    url: "/api/auth/sessions",
    headers: { "content-type": "application/json", "x-requested-with": "XMLHttpRequest" },
    payload,
  });

/** A valid sign-in with `extra` (JSON text) beside the credentials, which the schema would drop. */
const credentialsWith = (extra: string) =>
  `{"email":${JSON.stringify(admin.email)},"password":${JSON.stringify(admin.password)},"extra":${extra}}`;

function expectRefused(res: Awaited<ReturnType<typeof signIn>>, limit: string) {
  expect(res.statusCode, res.body).toBe(400);
  const status = res.json<{ responseStatus: { status: number; message: string } }>().responseStatus;
  expect(status.status).toBe(400);
  expect(status.message).toContain(limit);
  expect(errorFields(res)).toEqual(["body"]);
  expect(res.headers["set-cookie"]).toBeUndefined();
}

describe("JSON bodies past the shape limits, on the anonymous sign-in", () => {
  test("the credentials alone sign in", async () => {
    expect((await signIn(credentialsWith("1"))).statusCode).toBe(200);
  });

  test("100,000 keys beside valid credentials (1.5 MB, under the body limit) answer 400 naming the width", async () => {
    const wide = `{${Array.from({ length: 100_000 }, (_, i) => `"key_${String(i).padStart(6, "0")}":1`).join(",")}}`;
    const body = credentialsWith(wide);
    expect(body.length).toBeGreaterThan(1_400_000);
    expectRefused(await signIn(body), "1,000 keys or elements");
  });

  test("60,000 small nested arrays answer 400 naming the width", async () => {
    expectRefused(
      await signIn(credentialsWith(`[${Array.from({ length: 60_000 }, () => "[1,[2]]").join(",")}]`)),
      "1,000 keys or elements",
    );
  });

  test("arrays each within the width but past the body's entries answer 400 naming the entries", async () => {
    const rows = Array.from({ length: 30 }, () => `[${"1,".repeat(999)}1]`).join(",");
    expectRefused(await signIn(credentialsWith(`[${rows}]`)), "20,000 keys and elements in all");
  });

  test("a body one level deeper than the limit answers 400 naming the depth; at the limit it signs in", async () => {
    const nested = (levels: number) => `${"[".repeat(levels)}${"]".repeat(levels)}`;
    // The body's object is the first level.
    expect((await signIn(credentialsWith(nested(JSON_BODY_LIMITS.depth - 1)))).statusCode).toBe(200);
    expectRefused(await signIn(credentialsWith(nested(JSON_BODY_LIMITS.depth))), "64 levels");
    expectRefused(await signIn(credentialsWith(nested(100_000))), "64 levels");
  });

  test("a body refused for its shape is refused before it is parsed: text that is not JSON past the limit", async () => {
    const wide = `[${"0,".repeat(5_000)}0`;
    expectRefused(await signIn(`{"extra":${wide} not JSON`), "1,000 keys or elements");
    const notJson = await signIn(`{"extra":[0,0] not JSON`);
    expect(notJson.statusCode).toBe(400);
    expect(notJson.json<{ responseStatus: { message: string } }>().responseStatus.message).not.toContain(
      "keys",
    );
  });
});

describe("JSON bodies within the limits, sent faster than the server should build them", () => {
  test("are answered 429 with Retry-After once their client's budget is spent; another client's are not", async () => {
    // 19 objects of 1,000 keys: within every limit, 19,000 keys for JSON.parse to build.
    const heavy = `{"a":[${Array.from({ length: 19 }, (_, o) => `{${Array.from({ length: 1_000 }, (_, i) => `"k${o}_${i}":1`).join(",")}}`).join(",")}]}`;
    const send = (remoteAddress: string) =>
      t.app.inject({
        method: "POST",
        url: "/api/auth/sessions",
        remoteAddress,
        headers: { "content-type": "application/json", "x-requested-with": "XMLHttpRequest" },
        payload: heavy,
      });
    // Parsed, and refused by the schema (no e-mail), until the budget (services/entry-budget.ts) is spent:
    // 18,000 charged a body against 100,000 at once and 2,000 a second back.
    const statuses: number[] = [];
    let refused = await send("192.0.2.10");
    while (refused.statusCode !== 429 && statuses.length < 15) {
      statuses.push(refused.statusCode);
      refused = await send("192.0.2.10");
    }
    expect(statuses.length).toBeGreaterThanOrEqual(5);
    expect(new Set(statuses)).toEqual(new Set([400]));
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers["retry-after"])).toBeGreaterThan(0);
    expect(refused.json<{ responseStatus: { status: number } }>().responseStatus.status).toBe(429);
    expect((await send("192.0.2.11")).statusCode).toBe(400);
  });
});

const TYPES: QuestionType[] = ["text", "radio", "checkbox", "select", "number", "yesno", "textarea", "scale"];

/**
 * A survey of 200 questions on 10 pages, each question with its Spanish texts, every choice question 8
 * choices with theirs, every fifth shown on a condition: larger than any survey the portal ships.
 */
function largeSurvey(): Survey {
  const pages = Array.from({ length: 10 }, (_, p) => {
    const questions: Question[] = [];
    for (let i = 0; i < 20; i++) {
      const n = p * 20 + i + 1;
      const type = TYPES[n % TYPES.length] ?? "text";
      const previous = questions.at(-1);
      questions.push(
        createQuestion(type, {
          fieldName: `q${n}`,
          title: `Question ${n}: over the last two weeks, how often has this bothered you?`,
          help: "Think of a usual day.",
          required: n % 2 === 0,
          translations: { es: { title: `Pregunta ${n}: ¿con qué frecuencia le ha molestado esto?` } },
          ...(type === "radio" || type === "checkbox" || type === "select"
            ? {
                choices: Array.from({ length: 8 }, (_, c) => ({
                  value: String(c),
                  label: `Choice ${c}`,
                  translations: { es: { label: `Opción ${c}` } },
                })),
              }
            : {}),
          ...(type === "scale" ? { min: 0, max: 10 } : {}),
          ...(n % 5 === 0 && previous !== undefined
            ? { visibleWhen: [createCondition({ fieldName: previous.fieldName, action: "Has Response" })] }
            : {}),
        }),
      );
    }
    return createPage({
      title: `Page ${p + 1}`,
      questions,
      translations: { es: { title: `Página ${p + 1}` } },
    });
  });
  return createSurvey({ title: "Two hundred questions", pages, version: 0 });
}

describe("the largest real bodies stay within the limits", () => {
  test("a survey of 200 questions with its translations saves and reads back whole", async () => {
    const s = await login(t.app, admin.email);
    const survey = largeSurvey();
    const saved = await s.inject({ method: "POST", url: `/api/surveys/${survey.id}`, payload: survey });
    expect(saved.statusCode, saved.body).toBe(200);
    const read = await s.inject({ method: "GET", url: `/api/surveys/${survey.id}` });
    expect(read.json<Survey>().pages.flatMap((page) => page.questions)).toHaveLength(200);
  });
});
