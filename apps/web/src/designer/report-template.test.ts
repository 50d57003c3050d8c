import { describe, expect, test } from "vitest";
import { escapeHtml, OutputTooLargeError, renderTemplate, TemplateError } from "./report-template";

describe("renderTemplate", () => {
  test("fills values by dotted path and escapes them", () => {
    expect(renderTemplate("<p>{{a.b}} / {{missing}}</p>", { a: { b: "<b>&'\"" } })).toBe(
      "<p>&lt;b&gt;&amp;&#39;&quot; / </p>",
    );
  });

  test("repeats each item with its index and reads outer values inside", () => {
    const markup = "{{#each rows}}[{{@index}}:{{name}}/{{unit}}]{{/each}}";
    expect(renderTemplate(markup, { unit: "kg", rows: [{ name: "a" }, { name: "b", unit: "lb" }] })).toBe(
      "[0:a/kg][1:b/lb]",
    );
    expect(renderTemplate("{{#each list}}{{.}},{{/each}}", { list: [1, 2] })).toBe("1,2,");
  });

  test("chooses if, else and unless branches, an empty list counting as false", () => {
    const markup = "{{#if items}}some{{else}}none{{/if}}|{{#unless ok}}not ok{{/unless}}";
    expect(renderTemplate(markup, { items: [], ok: false })).toBe("none|not ok");
    expect(renderTemplate(markup, { items: [1], ok: true })).toBe("some|");
    expect(renderTemplate("{{#each list}}x{{else}}empty{{/each}}", { list: [] })).toBe("empty");
  });

  test("shows objects as JSON text, never as markup", () => {
    expect(renderTemplate("{{o}}", { o: { x: "<i>" } })).toBe(escapeHtml(JSON.stringify({ x: "<i>" })));
  });

  test.each([
    ["{{#each a}}", "{{#each a}} is not closed."],
    ["{{/if}}", "Unexpected {{/if}}."],
    ["{{#if a}}{{/each}}", "Unexpected {{/each}}."],
    ["{{else}}", "{{else}} outside a block."],
  ])("rejects %s", (markup, message) => {
    expect(() => renderTemplate(markup, {})).toThrow(new TemplateError(message));
  });

  test("stops rendering as soon as the text passes its limit", () => {
    const model = { rows: new Array(1_000_000).fill(0) };
    expect(() => renderTemplate("{{#each rows}}<p>row {{@index}}</p>{{/each}}", model, 1_000)).toThrow(
      new OutputTooLargeError(1_000),
    );
    expect(renderTemplate("<p>{{a}}</p>", { a: "12345" }, 12)).toBe("<p>12345</p>");
    expect(() => renderTemplate("<p>{{a}}</p>", { a: "123456" }, 12)).toThrow(OutputTooLargeError);
  });
});
