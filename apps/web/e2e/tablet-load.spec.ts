import { randomBytes } from "node:crypto";
import { CORE_CARE_WELLNESS_EXAM_ID, coreCareWellnessExam } from "@core-care/survey-engine";
import { adminApi, DEMO_USERS, expect, login, test } from "./fixtures";

// A tablet page loaded with the patient credential (a reload, or a tablet opened at the survey) shows
// the built-in survey's first question from what the server put in the page, asking the API nothing.
test("a page load with the patient credential shows the first question without asking for the hand-over or the survey", async ({
  page,
  baseURL,
}) => {
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

  const asked: string[] = [];
  page.on("request", (request) => {
    const path = new URL(request.url()).pathname;
    if (path === "/api/tablet/handover" || path.startsWith("/api/surveys/")) asked.push(path);
  });
  await page.goto(`/tablet/patient-survey/${CORE_CARE_WELLNESS_EXAM_ID}/pg/1`);
  const firstPage = coreCareWellnessExam.pages[0];
  const firstQuestion = firstPage?.questions.find((question) => question.type !== "html");
  await expect(page.getByRole("heading", { level: 1, name: firstPage?.title })).toBeVisible();
  await expect(page.getByText(firstQuestion?.title ?? "").first()).toBeVisible();
  // The block is read once and removed: the key of the stored copy does not stay in the page.
  await expect(page.locator("#tablet-boot")).toHaveCount(0);
  expect(asked).toEqual([]);
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
