/**
 * What the portal asks of the report sandbox. A run's data is its JSON as UTF-8 bytes, transferred (not
 * copied) to the frame and on to the report's Worker, which alone parses it: a report over thousands of
 * results is never copied object by object on the page's thread.
 */
export type FrameRequest =
  { type: "run"; script: string; markup: string; data: ArrayBuffer; timeoutMs: number } | { type: "print" };

/** What the report sandbox tells the portal. */
export type FrameMessage =
  | { type: "ready" }
  | { type: "done"; html: string }
  | { type: "error"; message: string }
  | { type: "height"; height: number };

/** True when `value` is a well-formed {@link FrameMessage}; anything else from the frame is ignored. */
export function isFrameMessage(value: unknown): value is FrameMessage {
  if (typeof value !== "object" || value === null) return false;
  const message = value as Record<string, unknown>;
  switch (message.type) {
    case "ready":
      return true;
    case "done":
      return typeof message.html === "string";
    case "error":
      return typeof message.message === "string";
    case "height":
      return typeof message.height === "number";
    default:
      return false;
  }
}

/** The print stylesheet of a report, in the sandbox and in the downloaded HTML. */
export const REPORT_STYLE = `
body { font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: #1a1a1a; margin: 1rem; line-height: 1.4; }
table { border-collapse: collapse; width: 100%; }
th, td { border: 1px solid #bbb; padding: 0.25rem 0.5rem; text-align: left; vertical-align: top; }
h1, h2, h3 { line-height: 1.2; }
@page { margin: 15mm; }
@media print {
  body { margin: 0; font-size: 11pt; }
  a { color: inherit; text-decoration: none; }
  table { page-break-inside: auto; }
  tr, img { page-break-inside: avoid; }
  h1, h2, h3 { page-break-after: avoid; }
}
`;

/** A stand-alone HTML document of a rendered report, with no script allowed to run in it. */
export function reportDocument(title: string, html: string): string {
  const safeTitle = title.replace(/[<>&"']/g, (c) => `&#${c.charCodeAt(0)};`);
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:">
<title>${safeTitle}</title>
<style>${REPORT_STYLE}</style>
</head>
<body>
${html}
</body>
</html>
`;
}
