import { describe, expect, test } from "vitest";
import { takeTabletBoot } from "./boot";

function pageWith(json: string): Document {
  const doc = document.implementation.createHTMLDocument("tablet");
  doc.body.innerHTML = `<div id="root"></div><script type="application/json" id="tablet-boot">${json}</script>`;
  return doc;
}

const boot = {
  handover: {
    handoverId: "a".repeat(24),
    dataKey: "k",
    surveyId: "s1",
    idleTimeoutSeconds: 1440,
    globals: {},
  },
  survey: { id: "s1", title: "Survey", pages: [] },
};

describe("takeTabletBoot", () => {
  test("answers what the page carries once, and removes it from the page", () => {
    const doc = pageWith(JSON.stringify(boot).replace(/</g, "\\u003c"));
    expect(takeTabletBoot(doc)).toEqual(boot);
    expect(doc.getElementById("tablet-boot")).toBeNull();
    expect(takeTabletBoot(doc)).toBeNull();
  });

  test("answers null for a page without one, or with one that is not a hand-over", () => {
    expect(takeTabletBoot(document.implementation.createHTMLDocument("tablet"))).toBeNull();
    expect(takeTabletBoot(pageWith("{not json"))).toBeNull();
    expect(takeTabletBoot(pageWith(JSON.stringify({ handover: {}, survey: boot.survey })))).toBeNull();
  });
});
