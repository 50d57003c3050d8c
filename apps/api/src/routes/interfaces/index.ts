import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import {
  InterfaceCheckSchema,
  InterfaceInputSchema,
  InterfaceListQuerySchema,
  InterfaceSchema,
  listOf,
} from "@core-care/schema";
import { z } from "zod";
import { checkSftpInterface } from "../../delivery/sftp-check.js";
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

  // SFTP: reads the server's host key for the admin to confirm (as `hostKeySha256`), and with a confirmed
  // key whether signing in works. Sends no credential to a server whose key is not the confirmed one.
  app.post(
    "/interfaces/:id/check-connection",
    {
      schema: {
        params: z.object({ id: z.string().regex(/^[a-f0-9]{24}$/) }),
        response: { 200: InterfaceCheckSchema },
      },
    },
    async (request) => {
      const { tenantId } = authOf(request);
      const check = await checkSftpInterface(app.db, tenantId, request.params.id);
      await request.audit("read", "interface", request.params.id);
      return check;
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
