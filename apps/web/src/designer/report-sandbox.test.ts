import { afterEach, describe, expect, test, vi } from "vitest";
import { isFrameMessage, reportDocument } from "./report-protocol";
import { ReportSandbox, sandboxDocument } from "./report-sandbox";

afterEach(() => {
  document.body.replaceChildren();
});

describe("sandboxDocument", () => {
  test("allows only the sandbox's own script and blob workers, and no network", () => {
    const html = sandboxDocument("https://portal.example", "/assets/report-frame-abc.js");
    const policy = /content="([^"]*)"/.exec(html)?.[1] ?? "";
    expect(policy.split("; ")).toEqual([
      "default-src 'none'",
      "script-src https://portal.example/assets/report-frame-abc.js 'wasm-unsafe-eval'",
      "worker-src blob:",
      "style-src 'unsafe-inline'",
      "img-src data:",
      "form-action 'none'",
    ]);
    expect(html).toContain('<script src="https://portal.example/assets/report-frame-abc.js"></script>');
  });
});

describe("ReportSandbox", () => {
  test("runs each report in a fresh iframe with an opaque origin and tears it down on dispose", async () => {
    const container = document.createElement("div");
    document.body.append(container);
    const sandbox = new ReportSandbox(container, 1_000);

    const first = sandbox.run("return data;", "<p>{{a}}</p>", { a: 1 });
    const frame = container.querySelector("iframe");
    expect(frame?.getAttribute("sandbox")).toBe("allow-scripts allow-modals");
    expect(frame?.getAttribute("sandbox")).not.toContain("allow-same-origin");
    expect(frame?.getAttribute("title")).toBe("Report output");
    expect(frame?.srcdoc).toContain("default-src 'none'");

    const second = sandbox.run("return data;", "", {});
    await expect(first).rejects.toThrow("The report run was replaced.");
    expect(container.querySelectorAll("iframe")).toHaveLength(1);
    expect(container.querySelector("iframe")).not.toBe(frame);

    sandbox.dispose();
    await expect(second).rejects.toThrow("The report run was replaced.");
    expect(container.querySelector("iframe")).toBeNull();
  });
});

describe("ReportSandbox time limit", () => {
  test("tears the frame down and says so when the sandbox never starts", async () => {
    vi.useFakeTimers();
    try {
      const container = document.createElement("div");
      document.body.append(container);
      const run = new ReportSandbox(container, 1_000).run("return data;", "", {});
      const outcome = expect(run).rejects.toThrow(
        "The report sandbox could not start; the page's security policy may not allow it.",
      );
      await vi.advanceTimersByTimeAsync(6_001);
      await outcome;
      expect(container.querySelector("iframe")).toBeNull();
    } finally {
      vi.useRealTimers();
    }
  });
});

describe("isFrameMessage", () => {
  test.each([
    [{ type: "ready" }, true],
    [{ type: "done", html: "<p></p>" }, true],
    [{ type: "done" }, false],
    [{ type: "error", message: "x" }, true],
    [{ type: "height", height: "12" }, false],
    [{ type: "eval", code: "alert(1)" }, false],
    ["ready", false],
    [null, false],
  ])("accepts %j: %s", (message, expected) => {
    expect(isFrameMessage(message)).toBe(expected);
  });
});

describe("reportDocument", () => {
  test("wraps the report with its print stylesheet and a policy that runs no script", () => {
    const html = reportDocument('Q1 <"report">', "<h1>Totals</h1>");
    expect(html).toContain("<title>Q1 &#60;&#34;report&#34;&#62;</title>");
    expect(html).toContain(`content="default-src 'none'; style-src 'unsafe-inline'; img-src data:"`);
    expect(html).toContain("@media print");
    expect(html).toContain("<h1>Totals</h1>");
  });
});
