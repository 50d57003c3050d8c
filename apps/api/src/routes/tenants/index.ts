import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { asc, eq, sql } from "drizzle-orm";
import {
  hasRole,
  listOf,
  MeSchema,
  ReportSummarySchema,
  TenantParamsSchema,
  TenantRefSchema,
  TenantSchema,
  TenantUpdateSchema,
  type Tenant,
} from "@core-care/schema";
import { z } from "zod";
import { authOf } from "../../plugins/auth-context.js";
import { conflict, notFound } from "../../errors.js";
import { tenants, userTenants } from "../../db/schema.js";
import { installBuiltinSurveys } from "../../services/builtin-surveys.js";
import { deleteTenantData } from "../../services/tenants.js";
import { listReports } from "../../services/documents.js";
import { toTenant } from "../../services/users.js";
import { enterTenantAsSysAdmin } from "../../services/account.js";
import { AUTH_CHANNEL } from "../../services/auth-cache.js";
import { endSessionsRefusedIn } from "../../services/session-grant.js";
import { assertFacilitiesFree } from "../../inbound/facilities.js";

/** Settings that are edited elsewhere (the CDA contact, the inbound set-up on "Inbound messages"). */
const EDITED_ELSEWHERE = ["contact", "inboundFacilities", "inboundSenders", "inboundProcessingId"] as const;

/**
 * A tenant as its system administrators read and edit it (GET, POST and PUT /api/tenants): with the
 * settings edited elsewhere too, so that an edit of the practice can send them back unchanged. Every
 * other user reads `toTenant`'s.
 */
function tenantRecord(row: typeof tenants.$inferSelect): Tenant {
  const tenant = toTenant(row);
  const settings: Record<string, unknown> = { ...tenant.settings };
  for (const key of EDITED_ELSEWHERE) if (row.settings[key] !== undefined) settings[key] = row.settings[key];
  return { ...tenant, settings: settings as Tenant["settings"] };
}

const tenantsRoutes: FastifyPluginAsyncZod = async (app) => {
  const readTenant = async (id: string) => {
    const [row] = await app.db.select().from(tenants).where(eq(tenants.id, id)).limit(1);
    if (row === undefined) throw notFound("Tenant");
    return row;
  };
  const loadTenant = async (id: string) => toTenant(await readTenant(id));
  const loadTenantRecord = async (id: string) => tenantRecord(await readTenant(id));

  app.get("/tenants/me", { schema: { response: { 200: TenantSchema } } }, async (request) =>
    loadTenant(authOf(request).tenantId),
  );

  app.get(
    "/tenants/getMultiUserTenants",
    { schema: { response: { 200: z.array(TenantRefSchema) } } },
    async (request) =>
      app.db
        .select({ id: tenants.id, name: tenants.name })
        .from(userTenants)
        .innerJoin(tenants, eq(tenants.id, userTenants.tenantId))
        .where(eq(userTenants.userId, authOf(request).userId))
        .orderBy(asc(tenants.id)),
  );

  app.get(
    "/tenants/:tenantId/reports",
    {
      schema: { params: TenantParamsSchema, response: { 200: listOf(ReportSummarySchema) } },
    },
    async (request) => {
      const auth = authOf(request);
      const { tenantId } = request.params;
      // Another tenant's reports are visible to a sysAdmin only; to anyone else that tenant does not exist.
      if (tenantId !== auth.tenantId && !hasRole(auth.roles, "sysAdmin")) throw notFound("Tenant");
      await loadTenant(tenantId);
      return listReports(app.db, tenantId);
    },
  );

  app.get("/tenants", { schema: { response: { 200: listOf(TenantSchema) } } }, async () => {
    const rows = await app.db.select().from(tenants).orderBy(asc(tenants.id));
    return { items: rows.map(tenantRecord), total: rows.length };
  });

  app.post(
    "/tenants",
    { schema: { body: TenantSchema, response: { 201: TenantSchema } } },
    async (request, reply) => {
      const tenant = request.body;
      await assertFacilitiesFree(app.db, tenant.id, tenant.settings.inboundFacilities ?? []);
      await app.db.transaction(async (tx) => {
        const inserted = await tx
          .insert(tenants)
          .values(tenant)
          .onConflictDoNothing()
          .returning({ id: tenants.id });
        if (inserted.length === 0) throw conflict("A tenant with this id already exists.");
        await installBuiltinSurveys(tx, tenant.id);
      });
      await request.audit("create", "tenant", tenant.id);
      return reply.code(201).send(await loadTenantRecord(tenant.id));
    },
  );

  const idParams = z.object({ id: TenantParamsSchema.shape.tenantId });

  app.get(
    "/tenants/:id",
    { schema: { params: idParams, response: { 200: TenantSchema } } },
    async (request) => loadTenantRecord(request.params.id),
  );

  app.put(
    "/tenants/:id",
    {
      schema: { params: idParams, body: TenantUpdateSchema, response: { 200: TenantSchema } },
    },
    async (request) => {
      const { id } = request.params;
      await assertFacilitiesFree(app.db, id, request.body.settings.inboundFacilities ?? []);
      const requires = request.body.settings.requireAdminTotp === true;
      const sessionsEnded = await app.db.transaction(async (tx) => {
        const [before] = await tx
          .select({ settings: tenants.settings })
          .from(tenants)
          .where(eq(tenants.id, id))
          .for("update");
        if (before === undefined) throw notFound("Tenant");
        await tx
          .update(tenants)
          .set({ name: request.body.name, settings: request.body.settings, updatedAt: new Date() })
          .where(eq(tenants.id, id));
        if ((before.settings.requireAdminTotp === true) === requires) return 0;
        // Every server forgets the memberships it holds (their practice's requirement changed), and the
        // practice's open sessions that the rule no longer admits end now.
        await tx.execute(sql`select pg_notify(${AUTH_CHANNEL}, ${`t:${id}`})`);
        return requires ? endSessionsRefusedIn(tx, id) : 0;
      });
      await request.audit("update", "tenant", id, sessionsEnded > 0 ? { sessionsEnded } : undefined);
      return loadTenantRecord(id);
    },
  );

  app.post(
    "/tenants/:id/switch",
    { schema: { params: idParams, response: { 200: MeSchema } } },
    async (request) => enterTenantAsSysAdmin(app, request, request.params.id),
  );

  app.delete("/tenants/:id", { schema: { params: idParams } }, async (request, reply) => {
    const { id } = request.params;
    if (id === authOf(request).tenantId) throw conflict("You cannot delete the tenant you are signed in to.");
    await loadTenant(id);
    await deleteTenantData(app.db, id);
    await request.audit("delete", "tenant", id);
    return reply.code(204).send();
  });
};

export default tenantsRoutes;
