// The Chromium of the web benchmarks, quiet beside the page being timed.
import { chromium, type Browser } from "@playwright/test";

const executablePath = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const args = ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--disable-background-networking"];

/**
 * Browser features whose work would run beside every timed load. Chromium 150 and later draw the
 * address bar's suggestion popup as a web page of their own (WebUIOmniboxPopup), which every new
 * window, so every new Playwright context, loads in a renderer of its own: some 300 files and their
 * scripts, parsed and run in the same second as the page being timed, on a machine of two cores. A
 * tablet's browser has it loaded long before a patient's page.
 */
const QUIET_FEATURES = ["WebUIOmniboxPopup"];

/** The `--disable-features=…` Playwright passes, read from the browser's own account of its command line. */
async function playwrightDisabledFeatures(): Promise<string | undefined> {
  const browser = await chromium.launch({ executablePath, args });
  try {
    const page = await browser.newPage();
    await page.goto("chrome://version");
    const commandLine = (await page.locator("#command_line").textContent()) ?? "";
    return /(?:^|\s)(--disable-features=\S*)/.exec(commandLine)?.[1];
  } finally {
    await browser.close();
  }
}

/**
 * Launches the benchmarks' Chromium with {@link QUIET_FEATURES} off. Chromium reads one
 * `--disable-features` only (the last), so Playwright's own list is read first and the two are passed
 * as one; its features stay off as in any Playwright run.
 */
export async function launchBenchBrowser(): Promise<Browser> {
  const ownFlag = await playwrightDisabledFeatures();
  const theirs = ownFlag === undefined ? [] : ownFlag.slice("--disable-features=".length).split(",");
  return chromium.launch({
    executablePath,
    args: [...args, `--disable-features=${[...theirs, ...QUIET_FEATURES].filter(Boolean).join(",")}`],
    ignoreDefaultArgs: ownFlag === undefined ? [] : [ownFlag],
  });
}
