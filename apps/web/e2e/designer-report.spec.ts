import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import type { Page } from "@playwright/test";
import { DEMO_USERS, expect, expectNoSeriousA11yViolations, login, submittable, test } from "./fixtures";

const XHR = { "X-Requested-With": "XMLHttpRequest" };
const hex = (bytes: number) => randomBytes(bytes).toString("hex");

const output = (page: Page) => page.frameLocator('iframe[title="Report output"]');

/** Replaces a textarea's whole text. */
async function setText(page: Page, label: string, text: string) {
  await page.getByLabel(label, { exact: true }).fill(text);
}

/** Opens a new report in the designer and returns its id. */
async function newReport(page: Page): Promise<string> {
  await page.goto("/reports");
  await page.getByRole("button", { name: "New report" }).click();
  await expect(page).toHaveURL(/\/reports\/[0-9a-f]{24}\/edit$/);
  await expect(page.getByLabel("Report title")).toHaveValue("Unnamed Report");
  return page.url().split("/").at(-2) ?? "";
}

test.describe("report designer", () => {
  test("previews on its mock without protected fields, runs on the practice's results and downloads", async ({
    page,
  }) => {
    await login(page, DEMO_USERS.admin);
    const suffix = hex(3);
    const patient = (await (
      await page.request.post("/api/patients", {
        headers: XHR,
        data: {
          firstName: "Rhea",
          lastName: `Report${suffix}`,
          mrn: `RP-${suffix}`,
          dob: "1947-03-04",
          sex: "F",
        },
      })
    ).json()) as { id: string };
    const surveys = (await (await page.request.get("/api/surveys")).json()) as {
      items: { id: string; title: string }[];
    };
    const survey = surveys.items.find((s) => s.title === "Welcome to Medicare Exam");
    const saved = await page.request.post("/api/surveyresults", {
      headers: XHR,
      data: {
        clientRequestId: `report-${suffix}`,
        surveyId: survey?.id,
        patientId: patient.id,
        isSubmitted: true,
        answers: submittable(survey?.id, { firstName: "Rhea", marker: `marker-${suffix}` }),
      },
    });
    expect(saved.ok()).toBe(true);

    const id = await newReport(page);
    await page.getByLabel("Report title").fill(`Designer report ${suffix}`);
    await page.getByRole("button", { name: "Preview on mock" }).click();
    await expect(output(page).getByText("1 of 1 results submitted.")).toBeVisible();
    await expect(output(page).getByRole("cell", { name: "Sample survey" })).toBeVisible();
    await expectNoSeriousA11yViolations(page);

    await setText(page, "Script", "return { rows: data.results };");
    await setText(
      page,
      "Markup",
      '<ul>{{#each rows}}<li class="row">{{answers.firstName}}|{{patientName}}|{{answers.weight}}{{answers.marker}}</li>{{/each}}</ul>',
    );
    await page.getByRole("button", { name: "Preview on mock" }).click();
    await expect(output(page).locator("li.row")).toHaveText(["||70"]);
    await page.getByRole("checkbox", { name: /Clinical report/ }).check();
    await page.getByRole("button", { name: "Preview on mock" }).click();
    await expect(output(page).locator("li.row")).toHaveText(["Sample||70"]);
    await page.getByRole("checkbox", { name: /Clinical report/ }).uncheck();

    await page.getByLabel("Duration").selectOption({ label: "All" });
    await page.getByRole("button", { name: "Run on results" }).click();
    await expect(page.getByText("Rendered from the practice's survey results.")).toBeVisible();
    const mine = output(page)
      .locator("li.row")
      .filter({ hasText: `marker-${suffix}` });
    await expect(mine).toHaveText([`||marker-${suffix}`]);

    const downloaded = page.waitForEvent("download");
    await page.getByRole("button", { name: "Download HTML" }).click();
    const file = await downloaded;
    expect(file.suggestedFilename()).toBe(`designer-report-${suffix}.html`);
    const html = readFileSync(await file.path(), "utf8");
    expect(html).toContain(`marker-${suffix}`);
    expect(html).not.toContain("Rhea");
    expect(html).toContain("@media print");
    expect(html).toContain(`content="default-src 'none'; style-src 'unsafe-inline'; img-src data:"`);

    const frame = page.frames().find((f) => f.url() === "about:srcdoc");
    expect(frame).toBeDefined();
    await frame?.evaluate(() => {
      window.print = () => document.body.setAttribute("data-printed", "yes");
    });
    await page.getByRole("button", { name: "Download PDF" }).click();
    await expect(output(page).locator("body")).toHaveAttribute("data-printed", "yes");

    await page.getByRole("button", { name: "Save", exact: true }).click();
    await expect(page.getByText("All changes saved (version 1)")).toBeVisible();
    await page.goto("/reports");
    await page.getByRole("link", { name: `Edit Designer report ${suffix}` }).click();
    await expect(page).toHaveURL(new RegExp(`/reports/${id}/edit$`));
    await expect(page.getByLabel("Script")).toHaveValue("return { rows: data.results };");
  });

  test("keeps a hostile script away from the cookie, the page and the API, and stops a runaway one", async ({
    page,
    baseURL,
  }) => {
    await login(page, DEMO_USERS.admin);
    await newReport(page);
    const apiCalls: string[] = [];
    page.on("request", (request) => {
      if (request.url().includes("/api/patients")) apiCalls.push(request.url());
    });

    await setText(
      page,
      "Script",
      `const out = {};
try { out.cookie = "READ " + document.cookie; } catch (e) { out.cookie = "blocked " + e.name; }
try { out.parent = "READ " + self.parent.document.cookie; } catch (e) { out.parent = "blocked " + e.name; }
try { out.storage = "READ " + localStorage.length; } catch (e) { out.storage = "blocked " + e.name; }
out.globals = ["fetch", "XMLHttpRequest", "WebSocket", "importScripts", "postMessage", "self", "window", "setTimeout"]
  .filter((name) => typeof globalThis[name] !== "undefined").join(",") || "none";
let api;
try {
  api = fetch("${baseURL}/api/patients", { credentials: "include" })
    .then((r) => r.text())
    .then((t) => "LEAKED " + t.slice(0, 40), (e) => "blocked " + e.name);
} catch (e) {
  api = Promise.resolve("blocked " + e.name);
}
return api.then((text) => ({ ...out, api: text }));`,
    );
    await setText(
      page,
      "Markup",
      '<p id="cookie">{{cookie}}</p><p id="parent">{{parent}}</p><p id="storage">{{storage}}</p><p id="api">{{api}}</p><p id="globals">{{globals}}</p><img src="x" onerror="document.title=\'owned\'">',
    );
    await page.getByRole("button", { name: "Preview on mock" }).click();
    const frame = output(page);
    // The script runs in the QuickJS interpreter: the language alone, with no fetch, no Worker globals, no timers.
    await expect(frame.locator("#api")).toHaveText("blocked ReferenceError");
    await expect(frame.locator("#globals")).toHaveText("none");
    await expect(frame.locator("#cookie")).toHaveText("blocked ReferenceError");
    await expect(frame.locator("#parent")).toHaveText(/^blocked /);
    await expect(frame.locator("#storage")).toHaveText("blocked ReferenceError");
    expect(apiCalls).toEqual([]);
    expect(await page.title()).not.toBe("owned");

    // The frame itself is an opaque origin: its document cannot read the portal's cookie either.
    const sandboxFrame = page.frames().find((f) => f.url() === "about:srcdoc");
    const frameCookie = await sandboxFrame?.evaluate(() => {
      try {
        return document.cookie;
      } catch (error) {
        return `blocked ${(error as Error).name}`;
      }
    });
    expect(frameCookie).toBe("blocked SecurityError");

    await setText(page, "Script", "while (true) {}");
    await page.getByRole("button", { name: "Preview on mock" }).click();
    await expect(page.getByRole("alert").filter({ hasText: "ran longer" })).toHaveText(
      "The report script ran longer than 5 seconds and was stopped.",
      { timeout: 15_000 },
    );
    await expect(page.locator('iframe[title="Report output"]')).toHaveCount(0);
    await page.getByLabel("Report title").fill("Still responsive");
    await expect(page.getByLabel("Report title")).toHaveValue("Still responsive");
  });

  test("stops a script that allocates without end, with the page alive, and still runs a normal report", async ({
    page,
  }) => {
    await login(page, DEMO_USERS.admin);
    await newReport(page);
    let crashed = false;
    page.on("crash", () => {
      crashed = true;
    });
    const alert = page.getByRole("alert").filter({ hasText: "was stopped" });
    const stillResponsive = async (title: string) => {
      // The page answers a script at once and takes typing: its thread is neither frozen nor gone.
      const started = Date.now();
      expect(await page.evaluate(() => document.title.length >= 0)).toBe(true);
      expect(Date.now() - started).toBeLessThan(2_000);
      await page.getByLabel("Report title").fill(title);
      await expect(page.getByLabel("Report title")).toHaveValue(title);
    };

    for (const [name, script] of [
      ["arrays", "let a = []; for (;;) a.push(new Array(1e6).fill(1));"],
      ["string doubling", 'let s = "x"; for (;;) s += s;'],
      ["objects", 'const keep = []; for (;;) keep.push({ n: keep.length, text: "y".repeat(1000) });'],
    ] as const) {
      await setText(page, "Script", script);
      await page.getByRole("button", { name: "Preview on mock" }).click();
      await expect(alert, name).toHaveText(
        name === "string doubling"
          ? "The report script used too much memory (a string longer than the sandbox allows) and was stopped."
          : "The report script used too much memory (more than 64 MB) and was stopped.",
        {
          timeout: 15_000,
        },
      );
      await expect(page.locator('iframe[title="Report output"]')).toHaveCount(0);
      await stillResponsive(`After ${name}`);
    }

    // A small result rendered into a huge page is stopped at the output's limit.
    await setText(page, "Script", "return { rows: new Array(2e6).fill(0) };");
    await setText(page, "Markup", "{{#each rows}}<p>row {{@index}}</p>{{/each}}");
    await page.getByRole("button", { name: "Preview on mock" }).click();
    await expect(alert).toHaveText(
      "The report's output was longer than 16 million characters and was stopped.",
      {
        timeout: 15_000,
      },
    );
    await stillResponsive("After the output");

    // A normal report runs as before, in the same page.
    await setText(
      page,
      "Script",
      "const results = data.results || [];\nreturn { total: results.length, submitted: results.filter((r) => r.isSubmitted).length };",
    );
    await setText(page, "Markup", "<p>{{submitted}} of {{total}} results submitted.</p>");
    await page.getByRole("button", { name: "Preview on mock" }).click();
    await expect(output(page).getByText("1 of 1 results submitted.")).toBeVisible();
    await expect(alert).toHaveCount(0);
    expect(crashed).toBe(false);
  });
});
