import { randomBytes } from "node:crypto";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import type { APIRequestContext, Page } from "@playwright/test";
import {
  adminApi,
  DEMO_USERS,
  expect,
  expectNoSeriousA11yViolations,
  login,
  startServer,
  test,
} from "./fixtures";

const HEADERS = { "X-Requested-With": "XMLHttpRequest" };
const hex = (bytes: number) => randomBytes(bytes).toString("hex");

function outboxFiles(dataDir: string): string[] {
  try {
    return readdirSync(join(dataDir, "outbox")).filter((name) => name.endsWith(".eml"));
  } catch {
    return [];
  }
}

/** Decodes a quoted-printable body (RFC 2045 6.7): soft line breaks and =XX octets. */
function decodeQuotedPrintable(text: string): string {
  const bytes = text
    .replace(/=\r?\n/g, "")
    .replace(/=([0-9A-F]{2})/gi, (_whole, hexCode: string) => String.fromCharCode(parseInt(hexCode, 16)));
  return Buffer.from(bytes, "latin1").toString("utf8");
}

/** The first Tele-AWV link of the newest invitation to `to`, and the mail's decoded text. */
function invitation(dataDir: string, to: string): { link: string; mail: string } {
  const files = outboxFiles(dataDir)
    .map((name) => join(dataDir, "outbox", name))
    .sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs);
  for (const file of files) {
    const raw = readFileSync(file, "utf8");
    if (!raw.includes(to)) continue;
    const mail = /quoted-printable/i.test(raw) ? decodeQuotedPrintable(raw) : raw;
    const link = /https?:\/\/\S+\/auth\/teleawv\?\S+/.exec(mail)?.[0];
    if (link) return { link, mail };
  }
  throw new Error("no Tele-AWV invitation in the outbox");
}

/** A patient of the demo practice with an e-mail, and a Tele-AWV invitation sent to them. */
async function invite(
  api: APIRequestContext,
  dataDir: string,
  language?: "en" | "es",
): Promise<{ patientId: string; link: string; mail: string }> {
  const mrn = `PJ-${hex(4)}`;
  const email = `pj-${mrn.toLowerCase()}@example.org`;
  const created = await api.post("/api/patients", {
    headers: HEADERS,
    data: {
      mrn,
      firstName: "Rosa",
      lastName: `Journey${hex(2)}`,
      dob: "1951-06-01",
      sex: "F",
      email,
      ...(language ? { preferredLanguage: language } : {}),
    },
  });
  expect(created.status()).toBe(201);
  const patient = (await created.json()) as { id: string };
  const sent = await api.post("/api/auth/sendAWVEmail", {
    headers: HEADERS,
    data: { ptEmail: email, tenant: "demo", ptId: patient.id, ptS: true, ptPY: true, pt100: true },
  });
  expect(sent.status()).toBe(200);
  return { patientId: patient.id, ...invitation(dataDir, email) };
}

/**
 * The answers, by field and value (the same in every language): every required question with a short
 * choice, pain in the knees, a current smoker with 30 pack-years, and PHQ-9 item 9 above 'not at all'.
 */
const PLAN: ReadonlyArray<readonly [string, string]> = [
  ...["eating", "bedToChair", "bathroom", "phone", "meds", "money", "chores", "shopping", "stairs"].map(
    (name) => [`functional.${name}`, "0"] as const,
  ),
  ["functional.driving", "3"],
  ["pain.hadPain", "2"],
  ["pain.activities", "1"],
  ["pain.locations", "knees"],
  ...["aid", "restaurant", "mumbling", "repeat", "phone", "ringing"].map(
    (name) => [`hearing.${name}`, "no"] as const,
  ),
  ["social.alcoholfrequency", "never"],
  ["social.smokeYesNoQuit", "yes"],
  ["social.packYears", "yes"],
  ["social.lungCancer", "no"],
  ["social.smokeless", "no"],
  ["social.oralHealth", "good"],
  ["social.dentist", "yes"],
  ["social.diets", "lowSalt"],
  ["social.exerciseYesNo", "no"],
  ["social.maritalStatus", "widowed"],
  ["social.householdMembers", "alone"],
  ["social.occupation", "retired"],
  ["social.generalHealth", "fair"],
  ["social.sexualHealth", "no"],
  ["social.stress", "sometimes"],
  ["social.seatbelt", "always"],
  ["social.smokeDetectors", "yes"],
  ["social.tripHazards", "no"],
  ["social.grabBars", "yes"],
  ["social.feelSafe", "yes"],
  ["depression.phq9LittleInterest", "several days"],
  ["depression.phq9Hopeless", "several days"],
  ["depression.phq9SelfHarm", "several days"],
  ...[
    "pastYear",
    "loseBalanceWhileStanding",
    "dizzy",
    "useCane",
    "unsteady",
    "recentVisionLoss",
    "stroke",
  ].map((name) => [`fallen.${name}`, "no"] as const),
  ["directives.livingWill", "yes"],
  ["directives.poa", "no"],
  ["directives.dnr", "unknown"],
];

