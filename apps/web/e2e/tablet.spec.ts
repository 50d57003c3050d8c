import { randomBytes } from "node:crypto";
import { type APIRequestContext, type BrowserContext, type Page } from "@playwright/test";
import {
  adminApi,
  DEMO_PASSWORD,
  DEMO_USERS,
  expect,
  expectNoSeriousA11yViolations,
  login,
  networkCable,
  test,
  type NetworkCable,
} from "./fixtures";

const SESSION_KEY = "coreCare.tablet";

test.use({ viewport: { width: 1024, height: 768 }, hasTouch: true });

interface TestPatient {
  id: string;
  firstName: string;
  lastName: string;
}

interface ResultSummary {
  id: string;
  surveyId: string;
  patientId: string;
  isSubmitted: boolean;
}

interface ResultDetail extends ResultSummary {
  answers: Record<string, unknown>;
}

const hex = (bytes: number) => randomBytes(bytes).toString("hex");

/**
 * A six-page survey: page 2 shows only for smokers, page 4 only for pain above 3, page 5 only
 * for patients over 65 (the test patient is), the packs-per-day question only for smokers, a
 * screening question only for men (the test patient is a woman), and page 6 has no inputs.
 */
function journeySurvey(id: string, title: string) {
  return {
    id,
    title,
    description: "Tablet journey",
    canSubscribeTo: false,
    version: 0,
    sections: [{ id: "intro", title: "About you" }],
    pages: [
      {
        id: "p1",
        title: "Getting started",
        section: "intro",
        conditions: [],
        questions: [
          {
            id: "q1",
            type: "text",
            fieldName: "nickname",
            title: "What should we call you?",
            required: true,
          },
          {
            id: "q2",
            type: "radio",
            fieldName: "smoker",
            title: "Do you smoke?",
            required: true,
            choices: [
              { value: "yes", label: "Yes" },
              { value: "no", label: "No" },
            ],
          },
          {
            id: "q3",
            type: "number",
            fieldName: "packs",
            title: "How many packs a day?",
            required: true,
            visibleWhen: [{ fieldName: "smoker", action: "Equals", fieldValue: "yes", joinType: "and" }],
          },
          { id: "q4", type: "phone", fieldName: "callback", title: "Phone number for a call back" },
        ],
      },
      {
        id: "p2",
        title: "Smoking",
        conditions: [{ fieldName: "smoker", action: "Equals", fieldValue: "yes", joinType: "and" }],
        questions: [
          {
            id: "q5",
            type: "yesno",
            fieldName: "quitTried",
            title: "Have you tried to quit?",
            required: true,
          },
        ],
      },
      {
        id: "p3",
        title: "Pain",
        conditions: [],
        questions: [
          {
            id: "q6",
            type: "scale",
            fieldName: "painLevel",
            title: "How bad is your pain today?",
            min: 0,
            max: 10,
            required: true,
          },
        ],
      },
      {
        id: "p4",
        title: "Where it hurts",
        conditions: [{ fieldName: "painLevel", action: "Greater Than", fieldValue: 3, joinType: "and" }],
        questions: [
          {
            id: "q7",
            type: "checkbox",
            fieldName: "painAreas",
            title: "Where does it hurt?",
            required: true,
            choices: [
              { value: "head", label: "Head" },
              { value: "back", label: "Back" },
              { value: "legs", label: "Legs" },
            ],
          },
        ],
      },
      {
        id: "p5",
        title: "Anything else",
        conditions: [{ fieldName: "age", action: "Greater Than", fieldValue: 65, joinType: "and" }],
        questions: [
          { id: "q8", type: "textarea", fieldName: "notes", title: "Anything else you want us to know?" },
          {
            id: "q10",
            type: "date",
            fieldName: "prostateScreening",
            title: "Date of your last prostate screening",
            visibleWhen: [{ fieldName: "sex", action: "Equals", fieldValue: "M", joinType: "and" }],
          },
        ],
      },
      {
        id: "p6",
        title: "Thank you",
        conditions: [],
        questions: [
          {
            id: "q9",
            type: "html",
            fieldName: "thanks",
            title: "Thank you. Press Submit to send your answers.",
          },
        ],
      },
    ],
  };
}

