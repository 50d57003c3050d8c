import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { listOf, LocationInputSchema, LocationSchema, ObjectIdSchema } from "@core-care/schema";
import { requireRole } from "../../plugins/auth.js";
import { authOf } from "../../plugins/auth-context.js";
import {
  createLocation,
  deleteLocation,
  getLocation,
  listLocations,
  updateLocation,
} from "../../services/locations.js";

const IdParams = z.object({ id: ObjectIdSchema });

/** Locations of the session's tenant: users read, admins write. */
const locationsRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    "/locations",
    { onRequest: requireRole("user"), schema: { response: { 200: listOf(LocationSchema) } } },
    async (request) => {
      const items = await listLocations(app.db, authOf(request).tenantId);
      return { items, total: items.length };
    },
  );

  app.get(
    "/locations/:id",
    { onRequest: requireRole("user"), schema: { params: IdParams, response: { 200: LocationSchema } } },
    async (request) => getLocation(app.db, authOf(request).tenantId, request.params.id),
  );

  app.post(
    "/locations",
    {
      onRequest: requireRole("admin"),
      schema: { body: LocationInputSchema, response: { 201: LocationSchema } },
    },
    async (request, reply) => {
      const location = await createLocation(app.db, authOf(request).tenantId, request.body);
      await request.audit("create", "location", location.id);
      return reply.code(201).send(location);
    },
  );

  app.put(
    "/locations/:id",
    {
      onRequest: requireRole("admin"),
      schema: { params: IdParams, body: LocationInputSchema, response: { 200: LocationSchema } },
    },
    async (request) => {
      const location = await updateLocation(
        app.db,
        authOf(request).tenantId,
        request.params.id,
        request.body,
      );
      await request.audit("update", "location", location.id);
      return location;
    },
  );

  app.delete(
    "/locations/:id",
    { onRequest: requireRole("admin"), schema: { params: IdParams } },
    async (request, reply) => {
      await deleteLocation(app.db, authOf(request).tenantId, request.params.id);
      await request.audit("delete", "location", request.params.id);
      return reply.code(204).send();
    },
  );
};

export default locationsRoutes;
