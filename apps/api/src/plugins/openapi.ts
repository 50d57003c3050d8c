import fp from "fastify-plugin";
import swagger from "@fastify/swagger";
import swaggerUi from "@fastify/swagger-ui";
import { createJsonSchemaTransform, createJsonSchemaTransformObject } from "fastify-type-provider-zod";
import { z } from "zod";
import { QuestionSchema } from "@core-care/schema";

/** Where the browsable API reference lives. */
export const REFERENCE_PREFIX = "/api/reference";

/**
 * The OpenAPI 3.1 document of every route, made from the zod schemas the routes validate with
 * (@fastify/swagger through fastify-type-provider-zod), served at `/api/openapi.json`, and a browsable
 * reference of it (Swagger UI, served from this server) at `/api/reference`. Registered before the
 * routes, whose schemas it collects as they are added.
 */
export default fp(
  async (app) => {
    // Schemas the document names as components: a question holds questions (a panel's fields), which
    // only a reference can describe.
    const components = z.registry<{ id: string }>();
    components.add(QuestionSchema, { id: "Question" });
    const zodTransform = createJsonSchemaTransform({ schemaRegistry: components });
    await app.register(swagger, {
      openapi: {
        openapi: "3.1.0",
        info: {
          title: "Core Care API",
          version: "1",
          description:
            "Every call of the Core Care survey portal. Sign in with POST /api/auth/sessions; the session " +
            `cookie \`${app.sessionCookieName}\` goes with every later call, and every call other than GET needs the header ` +
            "`X-Requested-With: XMLHttpRequest`. Errors answer `{ responseStatus: { status, message, errors } }`.",
        },
        components: {
          securitySchemes: {
            session: { type: "apiKey", in: "cookie", name: app.sessionCookieName },
            bearer: {
              type: "http",
              scheme: "bearer",
              description: "A Tele-AWV link's token, or METRICS_TOKEN",
            },
          },
        },
      },
      // Each operation under its resource (`/api/patients/...` under "patients"), as the reference groups them.
      transform: (input) => {
        const output = zodTransform(input);
        const segments = input.url.split("/").filter(Boolean);
        const tag = (segments[0] === "api" ? segments[1] : "operations") ?? "operations";
        return { ...output, schema: { ...output.schema, tags: [tag] } };
      },
      transformObject: createJsonSchemaTransformObject({ schemaRegistry: components }),
    });

    app.get("/api/openapi.json", { schema: { hide: true } }, async () => app.swagger());

    // The reference's own files and pages are one entry of the permission table.
    await app.register(async (reference) => {
      reference.addHook("onRoute", (route) => {
        route.config = { ...route.config, permission: "GET api-reference" };
      });
      await reference.register(swaggerUi, {
        routePrefix: REFERENCE_PREFIX,
        uiConfig: { docExpansion: "list", deepLinking: true },
        // The document the page reads: the one at /api/openapi.json.
        transformSpecificationClone: true,
      });
    });
  },
  { name: "openapi", dependencies: ["session"] },
);