/** Three pages of one optional question each, laid out alike: Next sits at the same place on each. */
function shortPagesSurvey(id: string, title: string) {
  const page = (n: number, name: string) => ({
    id: `p${n}`,
    title: name,
    conditions: [],
    questions: [{ id: `q${n}`, type: "text", fieldName: `answer${n}`, title: `Answer ${n}` }],
  });
  return {
    id,
    title,
    description: "Double taps",
    canSubscribeTo: false,
    version: 0,
    sections: [],
    pages: [page(1, "Page one"), page(2, "Page two"), page(3, "Page three")],
  };
}

async function createPatient(api: APIRequestContext): Promise<TestPatient> {
  const suffix = hex(3);
  const response = await api.post("/api/patients", {
    data: {
      mrn: `TAB-${suffix}`,
      firstName: "Tess",
      lastName: `Tablet${suffix}`,
      dob: "1950-02-03",
      sex: "F",
    },
  });
  expect(response.status()).toBe(201);
  return (await response.json()) as TestPatient;
}

async function createSurvey(
  api: APIRequestContext,
  definition: (id: string, title: string) => object = journeySurvey,
): Promise<{ id: string; title: string }> {
  const id = hex(12);
  const title = `Tablet journey ${hex(3)}`;
  const response = await api.post(`/api/surveys/${id}`, { data: definition(id, title) });
  expect(response.status()).toBe(200);
  return { id, title };
}

async function resultsOf(api: APIRequestContext, patientId: string): Promise<ResultSummary[]> {
  const response = await api.get("/api/surveyresults", { params: { duration: 5, patientId } });
  expect(response.status()).toBe(200);
  return ((await response.json()) as { items: ResultSummary[] }).items;
}

async function resultDetail(api: APIRequestContext, id: string): Promise<ResultDetail> {
  const response = await api.get(`/api/surveyresults/${id}`);
  expect(response.status()).toBe(200);
  return (await response.json()) as ResultDetail;
}

/** Signs staff in, picks the patient and the survey on /tablet and hands over. */
async function handOver(
  page: Page,
  patient: TestPatient,
  surveyTitle: string,
  { firstPage = "Getting started", through }: { firstPage?: string; through?: NetworkCable } = {},
) {
  await login(page, DEMO_USERS.staff, { redirect: "/tablet", baseURL: through?.url });
  await expect(page.getByRole("heading", { name: "Start a survey on this tablet" })).toBeVisible();
  await page.getByLabel("Find the patient").fill(patient.lastName);
  await page.getByRole("button", { name: new RegExp(`${patient.lastName}, ${patient.firstName}`) }).click();
  await page.getByRole("radio", { name: surveyTitle }).check();
  await page.getByRole("button", { name: "Hand the tablet to the patient" }).click();
  await expect(page).toHaveURL(/\/tablet\/patient-survey\/[0-9a-f]{24}\/pg\/1$/);
  await expect(page.getByRole("heading", { level: 1, name: firstPage })).toBeVisible();
}

const pageTitle = (page: Page, title: string) => page.getByRole("heading", { level: 1, name: title });

async function answerFirstPage(page: Page, nickname: string, smoker: "Yes" | "No") {
  await page.getByLabel(/What should we call you\?/).fill(nickname);
  await page
    .getByRole("radiogroup", { name: /Do you smoke\?/ })
    .getByRole("radio", { name: smoker })
    .check();
  if (smoker === "Yes") await page.getByLabel(/How many packs a day\?/).fill("1");
}

/** Every value the page keeps in browser storage. */
async function browserStorage(page: Page): Promise<string[]> {
  return page.evaluate(() =>
    [localStorage, sessionStorage].flatMap((storage) =>
      Object.keys(storage).map((key) => `${key}=${storage.getItem(key) ?? ""}`),
    ),
  );
}

/**
 * The answers a tablet keeps unsent while offline: in browser storage only as the sealed copy (none of
 * `plaintext` readable there), and not yet on the server.
 */
async function expectHeldBack(page: Page, plaintext: string[], notYetSaved: string) {
  const stored = await page.evaluate((key) => localStorage.getItem(key), SESSION_KEY);
  expect(JSON.parse(stored ?? "null")).toEqual({
    v: 1,
    handoverId: expect.any(String),
    lastActivityAt: expect.any(Number),
    iv: expect.any(String),
    data: expect.any(String),
  });
  const everything = (await browserStorage(page)).join("\n");
  for (const text of plaintext) expect(everything).not.toContain(text);
  const [before] = await resultsOf(api, patient.id);
  expect(before && (await resultDetail(api, before.id)).answers).not.toHaveProperty(notYetSaved);
}

