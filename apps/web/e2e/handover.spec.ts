import { randomBytes } from "node:crypto";
import type { APIRequestContext } from "@playwright/test";
import { Secret, TOTP } from "otpauth";
import {
  adminApi,
  DEMO_PASSWORD,
  DEMO_USERS,
  expect,
  expectNoSeriousA11yViolations,
  login,
  test,
} from "./fixtures";

test.use({ viewport: { width: 1024, height: 768 }, hasTouch: true });

interface TestPatient {
  id: string;
  mrn: string;
  firstName: string;
  lastName: string;
}

const hex = (bytes: number) => randomBytes(bytes).toString("hex");

/** Two pages: a required text question, then one more, so that saving and submitting are both seen. */
function twoPageSurvey(id: string, title: string) {
  return {
    id,
    title,
    description: "Hand-over",
    canSubscribeTo: false,
    version: 0,
    sections: [],
    pages: [
      {
        id: "p1",
        title: "First page",
        conditions: [],
        questions: [
          {
            id: "q1",
            type: "text",
            fieldName: "nickname",
            title: "What should we call you?",
            required: true,
          },
        ],
      },
      {
        id: "p2",
        title: "Last page",
        conditions: [],
        questions: [{ id: "q2", type: "text", fieldName: "notes", title: "Anything else?" }],
      },
    ],
  };
}

async function createPatient(api: APIRequestContext, lastName: string): Promise<TestPatient> {
  const response = await api.post("/api/patients", {
    data: { mrn: `HO-${hex(3)}`, firstName: "Hana", lastName, dob: "1948-06-01", sex: "F" },
  });
  expect(response.status()).toBe(201);
  return (await response.json()) as TestPatient;
}

/** Every staff data route a curious patient might try from the tablet's own browser. */
const STAFF_API = [
  "/api/patients",
  "/api/surveyresults",
  "/api/alerts",
  "/api/users",
  "/api/users/me",
  "/api/audit",
  "/api/surveys",
  "/api/reports",
  "/api/interfaces",
  "/api/locations",
  "/api/tenants/me",
];

/** The staff screens, typed into the address bar. */
const STAFF_SCREENS = ["/patients", "/results", "/surveys", "/reports", "/users", "/"];

