import { randomBytes } from "node:crypto";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import type { Locator, Page } from "@playwright/test";
import { teleAwvSurvey, type Question } from "@core-care/survey-engine";
import { DEMO_USERS, expect, expectNoSeriousA11yViolations, login, test } from "./fixtures";

const HEADERS = { "X-Requested-With": "XMLHttpRequest" };
const REQUIRED = "This field is required.";
const DIET = 'Please select "I don\'t follow a diet" or the diet(s) you follow.';
const HOUSEHOLD = 'Please select "I live alone" or indicate the members of your household.';
const PAIN =
  "You indicated you experienced pain in the last 3 months.  Please indicate where you are hurting.";

/** The server runs without SMTP in the e2e suite, so its mail lands in DATA_DIR/outbox as .eml files. */
function outboxDir(): string {
  const dataDir = process.env.E2E_DATA_DIR;
  if (!dataDir) throw new Error("E2E_DATA_DIR is not set; playwright.config.ts sets it for the server");
  return join(dataDir, "outbox");
}

function outboxFiles(): string[] {
  try {
    return readdirSync(outboxDir()).filter((name) => name.endsWith(".eml"));
  } catch {
    return [];
  }
}

/** Decodes a quoted-printable body (RFC 2045 6.7): soft line breaks and =XX octets. */
function decodeQuotedPrintable(text: string): string {
  const bytes = text
    .replace(/=\r?\n/g, "")
    .replace(/=([0-9A-F]{2})/gi, (_whole, hex: string) => String.fromCharCode(parseInt(hex, 16)));
  return Buffer.from(bytes, "latin1").toString("utf8");
}

/** The Tele-AWV link of the newest outbox message sent to `to` after `before` files existed. */
function invitationLink(before: string[], to: string): URL {
  const fresh = outboxFiles()
    .filter((name) => !before.includes(name))
    .map((name) => join(outboxDir(), name))
    .sort((a, b) => statSync(a).mtimeMs - statSync(b).mtimeMs);
  for (const file of fresh.reverse()) {
    const raw = readFileSync(file, "utf8");
    if (!raw.includes(to)) continue;
    const body = /quoted-printable/i.test(raw) ? decodeQuotedPrintable(raw) : raw;
    const link = /https?:\/\/\S+\/auth\/teleawv\?\S+/.exec(body)?.[0];
    if (link) return new URL(link);
  }
  throw new Error("no Tele-AWV invitation in the outbox");
}

const questions: Question[] = teleAwvSurvey.pages.flatMap((page) => page.questions);
const titleOf = (fieldName: string): string => {
  const found = questions.find((q) => q.fieldName === fieldName);
  if (!found) throw new Error(`no question ${fieldName}`);
  return found.title;
};

/** The fieldset of a question, found by its legend. */
function question(page: Page, fieldName: string): Locator {
  return page.locator("fieldset", { has: page.locator("legend", { hasText: titleOf(fieldName) }) });
}

async function choose(page: Page, fieldName: string, label: string) {
  await question(page, fieldName).getByLabel(label, { exact: true }).check();
}

const FIRST_CHOICE_FIELDS = [
  ...[
    "eating",
    "bedToChair",
    "bathroom",
    "phone",
    "driving",
    "meds",
    "money",
    "chores",
    "shopping",
    "stairs",
  ].map((name) => `functional.${name}`),
  "pain.activities",
  ...["aid", "restaurant", "mumbling", "repeat", "phone", "ringing"].map((name) => `hearing.${name}`),
  "social.smokeless",
  "social.oralHealth",
  "social.dentist",
  "social.maritalStatus",
  "social.occupation",
  "social.generalHealth",
  "social.sexualHealth",
  "social.stress",
  "social.seatbelt",
  "social.smokeDetectors",
  "social.tripHazards",
  "social.grabBars",
  "social.feelSafe",
  "depression.phq9Hopeless",
  "fallen.pastYear",
  "fallen.loseBalanceWhileStanding",
  "fallen.dizzy",
  "fallen.useCane",
  "fallen.unsteady",
  "fallen.recentVisionLoss",
  "fallen.stroke",
  "directives.livingWill",
  "directives.poa",
  "directives.dnr",
];

