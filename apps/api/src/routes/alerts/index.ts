import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { and, asc, eq, isNull, sql } from "drizzle-orm";
import { ObjectIdSchema, SafetyAlertSchema } from "@core-care/schema";
import { authOf } from "../../plugins/auth-context.js";
import { notFound } from "../../errors.js";
import { safetyAlerts } from "../../db/schema.js";

/** Open safety alerts of the session's tenant, and their acknowledgement. */
const alertsRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get("/alerts", { schema: { response: { 200: z.array(SafetyAlertSchema) } } }, async (request) => {
    const rows = await app.db
      .select()
      .from(safetyAlerts)
      .where(
        and(
          eq(safetyAlerts.tenantId, authOf(request).tenantId),
          isNull(safetyAlerts.acknowledgedAt),
          // Alerts of a removed result or patient go with them (restored, they come back).
          sql`not exists (select 1 from survey_results r where r.tenant_id = ${safetyAlerts.tenantId}
            and r.id = ${safetyAlerts.resultId} and r.deleted_at is not null)`,
          sql`not exists (select 1 from patients p where p.tenant_id = ${safetyAlerts.tenantId}
            and p.id = ${safetyAlerts.patientId} and p.deleted_at is not null)`,
        ),
      )
      .orderBy(asc(safetyAlerts.createdAt));
    await request.audit("list", "safety-alert");
    return rows.map((r) => ({
      id: r.id,
      resultId: r.resultId,
      patientId: r.patientId,
      kind: r.kind,
      message: r.message,
      createdAt: r.createdAt.toISOString(),
      acknowledgedAt: null,
      acknowledgedBy: null,
    }));
  });

  app.post(
    "/alerts/:id/acknowledge",
    { schema: { params: z.object({ id: ObjectIdSchema }) } },
    async (request, reply) => {
      const auth = authOf(request);
      const updated = await app.db
        .update(safetyAlerts)
        .set({ acknowledgedAt: new Date(), acknowledgedBy: auth.userId })
        .where(
          and(
            eq(safetyAlerts.tenantId, auth.tenantId),
            eq(safetyAlerts.id, request.params.id),
            isNull(safetyAlerts.acknowledgedAt),
          ),
        )
        .returning({ id: safetyAlerts.id });
      if (updated.length === 0) throw notFound("Alert");
      await request.audit("update", "safety-alert", request.params.id);
      return reply.code(204).send();
    },
  );
};

export default alertsRoutes;
