import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { listOf, LocationInputSchema, LocationSchema } from "@core-care/schema";
import { authOf } from "../../plugins/auth-context.js";
import {
  createLocation,
  deleteLocation,
  getLocation,
  listLocations,
  updateLocation,
} from "../../services/locations.js";
import { tenantCrudRoutes } from "../tenant-crud.js";

/** Locations of the session's tenant: users read, admins write. */
const locationsRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get("/locations", { schema: { response: { 200: listOf(LocationSchema) } } }, async (request) => {
    const items = await listLocations(app.db, authOf(request).tenantId);
    return { items, total: items.length };
  });

  tenantCrudRoutes(app, {
    path: "/locations",
    entity: "location",
    schema: LocationSchema,
    inputSchema: LocationInputSchema,
    get: getLocation,
    create: createLocation,
    update: updateLocation,
    remove: deleteLocation,
  });
};

export default locationsRoutes;
