import { Readable } from "node:stream";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import {
  AuditEventSchema,
  AuditFilterSchema,
  AuditListQuerySchema,
  hasRole,
  listOf,
  type AuditEvent,
} from "@core-care/schema";
import { authOf } from "../../plugins/auth-context.js";
import { forbidden } from "../../errors.js";
import { NO_TENANT } from "../../services/audit.js";
import { auditEventsForExport, listAuditEvents } from "../../services/audit-log.js";
import { CSV_BOM, csvRow } from "../../services/csv.js";

const CSV_HEADER = ["When (UTC)", "User", "E-mail", "Action", "Record", "Record id", "From", "Details"];

function csvLine(event: AuditEvent): string {
  return csvRow([
    event.at,
    event.user?.name ?? event.userId ?? "",
    event.user?.email ?? "",
    event.action,
    event.entity,
    event.entityId,
    event.ip,
    event.details === null ? "" : JSON.stringify(event.details),
  ]);
}

/**
 * The audit trail of the session's tenant, newest first (admins), filtered by action, user, patient and
 * period; with `scope=system`, the events that belong to no tenant, such as failed sign-ins of unknown
 * e-mails (sysAdmins). The same filters export it as CSV.
 */
const auditRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    "/audit",
    { schema: { querystring: AuditListQuerySchema, response: { 200: listOf(AuditEventSchema) } } },
    async (request) => {
      const auth = authOf(request);
      const { scope, ...query } = request.query;
      if (scope === "system" && !hasRole(auth.roles, "sysAdmin")) throw forbidden();
      return listAuditEvents(app.db, scope === "system" ? NO_TENANT : auth.tenantId, query);
    },
  );

  app.get("/audit/export", { schema: { querystring: AuditFilterSchema } }, async (request, reply) => {
    const auth = authOf(request);
    const { scope, ...query } = request.query;
    if (scope === "system" && !hasRole(auth.roles, "sysAdmin")) throw forbidden();
    const tenantId = scope === "system" ? NO_TENANT : auth.tenantId;
    // Exporting the trail is itself on the trail, with the filters used.
    await request.audit("export", "audit-log", null, { ...query, scope });
    async function* lines() {
      yield CSV_BOM + csvRow(CSV_HEADER);
      for await (const batch of auditEventsForExport(app.db, tenantId, query)) {
        yield batch.map(csvLine).join("");
      }
    }
    const day = new Date().toISOString().slice(0, 10);
    return reply
      .type("text/csv; charset=utf-8")
      .header("content-disposition", `attachment; filename="audit-log-${day}.csv"`)
      .send(Readable.from(lines()));
  });
};

export default auditRoutes;