/** Answers what the plan has for the step on screen. */
async function answerStep(page: Page) {
  for (const [field, value] of PLAN) {
    const input = page.locator(`form.sv-runner input[name="${field}"][value="${value}"]`);
    if ((await input.count()) === 0 || !(await input.isVisible())) continue;
    await input.check();
  }
}

const nextButton = (page: Page) => page.locator(".sv-nav button[type=submit]");

async function expectNoHorizontalScroll(page: Page) {
  const overflow = await page.evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
  );
  expect(overflow).toBeLessThanOrEqual(0);
}

async function storedAnswers(api: APIRequestContext, patientId: string) {
  const list = await api.get(`/api/surveyresults?duration=5&patientId=${patientId}`);
  const items = ((await list.json()) as { items: { id: string; isSubmitted: boolean }[] }).items;
  expect(items).toHaveLength(1);
  expect(items[0]?.isSubmitted).toBe(true);
  const detail = await api.get(`/api/surveyresults/${items[0]?.id}`);
  return ((await detail.json()) as { answers: Record<string, unknown> }).answers;
}

/**
 * Answers the questionnaire from the step on screen to the end, checking each step at this width
 * (no horizontal scroll, axe), and submits.
 */
async function finish(page: Page, fromStep: number) {
  for (let step = fromStep; step <= 8; step++) {
    await expect(page.locator(".sv-progress-text")).toHaveText(new RegExp(`\\b${step}\\b.*\\b8\\b`));
    await expectNoHorizontalScroll(page);
    await expectNoSeriousA11yViolations(page);
    await answerStep(page);
    await nextButton(page).click();
  }
}

