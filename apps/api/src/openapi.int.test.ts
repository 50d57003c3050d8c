import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { Validator } from "@seriousme/openapi-schema-validator";
import { createTestApp, type TestApp } from "../test/helpers.js";
import { REFERENCE_PREFIX } from "./plugins/openapi.js";

let t: TestApp;
let document: { openapi: string; paths: Record<string, Record<string, unknown>> };

beforeAll(async () => {
  t = await createTestApp();
  const res = await t.app.inject({ method: "GET", url: "/api/openapi.json" });
  expect(res.statusCode).toBe(200);
  document = res.json();
});
afterAll(async () => {
  await t.close();
});

const METHODS = ["get", "post", "put", "delete", "patch"];
/** The document's operations as permission-table keys (`GET /api/patients/:id`). */
const documented = () =>
  new Set(
    Object.entries(document.paths).flatMap(([path, operations]) =>
      Object.keys(operations)
        .filter((method) => METHODS.includes(method))
        .map((method) => `${method.toUpperCase()} ${path.replace(/\{(\w+)\}/g, ":$1")}`),
    ),
  );
/** Routes that are not API operations: the web app's files, the reference page and the document itself. */
const NOT_OPERATIONS = new Set(["GET web-file", "GET api-reference", "GET /api/openapi.json"]);

describe("GET /api/openapi.json", () => {
  test("is a valid OpenAPI 3.1 document", async () => {
    expect(document.openapi).toBe("3.1.0");
    const result = await new Validator().validate(structuredClone(document));
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
  });

  test("documents every route, and every operation it documents is a route", () => {
    const routes = new Set([...t.app.routeKeys()].filter((key) => !NOT_OPERATIONS.has(key)));
    const operations = documented();
    expect([...routes].filter((key) => !operations.has(key)).sort()).toEqual([]);
    expect([...operations].filter((key) => !routes.has(key)).sort()).toEqual([]);
  });

  test("describes request bodies and answers from the routes' zod schemas", () => {
    const save = document.paths["/api/surveyresults"]?.post as {
      requestBody?: { content: Record<string, { schema: { properties?: Record<string, unknown> } }> };
      responses: Record<string, unknown>;
    };
    const body = save.requestBody?.content["application/json"]?.schema.properties ?? {};
    expect(Object.keys(body)).toEqual(
      expect.arrayContaining(["clientRequestId", "surveyId", "patientId", "answers"]),
    );
    expect(Object.keys(save.responses)).toContain("200");
  });
});

describe("the API reference page", () => {
  test("serves Swagger UI from this server, reading /api/openapi.json", async () => {
    const page = await t.app.inject({ method: "GET", url: REFERENCE_PREFIX });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('<div id="swagger-ui">');
    expect(page.body).not.toMatch(/src="https?:/);
    const init = await t.app.inject({
      method: "GET",
      url: `${REFERENCE_PREFIX}/static/swagger-initializer.js`,
    });
    expect(init.statusCode).toBe(200);
    const bundle = await t.app.inject({
      method: "GET",
      url: `${REFERENCE_PREFIX}/static/swagger-ui-bundle.js`,
    });
    expect(bundle.statusCode).toBe(200);
  });
});
