import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import {
  BatchUploadRequestSchema,
  BatchUploadResponseSchema,
  BatchUploadStreamQuerySchema,
  type BatchUploadResponse,
  DeliveryAcceptedSchema,
  DeliveryCountsSchema,
  DeliveryListQuerySchema,
  DeliveryListResponseSchema,
  DeliverySchema,
  FlagSchema,
  ObjectIdSchema,
  SendResultRequestSchema,
  type DeliveryFormat,
} from "@core-care/schema";
import type { FastifyRequest } from "fastify";
import { authOf } from "../plugins/auth-context.js";
import { batchUpload, csvRows, ndjsonRows, parseUpload } from "./batch/index.js";
import { fieldError } from "../errors.js";
import {
  countFailedDeliveries,
  deliveryMessage,
  enqueueDelivery,
  listDeliveries,
  listTenantDeliveries,
  resendDelivery,
  skipDelivery,
  stalledQueues,
} from "./outbox.js";

const IdParams = z.object({ id: ObjectIdSchema });

/** SPEC §7 names sendhl7, sendCDA and sftpout; sendfhir is ours (docs/api.md). */
const SEND_ROUTES: Record<string, DeliveryFormat> = {
  sendhl7: "hl7",
  sendCDA: "cda",
  sftpout: "sftp",
  sendfhir: "fhir",
};

/** One audit event per upload, with its counts (no row's content). */
const auditUpload = (request: FastifyRequest, outcome: BatchUploadResponse) =>
  request.audit("create", "survey-result-batch", null, {
    created: outcome.created,
    updated: outcome.updated,
    unchanged: outcome.unchanged,
    rejected: outcome.rejectedCount,
  });

/** Sending survey results to the tenant's interfaces, their delivery log, resends and batch upload. */
const deliveryRoutes: FastifyPluginAsyncZod = async (app) => {
  const wake = () => {
    if (app.hasDecorator("deliveryWorker")) app.deliveryWorker.wake();
  };

  for (const [name, format] of Object.entries(SEND_ROUTES)) {
    app.post(
      `/surveyresults/:id/${name}`,
      {
        schema: {
          params: IdParams,
          body: SendResultRequestSchema,
          response: { 202: DeliveryAcceptedSchema },
        },
      },
      async (request, reply) => {
        const auth = authOf(request);
        const deliveryId = await app.db.transaction((tx) =>
          enqueueDelivery(tx, {
            tenantId: auth.tenantId,
            resultId: request.params.id,
            interfaceId: request.body.interfaceId,
            locationId: request.body.locationId ?? null,
            format,
            userId: auth.userId,
            ip: request.ip,
          }),
        );
        wake();
        return reply.code(202).send({ deliveryId });
      },
    );
  }

  app.get(
    "/surveyresults/:id/deliveries",
    { schema: { params: IdParams, response: { 200: z.array(DeliverySchema) } } },
    async (request) => {
      const auth = authOf(request);
      const items = await listDeliveries(app.db, auth.tenantId, request.params.id);
      await request.audit("list", "delivery", request.params.id);
      return items;
    },
  );

  app.get(
    "/deliveries",
    { schema: { querystring: DeliveryListQuerySchema, response: { 200: DeliveryListResponseSchema } } },
    async (request) => {
      const auth = authOf(request);
      const page = await listTenantDeliveries(app.db, auth.tenantId, request.query);
      // The list names patients: a PHI read.
      await request.audit(
        "list",
        "delivery",
        null,
        request.query.status ? { status: request.query.status } : undefined,
      );
      return page;
    },
  );

  app.get("/deliveries/counts", { schema: { response: { 200: DeliveryCountsSchema } } }, async (request) => {
    const { tenantId } = authOf(request);
    const stallMinutes = app.config.deliveryStallMinutes;
    return {
      failed: await countFailedDeliveries(app.db, tenantId),
      stalled: await stalledQueues(app.db, tenantId, stallMinutes),
      stallMinutes,
    };
  });

  app.get(
    "/deliveries/:id/message",
    { schema: { params: IdParams, querystring: z.object({ download: FlagSchema.default(false) }) } },
    async (request, reply) => {
      const auth = authOf(request);
      const message = await deliveryMessage(app.db, auth.tenantId, request.params.id);
      await request.audit("read", "delivery-message", request.params.id);
      reply.type(message.contentType).header("cache-control", "no-store");
      if (request.query.download) {
        reply.header("content-disposition", `attachment; filename="${message.fileName}"`);
      }
      return reply.send(message.body);
    },
  );

  app.post(
    "/deliveries/:id/skip",
    { schema: { params: IdParams, response: { 200: DeliverySchema } } },
    async (request) => {
      const auth = authOf(request);
      const skipped = await skipDelivery(app.db, auth.tenantId, request.params.id, auth.userId, request.ip);
      wake();
      return skipped;
    },
  );

  app.post(
    "/deliveries/:id/resend",
    { schema: { params: IdParams, response: { 202: DeliveryAcceptedSchema } } },
    async (request, reply) => {
      const auth = authOf(request);
      const deliveryId = await resendDelivery(
        app.db,
        auth.tenantId,
        request.params.id,
        auth.userId,
        request.ip,
      );
      wake();
      return reply.code(202).send({ deliveryId });
    },
  );

  app.post(
    "/surveyresults/batchUpload",
    { schema: { body: BatchUploadRequestSchema, response: { 200: BatchUploadResponseSchema } } },
    async (request) => {
      const auth = authOf(request);
      const outcome = await batchUpload(app.db, auth.tenantId, auth.userId, parseUpload(request.body), {
        interfaceId: request.body.interfaceId,
        ip: request.ip,
      });
      await auditUpload(request, outcome);
      if (request.body.interfaceId !== undefined) wake();
      return outcome;
    },
  );

  // The streamed upload: the body is read as it arrives (CSV or one JSON object a line), whatever
  // its size, and stored a chunk at a time; the 2 MiB limit of JSON bodies does not apply.
  app.addContentTypeParser(["text/csv", "application/x-ndjson"], (_request, payload, done) => {
    done(null, payload);
  });
  app.post(
    "/surveyresults/batchUpload/stream",
    {
      schema: {
        querystring: BatchUploadStreamQuerySchema,
        response: { 200: BatchUploadResponseSchema },
      },
    },
    async (request) => {
      const auth = authOf(request);
      const type = (request.headers["content-type"] ?? "").split(";")[0]!.trim().toLowerCase();
      if (type !== "text/csv" && type !== "application/x-ndjson") {
        throw fieldError("content", "Send the upload as text/csv or application/x-ndjson.");
      }
      const body = request.body as AsyncIterable<Buffer>;
      const outcome = await batchUpload(
        app.db,
        auth.tenantId,
        auth.userId,
        type === "text/csv" ? csvRows(body) : ndjsonRows(body),
        { interfaceId: request.query.interfaceId, ip: request.ip },
      );
      await auditUpload(request, outcome);
      if (request.query.interfaceId !== undefined) wake();
      return outcome;
    },
  );
};

export default deliveryRoutes;