test.describe("tablet hand-over", () => {
  let api: APIRequestContext;
  let patient: TestPatient;
  let other: TestPatient;
  let survey: { id: string; title: string };

  test.beforeEach(async ({ baseURL }) => {
    api = await adminApi(baseURL ?? "");
    patient = await createPatient(api, `Handed${hex(3)}`);
    other = await createPatient(api, `Elsewhere${hex(3)}`);
    const id = hex(12);
    survey = { id, title: `Hand-over ${hex(3)}` };
    expect((await api.post(`/api/surveys/${id}`, { data: twoPageSurvey(id, survey.title) })).status()).toBe(
      200,
    );
  });

  test.afterEach(async () => {
    await api.dispose();
  });

  test("locks the browser to its patient: no staff data or screen, the survey still saves and submits, the Staff password returns", async ({
    page,
  }) => {
    await login(page, DEMO_USERS.staff, { redirect: "/tablet" });
    await expect(page.getByRole("heading", { name: "Start a survey on this tablet" })).toBeVisible();
    await page.getByLabel("Find the patient").fill(patient.lastName);
    await page.getByRole("button", { name: new RegExp(`${patient.lastName}, ${patient.firstName}`) }).click();
    await page.getByRole("radio", { name: survey.title }).check();
    await page.getByRole("button", { name: "Hand the tablet to the patient" }).click();
    const surveyUrl = new RegExp(`/tablet/patient-survey/${survey.id}/pg/1$`);
    await expect(page).toHaveURL(surveyUrl);
    await page.getByLabel(/What should we call you\?/).fill("Hana");

    // From the tablet's own browser, with its cookies: every staff call is refused and names no one.
    for (const path of STAFF_API) {
      const answer = await page.evaluate(async (url) => {
        const res = await fetch(url, { headers: { "X-Requested-With": "XMLHttpRequest" } });
        return { status: res.status, body: await res.text() };
      }, path);
      expect([401, 403], `${path} answered ${answer.status}`).toContain(answer.status);
      expect(answer.body).not.toContain(other.lastName);
      expect(answer.body).not.toContain(other.mrn);
    }
    const write = await page.evaluate(async () => {
      const res = await fetch("/api/patients", {
        method: "POST",
        headers: { "X-Requested-With": "XMLHttpRequest", "Content-Type": "application/json" },
        body: JSON.stringify({
          mrn: "X-1",
          firstName: "Eve",
          lastName: "Intruder",
          dob: "1990-01-01",
          sex: "F",
        }),
      });
      return res.status;
    });
    expect([401, 403]).toContain(write);

    // Typing a staff screen's address shows no staff data: the patient stays in the survey.
    for (const path of [...STAFF_SCREENS, `/patients/${other.id}`]) {
      await page.goto(path);
      await expect(page.getByText(other.lastName)).toHaveCount(0);
      await expect(page.getByRole("button", { name: /Edit|Remove/ })).toHaveCount(0);
    }
    await page.goto(`/tablet/patient-survey/${survey.id}/pg/1`);
    await expect(page.getByLabel(/What should we call you\?/)).toBeVisible();

    // The survey still saves and submits with the patient credential.
    await page.getByLabel(/What should we call you\?/).fill("Hana");
    await page.getByRole("button", { name: "Next" }).tap();
    await expect(page.getByRole("heading", { level: 1, name: "Last page" })).toBeVisible();
    await expect
      .poll(async () => {
        const res = await api.get("/api/surveyresults", { params: { duration: 5, patientId: patient.id } });
        return ((await res.json()) as { items: unknown[] }).items.length;
      })
      .toBe(1);
    await page.getByLabel("Anything else?").fill("All good");
    await page.getByRole("button", { name: "Submit" }).tap();
    // Submitting ends the hand-over: the tablet thanks the patient, then signs out to the sign-in page.
    await page.getByRole("button", { name: "Done" }).tap();
    await page.waitForURL(/\/auth\/login/);
    await expect
      .poll(async () => {
        const res = await api.get("/api/surveyresults", { params: { duration: 5, patientId: patient.id } });
        const [first] = ((await res.json()) as { items: { id: string; isSubmitted: boolean }[] }).items;
        if (first === undefined) return null;
        const detail = (await (await api.get(`/api/surveyresults/${first.id}`)).json()) as {
          isSubmitted: boolean;
          answers: Record<string, unknown>;
        };
        return { isSubmitted: detail.isSubmitted, answers: detail.answers };
      })
      .toEqual({ isSubmitted: true, answers: { nickname: "Hana", notes: "All good" } });

    // After submitting, the browser holds no credential at all until staff sign in again.
    const after = await page.evaluate(async () => {
      const res = await fetch("/api/patients", { headers: { "X-Requested-With": "XMLHttpRequest" } });
      return res.status;
    });
    expect([401, 403]).toContain(after);
  });

  test("returns to staff work only with the staff password, through the Staff button", async ({ page }) => {
    await login(page, DEMO_USERS.staff, { redirect: "/tablet" });
    await page.getByLabel("Find the patient").fill(patient.lastName);
    await page.getByRole("button", { name: new RegExp(`${patient.lastName}, ${patient.firstName}`) }).click();
    await page.getByRole("radio", { name: survey.title }).check();
    await page.getByRole("button", { name: "Hand the tablet to the patient" }).click();
    await expect(page).toHaveURL(new RegExp(`/tablet/patient-survey/${survey.id}/pg/1$`));

    await page.getByRole("button", { name: "Staff" }).tap();
    const dialog = page.getByRole("dialog", { name: "Staff only" });
    await dialog.getByLabel("Password").fill("not the password");
    await dialog.getByRole("button", { name: "Return to staff screen" }).tap();
    await expect(dialog).toBeVisible();
    const stillLocked = await page.evaluate(async () => {
      const res = await fetch("/api/patients", { headers: { "X-Requested-With": "XMLHttpRequest" } });
      return res.status;
    });
    expect([401, 403]).toContain(stillLocked);

    await dialog.getByLabel("Password").fill(DEMO_PASSWORD);
    await dialog.getByRole("button", { name: "Return to staff screen" }).tap();
    await expect(page).toHaveURL(/\/tablet$/);
    await expect(page.getByRole("heading", { name: "Start a survey on this tablet" })).toBeVisible();
    const staffAgain = await page.evaluate(async () => {
      const res = await fetch("/api/patients", { headers: { "X-Requested-With": "XMLHttpRequest" } });
      return res.status;
    });
    expect(staffAgain).toBe(200);
  });

  test("asks a staff member with a second factor for its code as well, and the password alone does not return", async ({
    page,
  }) => {
    // A new admin of the demo practice with a second factor, signed in with it.
    const email = `tablet-totp-${hex(4)}@demo.test`;
    const password = "amber kestrel harbour lantern 42";
    const created = await api.post("/api/users", {
      data: { firstName: "Tab", lastName: "Otp", email, roles: 2, password },
    });
    expect(created.status()).toBe(201);
    await login(page, email, { password, redirect: "/tablet" });
    const headers = { "x-requested-with": "XMLHttpRequest" };
    const start = await page.request.post("/api/users/me/totp/enrolment", { headers });
    const secret = Secret.fromBase32(((await start.json()) as { secret: string }).secret);
    const on = await page.request.post("/api/users/me/totp/enrolment/confirm", {
      headers,
      data: { code: TOTP.generate({ secret }) },
    });
    expect(on.status()).toBe(200);

    await page.goto("/tablet");
    await page.getByLabel("Find the patient").fill(patient.lastName);
    await page.getByRole("button", { name: new RegExp(`${patient.lastName}, ${patient.firstName}`) }).click();
    await page.getByRole("radio", { name: survey.title }).check();
    await page.getByRole("button", { name: "Hand the tablet to the patient" }).click();
    await expect(page).toHaveURL(new RegExp(`/tablet/patient-survey/${survey.id}/pg/1$`));

    await page.getByRole("button", { name: "Staff" }).tap();
    const dialog = page.getByRole("dialog", { name: "Staff only" });
    await dialog.getByLabel("Password").fill(password);
    await dialog.getByRole("button", { name: "Return to staff screen" }).tap();
    // The password was right, and is not enough: the code is asked for, and the patient stays locked in.
    const code = dialog.getByLabel("Authentication code");
    await expect(code).toBeFocused();
    await expect(
      dialog.getByText("Enter the 6-digit code your authenticator app shows now, or a recovery code."),
    ).toBeVisible();
    await expect(code).toHaveAttribute("inputmode", "numeric");
    await expect(code).toHaveAttribute("autocomplete", "one-time-code");
    expect((await code.boundingBox())?.height ?? 0).toBeGreaterThanOrEqual(44);
    await expectNoSeriousA11yViolations(page);
    const locked = await page.evaluate(async () => {
      const res = await fetch("/api/patients", { headers: { "X-Requested-With": "XMLHttpRequest" } });
      return res.status;
    });
    expect([401, 403]).toContain(locked);

    const near = [-1, 0, 1].map((step) => TOTP.generate({ secret, timestamp: Date.now() + step * 30_000 }));
    await code.fill(["000000", "111111", "222222", "333333"].find((c) => !near.includes(c)) ?? "");
    await dialog.getByRole("button", { name: "Return to staff screen" }).tap();
    await expect(dialog.getByRole("alert").filter({ hasText: "The code is not valid." })).toBeVisible();
    await expect(page).toHaveURL(new RegExp(`/tablet/patient-survey/${survey.id}/pg/1$`));

    // The step the set-up used is spent; the app's next code is accepted within the clock window.
    await code.fill(TOTP.generate({ secret, timestamp: Date.now() + 30_000 }));
    await dialog.getByRole("button", { name: "Return to staff screen" }).tap();
    await expect(page).toHaveURL(/\/tablet$/);
    await expect(page.getByRole("heading", { name: "Start a survey on this tablet" })).toBeVisible();
    const staffAgain = await page.evaluate(async () => {
      const res = await fetch("/api/users", { headers: { "X-Requested-With": "XMLHttpRequest" } });
      return res.status;
    });
    expect(staffAgain).toBe(200);
  });
});
