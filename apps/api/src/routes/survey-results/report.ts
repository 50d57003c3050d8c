import { Readable } from "node:stream";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { ReportDataQuerySchema, type ReportDataLine } from "@core-care/schema";
import { authOf } from "../../plugins/auth-context.js";
import { reportPages } from "../../services/report-data.js";

async function* ndjson(pages: AsyncIterable<ReportDataLine[]>): AsyncGenerator<string> {
  for await (const lines of pages) yield lines.map((line) => `${JSON.stringify(line)}\n`).join("");
}

/**
 * GET /api/surveyresults/report: the period's results with their answers for a report, in one call,
 * streamed as newline-delimited JSON a page at a time (docs/api.md), so neither the server nor the
 * browser holds more than a page of it at once on the way.
 */
const reportDataRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    "/surveyresults/report",
    { schema: { querystring: ReportDataQuerySchema } },
    async (request, reply) => {
      const { tenantId } = authOf(request);
      await request.audit("export", "survey-result-report", null, {
        duration: request.query.duration,
        clinical: request.query.clinical,
      });
      const body = Readable.from(ndjson(reportPages(app.db, tenantId, request.query)), { objectMode: false });
      return reply.type("application/x-ndjson; charset=utf-8").send(body);
    },
  );
};

export default reportDataRoutes;
