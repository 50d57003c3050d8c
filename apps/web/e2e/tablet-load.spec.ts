import { randomBytes } from "node:crypto";
import { CORE_CARE_WELLNESS_EXAM_ID, coreCareWellnessExam } from "@core-care/survey-engine";
import type { Page, Route } from "@playwright/test";
import { adminApi, DEMO_USERS, expect, login, test } from "./fixtures";

// A tablet page loaded with the patient credential (a reload, or a tablet opened at the survey) shows
// the built-in survey's first question from what the server put in the page, asking the API nothing.
/**
 * Hands the tablet over to a new patient for the Core Care Wellness Exam through the API, as the staff
 * page would, leaving the page blank: the test loads the survey's page itself.
 */
async function handOverBlank(page: Page, baseURL: string | undefined): Promise<void> {
  const api = await adminApi(baseURL ?? "");
  const suffix = randomBytes(3).toString("hex");
  const created = await api.post("/api/patients", {
    data: {
      mrn: `LOAD-${suffix}`,
      firstName: "Lena",
      lastName: `Load${suffix}`,
      dob: "1948-05-06",
      sex: "F",
    },
  });
  expect(created.status()).toBe(201);
  const patient = (await created.json()) as { id: string };
  await api.dispose();

  await login(page, DEMO_USERS.staff, { redirect: "/tablet" });
  // The hand-over is made through the API here, so no page may be running meanwhile: a request of the staff
  // page answered after it (401, the staff session ends at hand-over) would sign the browser out.
  await page.goto("about:blank");
  const handover = await page.request.post("/api/tablet/handovers", {
    data: { patientId: patient.id, surveyId: CORE_CARE_WELLNESS_EXAM_ID },
    headers: { "X-Requested-With": "XMLHttpRequest" },
  });
  expect(handover.status()).toBe(201);
}

const surveyUrl = `/tablet/patient-survey/${CORE_CARE_WELLNESS_EXAM_ID}/pg/1`;

// These are first loads over the network. The tablet's service worker, registered when the staff page
// loaded /tablet, would otherwise answer the page's scripts from its cache once it controls the page (as
// it does on a tablet's later visits), out of reach of the routes that hold them back here.
test.use({ serviceWorkers: "block" });

test("a page load with the patient credential shows the first question without asking for the hand-over or the survey", async ({
  page,
  baseURL,
}) => {
  await handOverBlank(page, baseURL);

  const asked: string[] = [];
  page.on("request", (request) => {
    const path = new URL(request.url()).pathname;
    if (path === "/api/tablet/handover" || path.startsWith("/api/surveys/")) asked.push(path);
  });
  await page.goto(surveyUrl);
  const firstPage = coreCareWellnessExam.pages[0];
  const firstQuestion = firstPage?.questions.find((question) => question.type !== "html");
  await expect(page.getByRole("heading", { level: 1, name: firstPage?.title })).toBeVisible();
  await expect(page.getByText(firstQuestion?.title ?? "").first()).toBeVisible();
  // The block is read once and removed: the key of the stored copy does not stay in the page.
  await expect(page.locator("#tablet-boot")).toHaveCount(0);
  expect(asked).toEqual([]);
});

// The server draws the first page (issue 17): an old tablet shows the first question as soon as the page
// and its stylesheet arrive. Until the scripts have taken the page over it is inert, so a tap neither
// half-answers a question nor is taken for an answer React does not know of.
test("the first question shows before any script has run, ignores taps until the scripts have taken it over, then answers them", async ({
  page,
  baseURL,
}) => {
  await handOverBlank(page, baseURL);
  const said: string[] = [];
  page.on("console", (message) => {
    // The one thing the page may say is that this test blocked its service worker (above).
    if (message.text() === "Service Worker registration blocked by Playwright") return;
    if (message.type() === "error" || message.type() === "warning") said.push(message.text());
  });
  page.on("pageerror", (error) => said.push(error.message));
  // The page's scripts are held back, as on a slow connection or a slow tablet.
  const held: Route[] = [];
  let released = false;
  await page.route(/\/assets\/.*\.js$/, (route) => {
    if (released) void route.continue();
    else held.push(route);
  });
  await page.goto(surveyUrl, { waitUntil: "commit" });

  const firstPage = coreCareWellnessExam.pages[0];
  const heading = page.getByRole("heading", { level: 1, name: firstPage?.title });
  await expect(heading).toBeVisible();
  await expect(page.getByText("Patient: Lena")).toBeVisible();
  await expect(page.locator("html")).toHaveAttribute("lang", "en");
  await expect(page.locator("#root")).toHaveAttribute("inert", "");
  expect(held.length).toBeGreaterThan(0);
  const choice = page.getByRole("radio", { name: "Good" });
  // A tap on the inert page does nothing.
  const box = await page.getByText("Good", { exact: true }).boundingBox();
  if (box === null) throw new Error("the choice is not drawn");
  await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
  await expect(choice).not.toBeChecked();
  // The element the server drew is marked, to tell whether the scripts take it over or draw it again.
  await page.evaluate(() => document.querySelector("h1")?.setAttribute("data-drawn-here", ""));

  released = true;
  for (const route of held) await route.continue();
  await expect(page.locator("#root")).not.toHaveAttribute("inert");
  await expect(page.locator("h1[data-drawn-here]")).toHaveCount(1);
  await choice.check();
  await expect(choice).toBeChecked();
  await page.getByRole("button", { name: "Next" }).click();
  // The page's own rule holds on the page it took over: the required pain score is still unanswered.
  await expect(page.getByText(/required/i).first()).toBeVisible();
  expect(said).toEqual([]);
});

// The server's renderer is part of the build, never one of its files on the web.
test("the server renderer of the tablet page is not served", async ({ request }) => {
  // Any path outside /api and /assets is a client route: the staff app's page answers it, not the file.
  const response = await request.get("/.server/tablet-server.js");
  expect(response.headers()["content-type"]).toContain("text/html");
  expect(await response.text()).not.toContain("drawTabletPage");
});

// V8 compiles the tablet page's scripts as they stream in (issue 17): each carries the compile hint first.
test("every script the tablet page loads carries V8's compile hint on its first line, and its map matches", async ({
  request,
}) => {
  const html = await (await request.get("/tablet")).text();
  const scripts = [
    ...html.matchAll(/<(?:script type="module"[^>]* src|link rel="modulepreload"[^>]* href)="([^"]+)"/g),
  ].map((match) => match[1] ?? "");
  expect(scripts.length).toBeGreaterThan(3);
  for (const script of scripts) {
    const code = await (await request.get(script)).text();
    expect(code.split("\n")[0], script).toBe("//# allFunctionsCalledOnLoad");
    const map = (await (await request.get(`${script}.map`)).json()) as { mappings: string };
    expect(map.mappings.startsWith(";"), script).toBe(true);
  }
});