/**
 * Takes the tablet off the network: the browser says it is offline, and the cable the page was loaded
 * through is cut, so no request reaches the app, the service worker's included.
 */
async function goOffline(context: BrowserContext, cable: NetworkCable) {
  cable.unplug();
  await context.setOffline(true);
}

/** Brings the network back and waits for the held answers to reach the patient's one result. */
async function expectSentOnceOnline(
  page: Page,
  context: BrowserContext,
  cable: NetworkCable,
  answers: Record<string, unknown>,
) {
  cable.plugIn();
  await context.setOffline(false);
  await expect(page.getByRole("status").filter({ hasText: "No connection" })).toHaveCount(0);
  await expect
    .poll(async () => {
      const results = await resultsOf(api, patient.id);
      return results.length === 1 && results[0]
        ? (await resultDetail(api, results[0].id)).answers
        : results.length;
    })
    .toMatchObject(answers);
}

let api: APIRequestContext;
let patient: TestPatient;
let survey: { id: string; title: string };

test.beforeEach(async ({ baseURL }) => {
  api = await adminApi(baseURL ?? "");
  patient = await createPatient(api);
  survey = await createSurvey(api);
});

/** The cables of the test's offline journeys, removed after each test. */
const cables: NetworkCable[] = [];

async function cableTo(baseURL: string | undefined): Promise<NetworkCable> {
  const cable = await networkCable(baseURL ?? "");
  cables.push(cable);
  return cable;
}

test.afterEach(async () => {
  await Promise.all(cables.splice(0).map((cable) => cable.close()));
  await api.dispose();
});

