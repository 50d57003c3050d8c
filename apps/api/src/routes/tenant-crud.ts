import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { ObjectIdSchema } from "@core-care/schema";
import type { Db } from "../db/index.js";
import { authOf } from "../plugins/auth-context.js";

const IdParams = z.object({ id: ObjectIdSchema });

/** A resource kept per tenant, with the service functions that read and change one item of it. */
export interface TenantCrud<Item extends { id: string }, Input> {
  /** The collection's path, e.g. `/locations`; one item is at `<path>/:id`. */
  path: string;
  /** The entity named in audit events. */
  entity: string;
  schema: z.ZodType<Item>;
  inputSchema: z.ZodType<Input>;
  get: (db: Db, tenantId: string, id: string) => Promise<Item>;
  create: (db: Db, tenantId: string, input: Input) => Promise<Item>;
  update: (db: Db, tenantId: string, id: string, input: Input) => Promise<Item>;
  remove: (db: Db, tenantId: string, id: string) => Promise<void>;
}

/**
 * Registers `GET <path>/:id` for users and audited `POST <path>`, `PUT <path>/:id` and `DELETE <path>/:id`
 * for admins, each within the session's tenant. Listing differs per resource and stays with it.
 */
export function tenantCrudRoutes<Item extends { id: string }, Input>(
  app: Parameters<FastifyPluginAsyncZod>[0],
  crud: TenantCrud<Item, Input>,
): void {
  const { path, entity, inputSchema } = crud;
  // Fastify's types cannot resolve a zod schema of a type parameter: the response schema is widened (the
  // serializer still parses with the resource's own schema), and the body, which the validator has already
  // parsed with inputSchema, is taken as Input.
  const schema: z.ZodType<{ id: string }> = crud.schema;
  const inputOf = (request: { body: unknown }) => request.body as Input;

  app.get(`${path}/:id`, { schema: { params: IdParams, response: { 200: schema } } }, async (request) =>
    crud.get(app.db, authOf(request).tenantId, request.params.id),
  );

  app.post(path, { schema: { body: inputSchema, response: { 201: schema } } }, async (request, reply) => {
    const item = await crud.create(app.db, authOf(request).tenantId, inputOf(request));
    await request.audit("create", entity, item.id);
    return reply.code(201).send(item);
  });

  app.put(
    `${path}/:id`,
    {
      schema: { params: IdParams, body: inputSchema, response: { 200: schema } },
    },
    async (request) => {
      const item = await crud.update(app.db, authOf(request).tenantId, request.params.id, inputOf(request));
      await request.audit("update", entity, item.id);
      return item;
    },
  );

  app.delete(`${path}/:id`, { schema: { params: IdParams } }, async (request, reply) => {
    await crud.remove(app.db, authOf(request).tenantId, request.params.id);
    await request.audit("delete", entity, request.params.id);
    return reply.code(204).send();
  });
}
