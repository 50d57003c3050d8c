import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { InterfaceInputSchema, InterfaceListQuerySchema, InterfaceSchema, listOf } from "@core-care/schema";
import { authOf } from "../../plugins/auth-context.js";
import {
  createInterface,
  deleteInterface,
  getInterface,
  listInterfaces,
  updateInterface,
} from "../../services/interfaces.js";
import { tenantCrudRoutes } from "../tenant-crud.js";

/** Delivery interfaces of the session's tenant: users read (to pick one), admins write; secrets are write-only. */
const interfacesRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    "/interfaces",
    {
      schema: { querystring: InterfaceListQuerySchema, response: { 200: listOf(InterfaceSchema) } },
    },
    async (request) => {
      const items = await listInterfaces(app.db, authOf(request).tenantId, request.query.type);
      return { items, total: items.length };
    },
  );

  tenantCrudRoutes(app, {
    path: "/interfaces",
    entity: "interface",
    schema: InterfaceSchema,
    inputSchema: InterfaceInputSchema,
    get: getInterface,
    create: createInterface,
    update: updateInterface,
    remove: deleteInterface,
  });
};

export default interfacesRoutes;