test.describe("/tablet/patient-survey/{surveyId}/pg/{pageNumber}", () => {
  test("validates, skips pages whose conditions fail going forward and back, and follows the page in the URL", async ({
    page,
  }) => {
    await handOver(page, patient, survey.title);
    const url = (n: number) => new RegExp(`/tablet/patient-survey/${survey.id}/pg/${n}$`);

    await expect(page.getByRole("button", { name: "Previous" })).toBeDisabled();
    await page.getByRole("button", { name: "Next" }).tap();
    const nickname = page.getByLabel(/What should we call you\?/);
    await expect(nickname).toBeFocused();
    await expect(nickname).toHaveAccessibleDescription("This field is required.");
    await expect(
      page.getByRole("radiogroup", { name: /Do you smoke\?/ }).getByText("This field is required."),
    ).toBeVisible();
    await expect(page).toHaveURL(url(1));

    await answerFirstPage(page, "Tess", "No");
    await expect(page.getByLabel(/How many packs a day\?/)).toHaveCount(0);
    const phone = page.getByLabel("Phone number for a call back");
    await phone.fill("5551234567");
    await phone.blur();
    await expect(phone).toHaveValue("555-123-4567");
    await expect(page.getByText("This field is required.")).toHaveCount(0);

    await page.getByRole("button", { name: "Next" }).tap();
    await expect(pageTitle(page, "Pain")).toBeVisible();
    await expect(page).toHaveURL(url(3));
    await page.getByRole("radio", { name: "2", exact: true }).check();
    await page.getByRole("button", { name: "Next" }).tap();
    await expect(pageTitle(page, "Anything else")).toBeVisible();
    await expect(page).toHaveURL(url(5));
    await expect(page.getByLabel("Date of your last prostate screening")).toHaveCount(0);

    await page.getByRole("button", { name: "Previous" }).tap();
    await expect(page).toHaveURL(url(3));
    await page.getByRole("radio", { name: "7", exact: true }).check();
    await page.getByRole("button", { name: "Previous" }).tap();
    await expect(page).toHaveURL(url(1));
    await expect(pageTitle(page, "Getting started")).toBeVisible();
    await expect(nickname).toHaveValue("Tess");

    await page
      .getByRole("radiogroup", { name: /Do you smoke\?/ })
      .getByRole("radio", { name: "Yes" })
      .check();
    await page.getByRole("button", { name: "Next" }).tap();
    await expect(page.getByLabel(/How many packs a day\?/)).toHaveAccessibleDescription(
      "This field is required.",
    );
    await page.getByLabel(/How many packs a day\?/).fill("2");
    await page.getByRole("button", { name: "Next" }).tap();
    await expect(pageTitle(page, "Smoking")).toBeVisible();
    await expect(page).toHaveURL(url(2));
    await page.getByRole("radio", { name: "No" }).check();
    await page.getByRole("button", { name: "Next" }).tap();
    await expect(page).toHaveURL(url(3));
    await page.getByRole("button", { name: "Next" }).tap();
    await expect(pageTitle(page, "Where it hurts")).toBeVisible();
    await expect(page).toHaveURL(url(4));
    await page.getByRole("button", { name: "Next" }).tap();
    await expect(
      page.getByRole("group", { name: /Where does it hurt\?/ }).getByText("This field is required."),
    ).toBeVisible();
    await expect(page.getByRole("checkbox", { name: "Head" })).toBeFocused();
    await page.getByRole("checkbox", { name: "Legs" }).check();

    const saves: string[] = [];
    page.on("request", (request) => {
      if (request.method() === "POST" && request.url().endsWith("/api/surveyresults")) {
        saves.push(request.postData() ?? "");
      }
    });
    const saved = () => page.waitForResponse((r) => r.url().endsWith("/api/surveyresults") && r.ok());
    let response = saved();
    await page.getByRole("button", { name: "Next" }).tap();
    await response;
    response = saved();
    await page.getByRole("button", { name: "Next" }).tap();
    await response;
    await expect(pageTitle(page, "Thank you")).toBeVisible();
    await expect(page).toHaveURL(url(6));
    await expect(page.getByRole("button", { name: "Submit" })).toBeVisible();
    expect(saves).toHaveLength(2);

    // Leaving a page without inputs saves nothing; the next move from a page with inputs does.
    await page.getByRole("button", { name: "Previous" }).tap();
    await expect(page).toHaveURL(url(5));
    await page.getByLabel("Anything else you want us to know?").fill("Nothing more");
    response = saved();
    await page.getByRole("button", { name: "Next" }).tap();
    await response;
    expect(saves).toHaveLength(3);
    expect(JSON.parse(saves[2] ?? "{}")).toMatchObject({
      isSubmitted: false,
      answers: { notes: "Nothing more" },
    });

    const results = await resultsOf(api, patient.id);
    expect(results).toHaveLength(1);
    expect((await resultDetail(api, results[0]?.id ?? "")).answers).toEqual({
      nickname: "Tess",
      smoker: "yes",
      packs: 2,
      callback: "555-123-4567",
      quitTried: "no",
      painLevel: 7,
      painAreas: ["legs"],
      notes: "Nothing more",
    });
  });

  test("holds the saves made while the first is on its way and sends them with its id", async ({ page }) => {
    await handOver(page, patient, survey.title);
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    const bodies: { id?: string; clientRequestId: string; answers: Record<string, unknown> }[] = [];
    await page.route("**/api/surveyresults", async (route) => {
      bodies.push(route.request().postDataJSON() as (typeof bodies)[number]);
      if (bodies.length === 1) await held;
      await route.fallback();
    });

    await answerFirstPage(page, "Tess", "Yes");
    await page.getByRole("button", { name: "Next" }).tap();
    await expect(pageTitle(page, "Smoking")).toBeVisible();
    await page.getByRole("radio", { name: "Yes" }).check();
    await page.getByRole("button", { name: "Next" }).tap();
    await expect(pageTitle(page, "Pain")).toBeVisible();
    await page.getByRole("radio", { name: "0", exact: true }).check();
    await page.getByRole("button", { name: "Next" }).tap();
    await expect(pageTitle(page, "Anything else")).toBeVisible();
    expect(bodies).toHaveLength(1);

    release();
    await expect.poll(() => bodies.length).toBe(2);
    const [first, second] = bodies;
    expect(first).not.toHaveProperty("id");
    expect(second?.clientRequestId).toBe(first?.clientRequestId);
    expect(second?.answers).toMatchObject({ quitTried: "yes", painLevel: 0 });
    await expect
      .poll(async () => {
        const results = await resultsOf(api, patient.id);
        return results.length === 1 && results[0]
          ? (await resultDetail(api, results[0].id)).answers
          : results;
      })
      .toMatchObject({ nickname: "Tess", packs: 1, quitTried: "yes", painLevel: 0 });
    expect(second?.id).toBe((await resultsOf(api, patient.id))[0]?.id);
  });

  test("alerts the server's message when a save fails and sends the answers with the next save", async ({
    page,
  }) => {
    await handOver(page, patient, survey.title);
    let failures = 0;
    await page.route("**/api/surveyresults", async (route) => {
      if (failures > 0) return route.fallback();
      failures += 1;
      await route.fulfill({
        status: 500,
        contentType: "application/json",
        body: JSON.stringify({ responseStatus: { status: 500, message: "Database unavailable" } }),
      });
    });

    await answerFirstPage(page, "Tess", "No");
    const dialog = page.waitForEvent("dialog");
    await page.getByRole("button", { name: "Next" }).tap();
    const alert = await dialog;
    expect(alert.message()).toBe("Failed to save results: Database unavailable");
    await alert.accept();
    await expect(pageTitle(page, "Pain")).toBeVisible();
    expect(await resultsOf(api, patient.id)).toEqual([]);

    await page.getByRole("radio", { name: "1", exact: true }).check();
    await page.getByRole("button", { name: "Next" }).tap();
    await expect(pageTitle(page, "Anything else")).toBeVisible();
    await expect
      .poll(async () => {
        const [only] = await resultsOf(api, patient.id);
        return only ? (await resultDetail(api, only.id)).answers : null;
      })
      .toMatchObject({ nickname: "Tess", smoker: "no", painLevel: 1 });
    expect(failures).toBe(1);
  });

  test("keeps answers through a reload and a network drop, stores one result, then logs out leaving nothing behind", async ({
    page,
    context,
    baseURL,
  }) => {
    const cable = await cableTo(baseURL);
    await handOver(page, patient, survey.title, { through: cable });
    await answerFirstPage(page, "Tess", "No");
    await page.getByRole("button", { name: "Next" }).tap();
    await expect(pageTitle(page, "Pain")).toBeVisible();
    await page.getByRole("radio", { name: "5", exact: true }).check();

    await page.reload();
    await expect(pageTitle(page, "Pain")).toBeVisible();
    await expect(page).toHaveURL(new RegExp(`/pg/3$`));
    await expect(page.getByRole("radio", { name: "5", exact: true })).toBeChecked();

    await goOffline(context, cable);
    await page.getByRole("button", { name: "Next" }).tap();
    await expect(pageTitle(page, "Where it hurts")).toBeVisible();
    await expect(page.getByRole("status").filter({ hasText: "No connection" })).toBeVisible();
    await page.getByRole("checkbox", { name: "Back" }).check();
    await page.getByRole("button", { name: "Next" }).tap();
    await expect(pageTitle(page, "Anything else")).toBeVisible();
    await expectHeldBack(page, ["Tess", "painLevel", "painAreas", '"back"'], "painAreas");
    await expectSentOnceOnline(page, context, cable, { painLevel: 5, painAreas: ["back"] });

    const secret = `private note ${hex(4)}`;
    await page.getByLabel("Anything else you want us to know?").fill(secret);
    await page.getByRole("button", { name: "Next" }).tap();
    await expect(pageTitle(page, "Thank you")).toBeVisible();
    await page.getByRole("button", { name: "Submit" }).tap();
    await expect(page.getByText("Please return the tablet to the front desk.")).toBeVisible();
    await page.getByRole("button", { name: "Done" }).tap();
    await page.waitForURL("**/auth/login");

    const results = await resultsOf(api, patient.id);
    expect(results).toHaveLength(1);
    const submitted = await resultDetail(api, results[0]?.id ?? "");
    expect(submitted).toMatchObject({ isSubmitted: true, surveyId: survey.id, patientId: patient.id });
    expect(submitted.answers).toMatchObject({ nickname: "Tess", painLevel: 5, notes: secret });
    expect(await page.evaluate((key) => localStorage.getItem(key), SESSION_KEY)).toBeNull();
    expect((await page.request.get("/api/users/me")).status()).toBe(401);

    await page.goBack();
    await expect(page.getByText(secret)).toHaveCount(0);
    await expect(page.getByText("Tess")).toHaveCount(0);
    const typed = await page.evaluate(() =>
      [...document.querySelectorAll<HTMLInputElement | HTMLTextAreaElement>("input, textarea")].map(
        (el) => el.value,
      ),
    );
    expect(typed.filter((value) => value.includes("Tess") || value.includes("private note"))).toEqual([]);
    expect(await page.evaluate((key) => localStorage.getItem(key), SESSION_KEY)).toBeNull();
  });

  test("reloads without the network to a message that keeps the answers, then goes on on the page shown and sends them once online", async ({
    page,
    context,
    baseURL,
  }) => {
    const cable = await cableTo(baseURL);
    await handOver(page, patient, survey.title, { through: cable });
    // The worker is registered once the tablet's page has loaded; offline reloads need it active.
    await page.evaluate(async () => {
      await navigator.serviceWorker.ready;
    });
    await answerFirstPage(page, "Tess", "No");
    const firstSave = page.waitForResponse((r) => r.url().endsWith("/api/surveyresults") && r.ok());
    await page.getByRole("button", { name: "Next" }).tap();
    await firstSave;
    await expect(pageTitle(page, "Pain")).toBeVisible();

    // Offline before the pain answer, so that no save of it can reach the server first.
    await goOffline(context, cable);
    await page.getByRole("radio", { name: "6", exact: true }).check();
    await page.getByRole("button", { name: "Next" }).tap();
    await expect(pageTitle(page, "Where it hurts")).toBeVisible();
    await page.getByRole("checkbox", { name: "Legs" }).check();
    await expect(page.getByRole("checkbox", { name: "Legs" })).toBeChecked();
    await page.reload();

    // The key to the stored answers is the server's: without it the page says so, and shows nothing of
    // the patient and no staff screen, on the same address.
    await expect(page.getByRole("status").filter({ hasText: "No connection" })).toHaveText(
      "No connection. Your answers are kept safely on this tablet, and the survey continues as soon as the connection returns.",
    );
    await expect(page).toHaveURL(new RegExp(`/tablet/patient-survey/${survey.id}/pg/4$`));
    await expect(page.getByRole("checkbox")).toHaveCount(0);
    await expect(page.getByText("Tess")).toHaveCount(0);
    await expect(page.getByRole("link")).toHaveCount(0);
    await expectNoSeriousA11yViolations(page);
    const cached = await page.evaluate(async () => {
      const stored: { url: string; body: string }[] = [];
      for (const name of await caches.keys()) {
        const cache = await caches.open(name);
        for (const request of await cache.keys()) {
          const response = await cache.match(request);
          stored.push({ url: new URL(request.url).pathname, body: (await response?.text()) ?? "" });
        }
      }
      return stored;
    });
    expect(cached.map((entry) => entry.url)).toContain("/tablet");
    expect(cached.filter((entry) => entry.url.startsWith("/api/"))).toEqual([]);
    for (const entry of cached) {
      expect(entry.body).not.toContain("data-user");
      expect(entry.body).not.toContain("Tess");
    }
    await expectHeldBack(page, ["Tess", "painLevel", "painAreas", '"legs"'], "painLevel");

    // Back online, the page goes on where it was, with the answers, and sends what was held back once.
    const saves: unknown[] = [];
    page.on("request", (request) => {
      if (request.url().includes("/api/surveyresults") && ["POST", "PUT"].includes(request.method())) {
        saves.push(request.postDataJSON());
      }
    });
    await expectSentOnceOnline(page, context, cable, { nickname: "Tess", painLevel: 6 });
    await expect(pageTitle(page, "Where it hurts")).toBeVisible();
    await expect(page).toHaveURL(new RegExp(`/tablet/patient-survey/${survey.id}/pg/4$`));
    await expect(page.getByRole("checkbox", { name: "Legs" })).toBeChecked();
    expect(saves).toHaveLength(1);

    await page.getByRole("button", { name: "Next" }).tap();
    await expect(pageTitle(page, "Anything else")).toBeVisible();
    await expect
      .poll(async () => {
        const [only] = await resultsOf(api, patient.id);
        return only ? (await resultDetail(api, only.id)).answers : null;
      })
      .toMatchObject({ nickname: "Tess", painLevel: 6, painAreas: ["legs"] });
    expect(await resultsOf(api, patient.id)).toHaveLength(1);
    expect(saves).toHaveLength(2);
  });

  test("moves one page and saves once on a double tap of Next, and submits once on a double tap of Submit", async ({
    page,
  }) => {
    const short = await createSurvey(api, shortPagesSurvey);
    await handOver(page, patient, short.title, { firstPage: "Page one" });
    const posts: { isSubmitted: boolean }[] = [];
    page.on("request", (request) => {
      if (request.method() === "POST" && request.url().endsWith("/api/surveyresults")) {
        posts.push(request.postDataJSON() as { isSubmitted: boolean });
      }
    });
    const next = page.getByRole("button", { name: "Next" });
    await page.getByLabel("Answer 1").fill("first");
    const box = await next.boundingBox();
    if (box === null) throw new Error("Next is not on screen");
    const [x, y] = [box.x + box.width / 2, box.y + box.height / 2];

    const saved = page.waitForResponse((r) => r.url().endsWith("/api/surveyresults") && r.ok());
    await page.touchscreen.tap(x, y);
    await page.touchscreen.tap(x, y);
    await saved;
    await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0))));

    await expect(pageTitle(page, "Page two")).toBeVisible();
    await expect(page).toHaveURL(new RegExp(`/tablet/patient-survey/${short.id}/pg/2$`));
    // The second tap met the next page's Next button, where the first one was.
    expect(await next.boundingBox()).toEqual(box);
    expect(posts).toHaveLength(1);

    await page.getByLabel("Answer 2").fill("second");
    await next.tap();
    await expect(pageTitle(page, "Page three")).toBeVisible();
    const submit = page.getByRole("button", { name: "Submit" });
    // Right after a move the button that made it still ignores taps (the guard against double taps).
    await expect(submit).toBeEnabled();
    const submitBox = await submit.boundingBox();
    if (submitBox === null) throw new Error("Submit is not on screen");
    await page.touchscreen.tap(submitBox.x + submitBox.width / 2, submitBox.y + submitBox.height / 2);
    await page.touchscreen.tap(submitBox.x + submitBox.width / 2, submitBox.y + submitBox.height / 2);
    await page.getByRole("button", { name: "Done" }).tap();
    await page.waitForURL("**/auth/login");

    expect(posts.filter((body) => body.isSubmitted)).toHaveLength(1);
    const results = await resultsOf(api, patient.id);
    expect(results).toHaveLength(1);
    expect(await resultDetail(api, results[0]?.id ?? "")).toMatchObject({
      isSubmitted: true,
      answers: { answer1: "first", answer2: "second" },
    });
  });

  test("sends what was typed, then clears the patient's answers and signs out after the idle timeout", async ({
    page,
  }) => {
    await page.clock.install();
    await handOver(page, patient, survey.title);
    const secret = `idle ${hex(4)}`;
    await page.getByLabel(/What should we call you\?/).fill(secret);
    // What was typed is held on the tablet, sealed: not readable in browser storage, not yet on the server.
    await expect(page.getByLabel(/What should we call you\?/)).toHaveValue(secret);
    expect(await page.evaluate((key) => localStorage.getItem(key), SESSION_KEY)).not.toBeNull();
    expect((await browserStorage(page)).join("\n")).not.toContain(secret);
    expect(await resultsOf(api, patient.id)).toEqual([]);

    await page.clock.fastForward("24:05");

    await page.waitForURL(/\/auth\/login/);
    await expect(page.getByText("Your session has timed out due to inactivity.")).toBeVisible();
    expect(await page.evaluate((key) => localStorage.getItem(key), SESSION_KEY)).toBeNull();
    await expect
      .poll(async () => {
        const [only] = await resultsOf(api, patient.id);
        return only ? (await resultDetail(api, only.id)).answers : null;
      })
      .toEqual({ nickname: secret });
    await page.goBack();
    await expect(page.getByText(secret)).toHaveCount(0);
    const typed = await page.evaluate(() =>
      [...document.querySelectorAll<HTMLInputElement>("input")].map((input) => input.value),
    );
    expect(typed).not.toContain(secret);
  });

  test("keeps the patient in the survey until staff sign in again", async ({ page }) => {
    await handOver(page, patient, survey.title);
    await page.getByLabel(/What should we call you\?/).fill("Tess");

    // However often Back is pressed, it never goes past /tablet to the staff sign-in page before it.
    for (const _press of [1, 2]) {
      await page.goBack();
      await expect(page).toHaveURL(new RegExp(`/tablet/patient-survey/${survey.id}/pg/1$`));
      await expect(page.getByLabel(/What should we call you\?/)).toHaveValue("Tess");
      await expect(page.getByRole("link")).toHaveCount(0);
    }

    await page.getByRole("button", { name: "Staff" }).tap();
    const dialog = page.getByRole("dialog", { name: "Staff only" });
    await expect(dialog.getByLabel("Password")).toBeVisible();
    await expectNoSeriousA11yViolations(page);
    await dialog.getByRole("button", { name: "Return to staff screen" }).tap();
    await expect(dialog.getByText("Please enter your password.")).toBeVisible();
    await dialog.getByLabel("Password").fill(DEMO_PASSWORD);
    await dialog.getByRole("button", { name: "Return to staff screen" }).tap();

    await expect(page).toHaveURL(/\/tablet$/);
    await expect(page.getByRole("heading", { name: "Start a survey on this tablet" })).toBeVisible();
    expect(await page.evaluate((key) => localStorage.getItem(key), SESSION_KEY)).toBeNull();
    const [saved] = await resultsOf(api, patient.id);
    expect(saved && (await resultDetail(api, saved.id))).toMatchObject({
      isSubmitted: false,
      answers: { nickname: "Tess" },
    });
  });

  test("is accessible and fits the screen in landscape and portrait", async ({ page }) => {
    await handOver(page, patient, survey.title);
    await page.getByRole("button", { name: "Next" }).tap();
    await expect(page.getByText("This field is required.").first()).toBeVisible();

    for (const viewport of [
      { width: 1024, height: 768 },
      { width: 768, height: 1024 },
    ]) {
      await page.setViewportSize(viewport);
      await expectNoSeriousA11yViolations(page);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
        viewport.width,
      );
      const next = await page.getByRole("button", { name: "Next" }).boundingBox();
      expect(next?.height ?? 0).toBeGreaterThanOrEqual(44);
      const option = await page.getByRole("radio", { name: "Yes" }).locator("xpath=..").boundingBox();
      expect(option?.height ?? 0).toBeGreaterThanOrEqual(44);
    }
  });
});

