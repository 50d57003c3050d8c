import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import {
  InboundFacilitiesBodySchema,
  InboundMessageListQuerySchema,
  InboundMessageSchema,
  InboundSendersBodySchema,
  listOf,
} from "@core-care/schema";
import { authOf } from "../plugins/auth-context.js";
import { getInboundFacilities, setInboundFacilities } from "./facilities.js";
import { getInboundSenders, setInboundSenders } from "./senders.js";
import { listInboundMessages } from "./service.js";

/**
 * The practice's inbound HL7 log, the receiving facilities that choose it, and the senders and
 * processing id whose messages it applies (admins).
 */
const inboundRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    "/inbound-messages",
    {
      schema: { querystring: InboundMessageListQuerySchema, response: { 200: listOf(InboundMessageSchema) } },
    },
    async (request) => {
      const page = await listInboundMessages(app.db, authOf(request).tenantId, request.query);
      // The log names patients by MRN: reading it is a read of patient data.
      await request.audit("list", "inbound-message");
      return page;
    },
  );

  app.get(
    "/inbound-facilities",
    { schema: { response: { 200: InboundFacilitiesBodySchema } } },
    async (request) => ({ facilities: await getInboundFacilities(app.db, authOf(request).tenantId) }),
  );

  app.put(
    "/inbound-facilities",
    { schema: { body: InboundFacilitiesBodySchema, response: { 200: InboundFacilitiesBodySchema } } },
    async (request) => {
      const tenantId = authOf(request).tenantId;
      const facilities = await setInboundFacilities(app.db, tenantId, request.body.facilities);
      await request.audit("update", "inbound-facilities", tenantId);
      return { facilities };
    },
  );

  app.get("/inbound-senders", { schema: { response: { 200: InboundSendersBodySchema } } }, async (request) =>
    getInboundSenders(app.db, authOf(request).tenantId),
  );

  app.put(
    "/inbound-senders",
    { schema: { body: InboundSendersBodySchema, response: { 200: InboundSendersBodySchema } } },
    async (request) => {
      const tenantId = authOf(request).tenantId;
      const saved = await setInboundSenders(app.db, tenantId, request.body);
      await request.audit("update", "inbound-senders", tenantId);
      return saved;
    },
  );
};

export default inboundRoutes;
