import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { count, desc, eq } from "drizzle-orm";
import { AuditEventSchema, AuditListQuerySchema, listOf, PAGE_SIZE } from "@core-care/schema";
import { requireRole } from "../../plugins/auth.js";
import { authOf } from "../../plugins/auth-context.js";
import { auditEvents } from "../../db/schema.js";

/** The audit trail of the session's tenant, newest first (admins). */
const auditRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    "/audit",
    {
      onRequest: requireRole("admin"),
      schema: { querystring: AuditListQuerySchema, response: { 200: listOf(AuditEventSchema) } },
    },
    async (request) => {
      const tenantId = authOf(request).tenantId;
      const rows = await app.db
        .select()
        .from(auditEvents)
        .where(eq(auditEvents.tenantId, tenantId))
        .orderBy(desc(auditEvents.at), desc(auditEvents.id))
        .limit(PAGE_SIZE)
        .offset((request.query.page - 1) * PAGE_SIZE);
      const [total] = await app.db
        .select({ n: count() })
        .from(auditEvents)
        .where(eq(auditEvents.tenantId, tenantId));
      return {
        items: rows.map((r) => ({
          id: r.id,
          tenantId: r.tenantId,
          userId: r.userId,
          action: r.action,
          entity: r.entity,
          entityId: r.entityId,
          ip: r.ip,
          at: r.at.toISOString(),
        })),
        total: total?.n ?? 0,
      };
    },
  );
};

export default auditRoutes;
