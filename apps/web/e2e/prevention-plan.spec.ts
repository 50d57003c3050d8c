import { TELE_AWV_SURVEY_ID } from "@core-care/survey-engine";
import { DEMO_USERS, expect, expectNoSeriousA11yViolations, login, submittable, test } from "./fixtures";

const XHR = { "X-Requested-With": "XMLHttpRequest" };

/** The birth date of someone `years` old today (their birthday a month ago). */
function bornYearsAgo(years: number): string {
  const d = new Date();
  d.setUTCMonth(d.getUTCMonth() - 1);
  d.setUTCFullYear(d.getUTCFullYear() - years);
  return d.toISOString().slice(0, 10);
}

test.describe("prevention plan", () => {
  test.use({ viewport: { width: 1024, height: 768 } });

  test("a Tele-AWV result's plan: opened from the result, the practice and patient named, each item with when and its source, printable, with axe", async ({
    page,
  }) => {
    await login(page, DEMO_USERS.staff, { redirect: "/results" });
    const lastName = `Plan${Date.now()}`;
    const mrn = `PL-${Date.now()}`;
    const patient = (await (
      await page.request.post("/api/patients", {
        headers: XHR,
        data: { firstName: "Paula", lastName, mrn, dob: bornYearsAgo(67), sex: "F" },
      })
    ).json()) as { id: string };
    const saved = await page.request.post("/api/surveyresults", {
      headers: XHR,
      data: {
        clientRequestId: `e2e-plan-${Date.now()}`,
        surveyId: TELE_AWV_SURVEY_ID,
        patientId: patient.id,
        isSubmitted: true,
        answers: submittable(TELE_AWV_SURVEY_ID, {
          ptS: "true",
          ptPY: "true",
          pt100: "true",
          social: { smokeYesNoQuit: "yes", packYears: "yes", lungCancer: "no" },
        }),
      },
    });
    expect(saved.ok(), await saved.text()).toBe(true);
    const { id } = (await saved.json()) as { id: string };

    await page.goto(`/results/${id}`);
    await page.getByRole("link", { name: "Prevention plan" }).click();
    await expect(page).toHaveURL(new RegExp(`/results/${id}/plan$`));
    await expect(page.getByRole("heading", { level: 1, name: "Prevention plan" })).toBeVisible();
    await expect(page.getByRole("note")).toContainText("Decision support");
    const identifiers = page.getByRole("definition");
    await expect(identifiers.filter({ hasText: `${lastName}, Paula` })).toHaveCount(1);
    await expect(identifiers.filter({ hasText: mrn })).toHaveCount(1);

    // The patient's part: plain words, when, and the source of each item.
    const mine = page.getByRole("region", { name: "Your prevention plan" });
    await expect(mine).toHaveAttribute("lang", "en");
    await expect(mine.getByText("Written for a grade 6 reading level.")).toBeVisible();
    const lung = mine
      .getByRole("listitem")
      .filter({ has: page.getByRole("heading", { name: "Lung cancer check" }) });
    await expect(lung).toContainText("When: Now");
    await expect(lung.getByRole("link", { name: /USPSTF: Lung Cancer: Screening/ })).toHaveAttribute(
      "href",
      /^https:\/\/www\.uspreventiveservicestaskforce\.org\//,
    );
    await expect(
      mine.getByText("Quitting smoking is the best thing you can do", { exact: false }).first(),
    ).toBeVisible();

    // The clinician's part: reasons, what to ask at the visit, the suggested codes.
    const clinician = page.getByRole("region", { name: "For the clinician" });
    const items = clinician.locator("table.plan-items");
    const lungRow = items.getByRole("row").filter({ hasText: "Lung cancer screening" });
    await expect(lungRow).toContainText("30 pack-years");
    await expect(items.getByRole("row").filter({ hasText: "Breast cancer screening" })).toContainText(
      "Ask at the visit: the date of the last mammogram.",
    );
    await expect(clinician.getByRole("row", { name: /^G0438/ })).toContainText("none on record");
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(1024);
    await expectNoSeriousA11yViolations(page);

    // Printed: no buttons or review note, the clinician's part on a page of its own, sources with addresses.
    await page.emulateMedia({ media: "print" });
    await expect(page.getByRole("button", { name: "Print" })).toBeHidden();
    await expect(page.getByRole("note")).toBeHidden();
    await expect(clinician).toHaveCSS("break-before", "page");
    const printedLink = await lung
      .getByRole("link", { name: /USPSTF/ })
      .evaluate((a) => getComputedStyle(a, "::after").content);
    expect(printedLink).toContain("https://www.uspreventiveservicestaskforce.org/");
    await page.emulateMedia({ media: "screen" });

    // Keyboard: Print and Back are reached by Tab, each at least 44 px tall.
    const print = page.getByRole("button", { name: "Print" });
    await print.focus();
    await expect(print).toBeFocused();
    expect((await print.boundingBox())?.height ?? 0).toBeGreaterThanOrEqual(44);
  });

  test("a patient who reads Spanish gets the patient's part in Spanish, the sources kept", async ({
    page,
  }) => {
    await login(page, DEMO_USERS.staff, { redirect: "/results" });
    const patient = (await (
      await page.request.post("/api/patients", {
        headers: XHR,
        data: {
          firstName: "Lucía",
          lastName: `Plan${Date.now()}`,
          mrn: `PE-${Date.now()}`,
          dob: bornYearsAgo(70),
          sex: "M",
          preferredLanguage: "es",
        },
      })
    ).json()) as { id: string };
    const saved = await page.request.post("/api/surveyresults", {
      headers: XHR,
      data: {
        clientRequestId: `e2e-plan-es-${Date.now()}`,
        surveyId: TELE_AWV_SURVEY_ID,
        patientId: patient.id,
        isSubmitted: true,
        answers: submittable(TELE_AWV_SURVEY_ID, {
          ptS: "true",
          ptPY: "true",
          pt100: "true",
          social: { smokeYesNoQuit: "quit" },
        }),
      },
    });
    expect(saved.ok(), await saved.text()).toBe(true);
    const { id } = (await saved.json()) as { id: string };
    await page.goto(`/results/${id}/plan`);
    const mine = page.getByRole("region", { name: "Su plan de prevención" });
    await expect(mine).toHaveAttribute("lang", "es");
    const aaa = mine
      .getByRole("listitem")
      .filter({ has: page.getByRole("heading", { name: "Revisión de la arteria del abdomen (aorta)" }) });
    await expect(aaa).toContainText("Cuándo: Ahora");
    await expect(aaa.getByRole("link", { name: /USPSTF/ })).toBeVisible();
    await expectNoSeriousA11yViolations(page);
  });
});
