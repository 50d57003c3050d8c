import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import {
  InterfaceInputSchema,
  InterfaceListQuerySchema,
  InterfaceSchema,
  listOf,
  ObjectIdSchema,
} from "@core-care/schema";
import { requireRole } from "../../plugins/auth.js";
import { authOf } from "../../plugins/auth-context.js";
import {
  createInterface,
  deleteInterface,
  getInterface,
  listInterfaces,
  updateInterface,
} from "../../services/interfaces.js";

const IdParams = z.object({ id: ObjectIdSchema });

/** Delivery interfaces of the session's tenant: users read (to pick one), admins write; secrets are write-only. */
const interfacesRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    "/interfaces",
    {
      onRequest: requireRole("user"),
      schema: { querystring: InterfaceListQuerySchema, response: { 200: listOf(InterfaceSchema) } },
    },
    async (request) => {
      const items = await listInterfaces(app.db, authOf(request).tenantId, request.query.type);
      return { items, total: items.length };
    },
  );

  app.get(
    "/interfaces/:id",
    { onRequest: requireRole("user"), schema: { params: IdParams, response: { 200: InterfaceSchema } } },
    async (request) => getInterface(app.db, authOf(request).tenantId, request.params.id),
  );

  app.post(
    "/interfaces",
    {
      onRequest: requireRole("admin"),
      schema: { body: InterfaceInputSchema, response: { 201: InterfaceSchema } },
    },
    async (request, reply) => {
      const iface = await createInterface(app.db, authOf(request).tenantId, request.body);
      await request.audit("create", "interface", iface.id);
      return reply.code(201).send(iface);
    },
  );

  app.put(
    "/interfaces/:id",
    {
      onRequest: requireRole("admin"),
      schema: { params: IdParams, body: InterfaceInputSchema, response: { 200: InterfaceSchema } },
    },
    async (request) => {
      const iface = await updateInterface(app.db, authOf(request).tenantId, request.params.id, request.body);
      await request.audit("update", "interface", iface.id);
      return iface;
    },
  );

  app.delete(
    "/interfaces/:id",
    { onRequest: requireRole("admin"), schema: { params: IdParams } },
    async (request, reply) => {
      await deleteInterface(app.db, authOf(request).tenantId, request.params.id);
      await request.audit("delete", "interface", request.params.id);
      return reply.code(204).send();
    },
  );
};

export default interfacesRoutes;