test.describe("/tablet", () => {
  test("is the tablet's own page, and its staff portal link loads the staff app", async ({ page }) => {
    await login(page, DEMO_USERS.staff, { redirect: "/tablet" });
    await expect(page.getByRole("heading", { name: "Start a survey on this tablet" })).toBeVisible();
    await expect(page.locator('script[src^="/assets/tablet-"]')).toHaveCount(1);
    await expect(page.locator('script[src^="/assets/main-"]')).toHaveCount(0);

    await page.getByRole("link", { name: "Staff portal" }).click();
    await page.waitForURL((url) => !url.pathname.startsWith("/tablet"));
    await expect(page.locator('script[src^="/assets/main-"]')).toHaveCount(1);
    await expect(page.getByRole("link", { name: "Patients" }).first()).toBeVisible();
  });

  test("lists the patient's assigned surveys first and is accessible", async ({ page }) => {
    const assigned = await api.post(`/api/patients/${patient.id}/surveys`, { data: { surveyId: survey.id } });
    expect(assigned.status()).toBe(201);
    await login(page, DEMO_USERS.staff, { redirect: "/tablet" });
    await page.getByLabel("Find the patient").fill(patient.lastName);
    await page.getByRole("button", { name: new RegExp(`${patient.lastName}, ${patient.firstName}`) }).click();

    const assignedGroup = page.getByRole("group", { name: "Assigned to this patient" });
    await expect(assignedGroup.getByRole("radio", { name: survey.title })).toBeChecked();
    const others = page.getByRole("group", { name: "Other surveys" }).getByRole("radio");
    await expect(others.first()).toHaveAccessibleName("Core Care Wellness Exam");
    await expect(others.nth(1)).toHaveAccessibleName("Welcome to Medicare Exam");
    await expectNoSeriousA11yViolations(page);
  });

  test("starts with the patient given in the query, as a patient screen links to it", async ({ page }) => {
    await login(page, DEMO_USERS.staff, { redirect: `/tablet?patientId=${patient.id}` });

    await expect(page.getByText(`${patient.lastName}, ${patient.firstName}`)).toBeVisible();
    await expect(page.getByRole("button", { name: "Change patient" })).toBeVisible();
    await page.getByRole("radio", { name: survey.title }).check();
    await page.getByRole("button", { name: "Hand the tablet to the patient" }).click();
    await expect(page).toHaveURL(new RegExp(`/tablet/patient-survey/${survey.id}/pg/1$`));
  });
});
