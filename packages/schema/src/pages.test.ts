import { describe, expect, test } from "vitest";
import { TABLET_DRAWN_ATTRIBUTE } from "./paths.js";
import { injectDrawnPage, injectTabletBoot, pageFor, TABLET_BOOT_ID } from "./pages.js";

const PAGE = '<!doctype html><html lang="en"><head></head><body><div id="root"></div></body></html>';

describe("the tablet's first page drawn on the server", () => {
  test("goes in the empty root, inert and marked, with the page's language on <html>", () => {
    const html = injectDrawnPage(PAGE, { html: "<main><h1>Tu salud hoy</h1></main>", language: "es" });
    expect(html).toBe(
      `<!doctype html><html lang="es"><head></head><body><div id="root" ${TABLET_DRAWN_ATTRIBUTE} inert><main><h1>Tu salud hoy</h1></main></div></body></html>`,
    );
  });

  test("keeps markup with $ patterns as drawn (a patient's name or answer is never a replacement pattern)", () => {
    const drawn = "<p>Patient: $& $' $` $$1</p>";
    expect(injectDrawnPage(PAGE, { html: drawn, language: "en" })).toContain(`inert>${drawn}</div>`);
  });

  test("leaves a page without the build's empty root, or with an unknown language, as it is", () => {
    const filled = PAGE.replace('<div id="root"></div>', '<div id="root"><p>x</p></div>');
    expect(injectDrawnPage(filled, { html: "<h1>x</h1>", language: "en" })).toBe(filled);
    expect(injectDrawnPage(PAGE, { html: "<h1>x</h1>", language: 'en" onload="x' })).toBe(PAGE);
  });

  test("sits beside the boot block, which goes at the end of the body", () => {
    const drawn = injectDrawnPage(PAGE, { html: "<h1>Your health today</h1>", language: "en" });
    const html = injectTabletBoot(drawn, { handover: { firstName: "</script><b>" } });
    expect(html).toContain("<h1>Your health today</h1></div>");
    expect(html).toContain(
      `<script type="application/json" id="${TABLET_BOOT_ID}">{"handover":{"firstName":"\\u003c/script\\u003e\\u003cb\\u003e"}}</script></body>`,
    );
  });

  test("is for the tablet's page alone", () => {
    expect(pageFor("/tablet/patient-survey/s/pg/1?x=1")).toBe("tablet.html");
    expect(pageFor("/patients")).toBe("index.html");
  });
});
