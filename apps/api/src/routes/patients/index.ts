import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import {
  AssignSurveyRequestSchema,
  DocumentIdSchema,
  listOf,
  ObjectIdSchema,
  pagedListOf,
  PatientInputSchema,
  PatientListQuerySchema,
  PatientSchema,
  PatientSurveySchema,
} from "@core-care/schema";
import { authOf } from "../../plugins/auth-context.js";
import {
  assignSurvey,
  createPatient,
  deletePatient,
  getPatient,
  listPatients,
  listPatientSurveys,
  listRemovedPatients,
  restorePatient,
  unassignSurvey,
  updatePatient,
} from "../../services/patients.js";

const IdParams = z.object({ id: ObjectIdSchema });
const PatientParams = z.object({ patientId: ObjectIdSchema });

/** Patients of the session's tenant and their survey assignments; every read and change is audited. */
const patientsRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    "/patients",
    { schema: { querystring: PatientListQuerySchema, response: { 200: pagedListOf(PatientSchema) } } },
    async (request) => {
      const tenantId = authOf(request).tenantId;
      // At most the practice's share of the list reads at once (services/tenant-slots.ts).
      const page = await app.listSlots.run(tenantId, () =>
        listPatients(app.db, tenantId, request.query, {
          execute: app.database.executeList,
          searchReads: app.database.searchReads,
          capped: app.cappedLists,
        }),
      );
      await request.audit("list", "patient");
      return page;
    },
  );

  app.get(
    "/patients/:id",
    { schema: { params: IdParams, response: { 200: PatientSchema } } },
    async (request) => {
      const patient = await getPatient(app.db, authOf(request).tenantId, request.params.id);
      await request.audit("read", "patient", patient.id);
      return patient;
    },
  );

  app.post(
    "/patients",
    { schema: { body: PatientInputSchema, response: { 201: PatientSchema } } },
    async (request, reply) => {
      const patient = await createPatient(app.db, authOf(request).tenantId, request.body);
      await request.audit("create", "patient", patient.id);
      return reply.code(201).send(patient);
    },
  );

  app.put(
    "/patients/:id",
    { schema: { params: IdParams, body: PatientInputSchema, response: { 200: PatientSchema } } },
    async (request) => {
      const patient = await updatePatient(app.db, authOf(request).tenantId, request.params.id, request.body);
      await request.audit("update", "patient", patient.id);
      return patient;
    },
  );

  app.delete("/patients/:id", { schema: { params: IdParams } }, async (request, reply) => {
    const auth = authOf(request);
    await deletePatient(app.db, auth.tenantId, request.params.id, { userId: auth.userId, ip: request.ip });
    // The patient's results leave the lists: this process's capped lists now, before the notification.
    app.cappedLists.forget(authOf(request).tenantId);
    await request.audit("delete", "patient", request.params.id);
    return reply.code(204).send();
  });

  app.get("/patients/removed", { schema: { response: { 200: listOf(PatientSchema) } } }, async (request) => {
    const page = await listRemovedPatients(app.db, authOf(request).tenantId);
    await request.audit("list", "removed-patient");
    return page;
  });

  app.post(
    "/patients/:id/restore",
    { schema: { params: IdParams, response: { 200: PatientSchema } } },
    async (request) => {
      const patient = await restorePatient(app.db, authOf(request).tenantId, request.params.id);
      await request.audit("restore", "patient", patient.id);
      return patient;
    },
  );

  app.get(
    "/patients/:patientId/surveys",
    { schema: { params: PatientParams, response: { 200: z.array(PatientSurveySchema) } } },
    async (request) => {
      const list = await listPatientSurveys(app.db, authOf(request).tenantId, request.params.patientId);
      await request.audit("read", "patient-surveys", request.params.patientId);
      return list;
    },
  );

  app.post(
    "/patients/:patientId/surveys",
    { schema: { params: PatientParams, body: AssignSurveyRequestSchema } },
    async (request, reply) => {
      const auth = authOf(request);
      await assignSurvey(app.db, auth.tenantId, request.params.patientId, request.body.surveyId, auth.userId);
      await request.audit("create", "patient-survey", request.params.patientId);
      return reply.code(201).send();
    },
  );

  app.delete(
    "/patients/:patientId/surveys/:surveyId",
    { schema: { params: PatientParams.extend({ surveyId: DocumentIdSchema }) } },
    async (request, reply) => {
      await unassignSurvey(
        app.db,
        authOf(request).tenantId,
        request.params.patientId,
        request.params.surveyId,
      );
      await request.audit("delete", "patient-survey", request.params.patientId);
      return reply.code(204).send();
    },
  );
};

export default patientsRoutes;