test.describe("Tele-AWV for patients", () => {
  test.use({ viewport: { width: 320, height: 640 }, hasTouch: true, isMobile: true });
  const dataDir = () => {
    const dir = process.env.E2E_DATA_DIR;
    if (!dir) throw new Error("E2E_DATA_DIR is not set");
    return dir;
  };
  let english: Record<string, unknown> | undefined;

  test("answered half-way at 320 px, reloaded and finished: answers kept, one result, crisis guidance; the link then says it was used", async ({
    page,
    baseURL,
  }) => {
    test.setTimeout(240_000);
    const api = await adminApi(baseURL ?? "");
    const { patientId, link, mail } = await invite(api, dataDir());
    expect(mail).toContain("Your Annual Wellness Visit questionnaire from");
    await page.goto(link);
    await expect(page.getByRole("heading", { level: 1, name: "Daily function" })).toBeVisible();
    await expect(page.getByText(/^From /)).toBeVisible();
    await expect(page.getByText("Step 1 of 8")).toBeVisible();
    await expect(page.getByText(/^About \d+ minutes left$/)).toBeVisible();
    await expect(page).toHaveTitle("Daily function · Annual Wellness Visit");

    for (let step = 1; step <= 4; step++) {
      await expectNoHorizontalScroll(page);
      await expectNoSeriousA11yViolations(page);
      await answerStep(page);
      await nextButton(page).click();
    }
    await expect(page.getByRole("heading", { level: 1, name: "Depression screen" })).toBeVisible();
    await expect(page.getByText("Your answers so far are saved.", { exact: false })).toBeVisible();

    await page.reload();
    await expect(page.getByRole("heading", { level: 1, name: "Depression screen" })).toBeVisible();
    await expect(page.getByText(/Welcome back/)).toBeVisible();
    await page.getByRole("button", { name: "Previous" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Habits and social history" })).toBeVisible();
    await expect(page.locator('input[name="social.smokeYesNoQuit"][value="yes"]')).toBeChecked();
    await expect(page.locator('input[name="social.householdMembers"][value="alone"]')).toBeChecked();
    await nextButton(page).click();

    await finish(page, 5);
    await page.waitForURL("**/auth/teleawv/complete");
    await expect(
      page.getByText(
        "Thank you for using Core Care to complete your Annual Wellness Visit. You may now close this browser.",
      ),
    ).toBeVisible();
    const crisis = page.getByRole("region", { name: /help is available now/ });
    await expect(crisis).toContainText("988 Suicide & Crisis Lifeline");
    await expect(crisis).toContainText("Call 911 in an emergency.");
    await expect(crisis).toContainText("has been told about your answers");
    await expectNoHorizontalScroll(page);
    await expectNoSeriousA11yViolations(page);

    english = await storedAnswers(api, patientId);
    expect(english).toMatchObject({ pain: { locations14: "knees" }, social: { householdMembers0: "alone" } });

    await page.goto(link);
    await expect(
      page.getByRole("heading", { level: 1, name: "This link has already been used" }),
    ).toBeVisible();
    await expectNoSeriousA11yViolations(page);
    await api.dispose();
  });

  test("in Spanish from the patient's preferred language: the e-mail, every step and the crisis guidance; the answers stored equal the English run's", async ({
    page,
    baseURL,
  }) => {
    test.setTimeout(240_000);
    const api = await adminApi(baseURL ?? "");
    const { patientId, link, mail } = await invite(api, dataDir(), "es");
    expect(mail).toContain("Abra este enlace para contestar las preguntas");
    expect(new URLSearchParams(new URL(link).hash.slice(1)).get("lang")).toBe("es");
    await page.goto(link);
    await expect(page.getByRole("heading", { level: 1, name: "Actividades diarias" })).toBeVisible();
    await expect(page.locator("html")).toHaveAttribute("lang", "es");
    await expect(page.getByText("Paso 1 de 8")).toBeVisible();
    await finish(page, 1);
    await page.waitForURL("**/auth/teleawv/complete");
    await expect(
      page.getByText("Gracias por usar Core Care para completar su Visita Anual de Bienestar."),
    ).toBeVisible();
    const crisis = page.getByRole("region", { name: /hay ayuda disponible/ });
    await expect(crisis).toContainText("Línea 988 de Prevención del Suicidio y Crisis");
    await expect(crisis).toContainText("En caso de emergencia, llame al 911.");
    await expectNoSeriousA11yViolations(page);

    const spanish = await storedAnswers(api, patientId);
    if (english !== undefined) expect(spanish).toEqual(english);
    expect(spanish).toMatchObject({ depression: { phq9SelfHarm: "several days" } });
    await api.dispose();
  });

  test("a forged link says it does not work on opening, in either language", async ({ page }) => {
    await page.goto(
      `/auth/teleawv?tenant=demo&patientId=64a1c0de00000000000000aa&ptEmail=x%40example.org&ptS=false&ptPY=false&pt100=false#token=${"f".repeat(43)}`,
    );
    await expect(page.getByRole("heading", { level: 1, name: "This link does not work" })).toBeVisible();
    await expectNoSeriousA11yViolations(page);
    await page.getByRole("button", { name: "Español" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Este enlace no funciona" })).toBeVisible();
    await expectNoSeriousA11yViolations(page);
    await expectNoHorizontalScroll(page);
  });

  test("an expired link says to ask the practice for a new one", async ({ page }) => {
    test.setTimeout(240_000);
    const server = await startServer({ TELE_AWV_LINK_TTL_SECONDS: "1" });
    try {
      const api = await adminApi(server.baseURL);
      const { link } = await invite(api, server.dataDir);
      await new Promise((resolve) => setTimeout(resolve, 1500));
      await page.goto(link);
      await expect(page.getByRole("heading", { level: 1, name: "This link has expired" })).toBeVisible();
      await expect(page.getByText(/please ask .+ for a new one\./)).toBeVisible();
      await expectNoSeriousA11yViolations(page);
      await api.dispose();
    } finally {
      await server.stop();
    }
  });
});

/** The Core Care Wellness Exam's answers by field (built in, with Spanish texts). */
async function answerWellnessExam(page: Page) {
  const radio = (field: string, value: string) =>
    page.locator(`form.sv-runner input[name="${field}"][value="${value}"]`).check();
  await radio("health.general", "good");
  await page.locator('input[name="health.painScore"][value="3"]').check({ force: true });
  await page.locator('input[name="health.weightLb"]').fill("142");
  await nextButton(page).click();
  await radio("medicines.takesAny", "no");
  await radio("medicines.allergies", "none");
  await nextButton(page).click();
  await radio("prevention.fluShot", "yes");
  await page.locator('select[name="prevention.colonScreening"]').selectOption("1to5");
  await nextButton(page).click();
  await radio("womensHealth.papSmear", "no");
  await nextButton(page).click();
  // SPEC 5: a phone number takes digits only.
  await page.locator('input[name="phone"]').pressSequentially("555abc1234567");
  await expect(page.locator('input[name="phone"]')).toHaveValue("5551234567");
  await radio("contact.preferred", "phone");
}

test.describe("tablet for patients", () => {
  test.use({ viewport: { width: 1024, height: 768 }, hasTouch: true });

  async function handOver(page: Page, api: APIRequestContext, language: "en" | "es") {
    const suffix = hex(3);
    const created = await api.post("/api/patients", {
      data: {
        mrn: `TL-${suffix}`,
        firstName: language === "es" ? "Lucía" : "Lucy",
        lastName: `Tablet${suffix}`,
        dob: "1950-02-03",
        sex: "F",
        preferredLanguage: language,
      },
    });
    expect(created.status()).toBe(201);
    const patient = (await created.json()) as { id: string; firstName: string; lastName: string };
    await login(page, DEMO_USERS.staff, { redirect: "/tablet" });
    await page.getByLabel("Find the patient").fill(patient.lastName);
    await page.getByRole("button", { name: new RegExp(`${patient.lastName}, ${patient.firstName}`) }).click();
    await page.getByRole("radio", { name: "Core Care Wellness Exam" }).check();
    await page.getByRole("button", { name: "Hand the tablet to the patient" }).click();
    await expect(page).toHaveURL(/\/tablet\/patient-survey\/[0-9a-f]{24}\/pg\/1$/);
    return patient;
  }

  test("a survey completed in Spanish stores the answers of the English run, then thanks the patient", async ({
    page,
    baseURL,
    browser,
  }) => {
    test.setTimeout(180_000);
    const api = await adminApi(baseURL ?? "");

    const englishPatient = await handOver(page, api, "en");
    await expect(page.getByText("Patient: Lucy")).toBeVisible();
    await expect(page.getByText("Page 1 of 5")).toBeVisible();
    await expect(page).toHaveTitle("Your health today · Core Care Wellness Exam");
    await expect(page.locator('input[name="health.weightLb"]')).not.toHaveAttribute("placeholder");
    // Next is in view on page 1 without scrolling.
    await expect(nextButton(page)).toBeInViewport();
    await answerWellnessExam(page);
    await nextButton(page).click();
    await expect(page.getByRole("heading", { level: 1, name: "Thank you" })).toBeVisible();
    await expect(page.getByText("Please return the tablet to the front desk.")).toBeVisible();
    await expectNoSeriousA11yViolations(page);
    await page.getByRole("button", { name: "Done" }).click();
    await page.waitForURL(/\/auth\/login/);
    const englishAnswers = await storedAnswers(api, englishPatient.id);

    const tablet = await browser.newContext({ viewport: { width: 1024, height: 768 }, hasTouch: true });
    const spanishPage = await tablet.newPage();
    const spanishPatient = await handOver(spanishPage, api, "es");
    await expect(spanishPage.getByText("Paciente: Lucía")).toBeVisible();
    await expect(spanishPage.getByText("Página 1 de 5")).toBeVisible();
    await expect(spanishPage.getByRole("heading", { level: 1, name: "Su salud hoy" })).toBeVisible();
    await expect(spanishPage.locator("html")).toHaveAttribute("lang", "es");
    await expectNoSeriousA11yViolations(spanishPage);
    await answerWellnessExam(spanishPage);
    await expectNoSeriousA11yViolations(spanishPage);
    await nextButton(spanishPage).click();
    await expect(spanishPage.getByRole("heading", { level: 1, name: "Gracias" })).toBeVisible();
    await expect(spanishPage.getByText("Por favor, devuelva la tableta a la recepción.")).toBeVisible();
    await expectNoSeriousA11yViolations(spanishPage);
    await spanishPage.getByRole("button", { name: "Terminar" }).click();
    await spanishPage.waitForURL(/\/auth\/login/);
    expect(await storedAnswers(api, spanishPatient.id)).toEqual(englishAnswers);
    await tablet.close();
    await api.dispose();
  });
});