/**
 * Runs `action` and answers the alert it raises, returning its text. The handler accepts the alert at
 * once: an action that is still settling while an alert is open would otherwise wait for it.
 */
async function alertOf(page: Page, action: () => Promise<unknown>): Promise<string> {
  const message = new Promise<string>((resolve) => {
    page.once("dialog", (dialog) => {
      resolve(dialog.message());
      void dialog.accept();
    });
  });
  await action();
  return message;
}

test.describe("Tele-AWV", () => {
  test("staff e-mail the link, the patient answers and submits, staff read the scores and summary", async ({
    page,
    browser,
  }) => {
    test.setTimeout(180_000);
    await login(page, DEMO_USERS.staff);
    const mrn = `AWV-${randomBytes(4).toString("hex")}`;
    const email = `pat-${mrn.toLowerCase()}@example.org`;
    const created = await page.request.post("/api/patients", {
      headers: HEADERS,
      data: { mrn, firstName: "Avery", lastName: "Wellness", dob: "1952-04-09", sex: "F", email },
    });
    expect(created.status()).toBe(201);
    const patient = (await created.json()) as { id: string };

    // Staff: the wellness-visit e-mail form of the patient screen.
    await page.goto(`/patients/${patient.id}`);
    const form = page.getByRole("form", { name: "Wellness visit e-mail" });
    await expect(form.getByLabel("Patient e-mail")).toHaveValue(email);
    const before = outboxFiles();
    expect(
      await alertOf(page, () => form.getByRole("button", { name: "Send Tele-AWV e-mail" }).click()),
    ).toBe("An email with a link to the Tele-AWV has been sent to the patient.");
    const link = invitationLink(before, email);
    expect([...link.searchParams.keys()]).toEqual(["tenant", "patientId", "ptEmail", "ptS", "ptPY", "pt100"]);
    expect(link.hash).toMatch(/^#token=[A-Za-z0-9_-]{43}/);

    // Patient: a browser with no session opens the e-mailed link, one section per step.
    const patientContext = await browser.newContext({ viewport: { width: 1024, height: 768 } });
    const tab = await patientContext.newPage();
    await tab.goto(link.toString());
    await expect(tab.getByText("Annual Wellness Visit", { exact: true })).toBeVisible();
    await expect(tab.locator(".awv-header .logo")).toBeVisible();
    const next = tab.locator(".sv-nav button[type=submit]");
    const titles: string[] = [];
    const answer = async (field: string, value: string) =>
      tab.locator(`input[name="${field}"][value="${value}"]`).check();

    // Step 1: every validation message under its question, the first error scrolled into view.
    titles.push((await tab.getByRole("heading", { level: 1 }).textContent()) ?? "");
    await expectNoSeriousA11yViolations(tab);
    await next.click();
    await expect(question(tab, "functional.eating").getByText(REQUIRED)).toBeInViewport();
    for (const field of FIRST_CHOICE_FIELDS.filter((f) => f.startsWith("functional."))) {
      await answer(field, "0");
    }
    await next.click();

    // Step 2: pain locations slide open above 'not at all', and their message appears when none is checked.
    titles.push((await tab.getByRole("heading", { level: 1 }).textContent()) ?? "");
    const locations = question(tab, "pain.locations");
    await expect(locations).toBeHidden();
    await choose(tab, "pain.hadPain", "Most days");
    await expect(locations).toBeVisible();
    await choose(tab, "pain.activities", "Not at all");
    await next.click();
    await expect(tab.getByText(PAIN)).toBeInViewport();
    await locations.getByLabel("Knees").check();
    await expect(tab.getByText(PAIN)).toBeHidden();
    await next.click();

    // Step 3: hearing.
    titles.push((await tab.getByRole("heading", { level: 1 }).textContent()) ?? "");
    for (const field of FIRST_CHOICE_FIELDS.filter((f) => f.startsWith("hearing."))) {
      await answer(field, "yes");
    }
    await next.click();

    // Step 4: habits; the diet and household messages, then the follow-ups as the answers change.
    titles.push((await tab.getByRole("heading", { level: 1 }).textContent()) ?? "");
    for (const field of FIRST_CHOICE_FIELDS.filter((f) => f.startsWith("social."))) {
      const first = questions.find((q) => q.fieldName === field)?.choices?.[0]?.value ?? "yes";
      await answer(field, first);
    }
    await choose(tab, "social.smokeYesNoQuit", "I have never smoked");
    await choose(tab, "social.exerciseYesNo", "No");
    await next.click();
    await expect(tab.getByText(DIET)).toBeVisible();
    await expect(tab.getByText(HOUSEHOLD)).toBeVisible();
    await tab.getByLabel("I don't follow a diet").check();
    await tab.getByLabel("I live alone").check();

    const drinks = question(tab, "social.drinksPerDay");
    await choose(tab, "social.alcoholfrequency", "Never");
    await expect(drinks).toBeHidden();
    await choose(tab, "social.alcoholfrequency", "2 to 3 times a week");
    await expect(drinks).toBeVisible();
    await choose(tab, "social.drinksPerDay", "3 or 4");
    await choose(tab, "social.sixDrinks", "Never");

    // Smoking: pack-years and then lung cancer screening open for a current smoker; 'never' closes them.
    const packYears = question(tab, "social.packYears");
    const lungCancer = question(tab, "social.lungCancer");
    await choose(tab, "social.smokeYesNoQuit", "Yes, I smoke now");
    await expect(packYears).toBeVisible();
    await expect(question(tab, "social.smoke100")).toBeVisible();
    await choose(tab, "social.packYears", "Yes");
    await expect(lungCancer).toBeVisible();
    await expect(question(tab, "social.smoke100")).toBeHidden();
    await choose(tab, "social.lungCancer", "No");
    await choose(tab, "social.smokeYesNoQuit", "I have never smoked");
    await expect(packYears).toBeHidden();
    await expect(lungCancer).toBeHidden();
    await choose(tab, "social.smokeYesNoQuit", "Yes, I smoke now");
    await expect(lungCancer).toBeVisible();

    // Exercise frequency opens on 'yes' and closes on 'no'.
    const frequency = question(tab, "social.exerciseFrequency");
    await choose(tab, "social.exerciseYesNo", "Yes");
    await expect(frequency).toBeVisible();
    await choose(tab, "social.exerciseYesNo", "No");
    await expect(frequency).toBeHidden();
    await next.click();

    // Step 5: PHQ-9 opens when a screening item is positive; item 9 above 'not at all' raises a safety alert.
    titles.push((await tab.getByRole("heading", { level: 1 }).textContent()) ?? "");
    const selfHarm = question(tab, "depression.phq9SelfHarm");
    await expect(selfHarm).toBeHidden();
    await choose(tab, "depression.phq9Hopeless", "Not at all");
    await choose(tab, "depression.phq9LittleInterest", "More than half the days");
    await expect(selfHarm).toBeVisible();
    await choose(tab, "depression.phq9Sleep", "Several days");
    await choose(tab, "depression.phq9SelfHarm", "Several days");
    await next.click();

    // Steps 6 to 8: falls, balance and medical documents, then 'Submit AWV'.
    for (const prefix of ["fallen.", "fallen.", "directives."]) {
      titles.push((await tab.getByRole("heading", { level: 1 }).textContent()) ?? "");
      for (const field of FIRST_CHOICE_FIELDS.filter((f) => f.startsWith(prefix))) {
        const input = tab.locator(`input[name="${field}"][value="yes"]`);
        if (await input.isVisible()) await input.check();
      }
      if (prefix !== "directives.") await next.click();
    }
    expect(titles).toEqual([
      "Daily function",
      "Pain",
      "Hearing",
      "Habits and social history",
      "Depression screen",
      "Fall risk",
      "Falls and balance",
      "Medical documents",
    ]);
    await expectNoSeriousA11yViolations(tab);
    await tab.getByRole("button", { name: "Submit AWV" }).click();
    await tab.waitForURL("**/auth/teleawv/complete");
    await expect(
      tab.getByText(
        "Thank you for using Core Care to complete your Annual Wellness Visit. You may now close this browser.",
      ),
    ).toBeVisible();

    // The same link cannot be used twice, and says so when opened again.
    await tab.goto(link.toString());
    await expect(
      tab.getByRole("heading", { level: 1, name: "This link has already been used" }),
    ).toBeVisible();
    await patientContext.close();

    // Staff: the result, its AWV summary with the scores, and the safety alert until acknowledged.
    const results = await page.request.get(`/api/surveyresults?duration=1&patientId=${patient.id}`);
    const list = (await results.json()) as {
      items: { id: string; surveyTitle: string; isSubmitted: boolean }[];
    };
    expect(list.items).toHaveLength(1);
    const result = list.items[0]!;
    expect(result.isSubmitted).toBe(true);
    await page.goto("/results");
    const openAlert = page
      .locator(".safety-alert")
      .filter({ has: page.locator(`a[href="/results/${result.id}"]`) });
    await expect(openAlert).toContainText("PHQ-9 item 9");
    await page.goto(`/patients/${patient.id}`);
    await page.getByRole("link", { name: result.surveyTitle }).first().click();
    await expect(page).toHaveURL(new RegExp(`/results/${result.id}$`));
    const summary = page.getByRole("region", { name: "AWV summary" });
    await expect(summary).toBeVisible();
    const rows = summary.getByRole("definition");
    await expect(summary).toContainText("PHQ-2");
    await expect(rows.nth(0)).toHaveText("2 of 6 (negative screen)");
    await expect(rows.nth(1)).toHaveText("4 of 27 (none-minimal)");
    await expect(rows.nth(2)).toHaveText("Positive: review today");
    await expect(summary).toContainText("Current smoker");
    await expect(summary).toContainText("Eligible: offer a low-dose CT");
    await expect(summary).toContainText("2 to 3 times a week; 3-4 drinks a day");
    const alert = page.locator(".safety-alert");
    await expect(alert).toContainText("PHQ-9 item 9");
    await expectNoSeriousA11yViolations(page);
    // Acknowledging says a clinician acted on it: a plain user sees the alert, an admin acknowledges it.
    await expect(alert.getByRole("button", { name: "Acknowledge" })).toHaveCount(0);
    await page.goto("/auth/logout");
    await page.waitForURL(/\/auth\/login/);
    await login(page, DEMO_USERS.admin, { redirect: `/results/${result.id}` });
    await expect(page.getByRole("region", { name: "AWV summary" })).toBeVisible();
    await alert.getByRole("button", { name: "Acknowledge" }).click();
    await expect(alert).toHaveCount(0);
    await page.reload();
    await expect(page.getByRole("region", { name: "AWV summary" })).toBeVisible();
    await expect(page.locator(".safety-alert")).toHaveCount(0);
    await page.goto("/results");
    await expect(page.getByRole("heading", { name: "Survey results" })).toBeVisible();
    await expect(page.locator(`.safety-alert a[href="/results/${result.id}"]`)).toHaveCount(0);
  });

  test("alerts and signs out when the link lacks a required parameter", async ({ page }) => {
    const message = await alertOf(page, () =>
      page.goto("/auth/teleawv?tenant=demo&patientId=64a1c0de00000000000000aa"),
    );
    expect(message).toBe(
      "An error has occurred.  Please try loading this page from the email you were sent.",
    );
    await page.waitForURL("**/auth/login**");
  });

  test("refuses a forged link on opening, showing no question", async ({ page }) => {
    await page.goto(
      `/auth/teleawv?tenant=demo&patientId=64a1c0de00000000000000aa&ptEmail=x%40example.org&ptS=false&ptPY=false&pt100=false#token=${"f".repeat(43)}`,
    );
    await expect(page.getByRole("heading", { level: 1, name: "This link does not work" })).toBeVisible();
    await expect(page.getByRole("button", { name: "Submit AWV" })).toHaveCount(0);
  });
});
