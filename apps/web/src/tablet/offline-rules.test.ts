import { describe, expect, test } from "vitest";
import { answerFor, CACHE_PREFIX, cacheName, carriesUser } from "./offline-rules";

const SCOPE = "https://clinic.example/tablet";
const FILES = new Set(["/assets/tablet-a1.js", "/assets/tablet-a1.css"]);

const request = (url: string, mode = "cors", method = "GET") => ({ url, mode, method });

describe("answerFor", () => {
  test.each([
    ["https://clinic.example/tablet", "page"],
    ["https://clinic.example/tablet?patientId=abc", "page"],
    ["https://clinic.example/tablet/patient-survey/abc/pg/2", "page"],
    ["https://clinic.example/tablets", "network"],
    ["https://clinic.example/patients", "network"],
    ["https://other.example/tablet", "network"],
  ])("answers a navigation to %s from the %s", (url, expected) => {
    expect(answerFor(request(url, "navigate"), SCOPE, FILES)).toBe(expected);
  });

  test("answers the build's files of the tablet page from the cache", () => {
    expect(answerFor(request("https://clinic.example/assets/tablet-a1.js"), SCOPE, FILES)).toBe("file");
    expect(answerFor(request("https://clinic.example/assets/tablet-a1.css", "no-cors"), SCOPE, FILES)).toBe(
      "file",
    );
    expect(answerFor(request("https://clinic.example/assets/portal-b2.js"), SCOPE, FILES)).toBe("network");
  });

  test.each([
    request("https://clinic.example/api/surveys/abc"),
    request("https://clinic.example/api/config"),
    request("https://clinic.example/api/surveyresults", "cors", "POST"),
    request("https://clinic.example/api/tablet", "navigate"),
    request("https://clinic.example/assets/tablet-a1.js", "cors", "HEAD"),
  ])("never touches %j", (req) => {
    expect(answerFor(req, SCOPE, FILES)).toBe("network");
  });
});

describe("cacheName", () => {
  test("names one cache per build", () => {
    const first = cacheName(["/assets/tablet-a1.js"]);
    expect(first.startsWith(CACHE_PREFIX)).toBe(true);
    expect(cacheName(["/assets/tablet-a1.js"])).toBe(first);
    expect(cacheName(["/assets/tablet-a2.js"])).not.toBe(first);
  });
});

describe("carriesUser", () => {
  test("finds the signed-in user's data attributes on <body>", () => {
    expect(
      carriesUser('<html><body class="app" data-user="{&quot;id&quot;:1}"><div></div></body></html>'),
    ).toBe(true);
    expect(carriesUser('<body data-tenant="{}">')).toBe(true);
  });

  test("finds a patient's hand-over put in the page", () => {
    expect(
      carriesUser(
        '<body><div id="root"></div><script type="application/json" id="tablet-boot">{}</script></body>',
      ),
    ).toBe(true);
  });

  test("accepts the page as it is sent to no one in particular", () => {
    expect(carriesUser('<!doctype html><html><head></head><body><div id="root"></div></body></html>')).toBe(
      false,
    );
  });
});
