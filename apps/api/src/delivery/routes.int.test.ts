import { and, count, eq } from "drizzle-orm";
import type { Hl7Message } from "@medplum/core";
import { objectId, TELE_AWV_SURVEY_ID } from "@core-care/survey-engine";
import type { Delivery } from "@core-care/schema";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createDeliveryFixture, type DeliveryFixture } from "../../test/peers/delivery-fixtures.js";
import { startMllpPeer, type MllpPeer } from "../../test/peers/mllp-peer.js";
import { validateCda } from "../../test/peers/standards.js";
import { createTestApp, login, type Session, type TestApp } from "../../test/helpers.js";
import { auditEvents, deliveries, surveyResults } from "../db/schema.js";
import { createInterface } from "../services/interfaces.js";
import { createPatient } from "../services/patients.js";
import { saveResult } from "../services/result-saves.js";

let t: TestApp;
let peer: MllpPeer;
let session: Session;
/** An admin of the same practice: resending and batch uploads are admin acts. */
let adminSession: Session;
let tenantId: string;
let fixture: DeliveryFixture;

beforeAll(async () => {
  t = await createTestApp();
  peer = await startMllpPeer("AA");
  const user = await t.createTestTenant({ role: "user" });
  tenantId = user.tenantId;
  session = await login(t.app, user.email);
  adminSession = await login(t.app, (await t.createTestUser(tenantId, { role: "admin" })).email);
  fixture = await createDeliveryFixture(t.db, tenantId, { type: "hl7-mllp", port: peer.port });
});
afterAll(async () => {
  await peer.close();
  await t.close();
});

const send = (s: Session, resultId: string, route: string, body: Record<string, unknown>) =>
  s.inject({ method: "POST", url: `/api/surveyresults/${resultId}/${route}`, payload: body });
const deliveriesOf = async (s: Session, resultId: string) =>
  (await s.inject({ method: "GET", url: `/api/surveyresults/${resultId}/deliveries` })).json<Delivery[]>();
const rowCount = async (table: typeof deliveries | typeof surveyResults) =>
  (await t.db.select({ n: count() }).from(table).where(eq(table.tenantId, tenantId)))[0]!.n;

describe("POST /api/surveyresults/{id}/sendhl7", () => {
  test("queues a delivery that the worker sends and the delivery log then shows", async () => {
    const res = await send(session, fixture.resultId, "sendhl7", {
      interfaceId: fixture.interfaceId,
      locationId: fixture.locationId,
    });
    expect(res.statusCode).toBe(202);
    const { deliveryId } = res.json<{ deliveryId: string }>();
    const [queued] = await deliveriesOf(session, fixture.resultId);
    expect(queued).toMatchObject({ id: deliveryId, status: "pending", attempts: 0, format: "hl7" });
    expect(queued).not.toHaveProperty("payload");
    expect(queued!.controlId.length).toBeLessThanOrEqual(20);

    await t.app.deliveryWorker.runOnce();
    const [sent] = await deliveriesOf(session, fixture.resultId);
    expect(sent).toMatchObject({ id: deliveryId, status: "delivered", attempts: 1, lastError: null });
    expect(sent!.ack).toContain("MSA|AA|");
    const received = peer.received.at(-1)!;
    expect(received.getSegment("MSH")?.getField(10).toString()).toBe(sent!.controlId);
    const audited = await t.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.tenantId, tenantId), eq(auditEvents.entityId, deliveryId)));
    expect(audited.map((e) => e.action)).toContain("send");
  });

  test("answers 400 naming interfaceId when the interface cannot take the format, storing nothing", async () => {
    const before = await rowCount(deliveries);
    const res = await send(session, fixture.resultId, "sendfhir", { interfaceId: fixture.interfaceId });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ responseStatus: { errors: [{ field: "interfaceId" }] } });
    const badLocation = await send(session, fixture.resultId, "sendhl7", {
      interfaceId: fixture.interfaceId,
      locationId: objectId(),
    });
    expect(badLocation.statusCode).toBe(400);
    expect(await rowCount(deliveries)).toBe(before);
  });

  test("answers 409 for a result that is not submitted", async () => {
    const draft = await saveResult(
      t.db,
      tenantId,
      {
        clientRequestId: `draft-${objectId()}`,
        surveyId: TELE_AWV_SURVEY_ID,
        patientId: fixture.patientId,
        isSubmitted: false,
        answers: { notes: "x" },
      },
      "test",
    );
    const res = await send(session, draft.id, "sendhl7", { interfaceId: fixture.interfaceId });
    expect(res.statusCode).toBe(409);
  });

  test("answers 404 for another tenant's result, deliveries and resend", async () => {
    const other = await t.createTestTenant({ role: "admin" });
    const otherSession = await login(t.app, other.email);
    const res = await send(otherSession, fixture.resultId, "sendhl7", { interfaceId: fixture.interfaceId });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ responseStatus: { errors: [{ field: "interfaceId" }] } });
    const ownInterface = await createInterface(t.db, other.tenantId, {
      name: "other receiver",
      type: "hl7-mllp",
      host: "127.0.0.1",
      port: peer.port,
      sendingApplication: "",
      sendingFacility: "",
      receivingApplication: "",
      receivingFacility: "",
    });
    const viaOwn = await send(otherSession, fixture.resultId, "sendhl7", { interfaceId: ownInterface.id });
    expect(viaOwn.statusCode).toBe(404);
    expect(
      (await otherSession.inject({ method: "GET", url: `/api/surveyresults/${fixture.resultId}/deliveries` }))
        .statusCode,
    ).toBe(404);
    const mine = (
      await send(session, fixture.resultId, "sendhl7", { interfaceId: fixture.interfaceId })
    ).json<{
      deliveryId: string;
    }>();
    expect(
      (await otherSession.inject({ method: "POST", url: `/api/deliveries/${mine.deliveryId}/resend` }))
        .statusCode,
    ).toBe(404);
  });

  test("answers 401 without a session and 403 without a role", async () => {
    const anonymous = await t.app.inject({
      method: "POST",
      url: `/api/surveyresults/${fixture.resultId}/sendhl7`,
      headers: { "x-requested-with": "XMLHttpRequest" },
      payload: { interfaceId: fixture.interfaceId },
    });
    expect(anonymous.statusCode).toBe(401);
    const none = await t.createTestUser(tenantId, { role: "none" });
    const noneSession = await login(t.app, none.email);
    const res = await send(noneSession, fixture.resultId, "sendhl7", { interfaceId: fixture.interfaceId });
    expect(res.statusCode).toBe(403);
  });
});

describe("POST /api/deliveries/{id}/resend", () => {
  test("queues a new delivery with a new control id", async () => {
    await send(session, fixture.resultId, "sendhl7", { interfaceId: fixture.interfaceId });
    const [latest] = await deliveriesOf(session, fixture.resultId);
    const refused = await session.inject({ method: "POST", url: `/api/deliveries/${latest!.id}/resend` });
    expect(refused.statusCode).toBe(403);
    const res = await adminSession.inject({ method: "POST", url: `/api/deliveries/${latest!.id}/resend` });
    expect(res.statusCode).toBe(202);
    const { deliveryId } = res.json<{ deliveryId: string }>();
    const list = await deliveriesOf(session, fixture.resultId);
    const resent = list.find((d) => d.id === deliveryId)!;
    expect(resent).toMatchObject({ status: "pending", interfaceId: latest!.interfaceId, format: "hl7" });
    expect(resent.controlId).not.toBe(latest!.controlId);
  });
});

describe("POST /api/surveyresults/{id}/sendCDA", () => {
  test("sends a schema-valid CDA document inside an MDM^T02 over MLLP", async () => {
    const cdaPeer = await startMllpPeer("AA");
    try {
      const cda = await createDeliveryFixture(t.db, tenantId, { type: "cda-mllp", port: cdaPeer.port });
      const res = await send(session, cda.resultId, "sendCDA", { interfaceId: cda.interfaceId });
      expect(res.statusCode).toBe(202);
      while ((await t.app.deliveryWorker.runOnce()) > 0);
      const [delivery] = await deliveriesOf(session, cda.resultId);
      expect(delivery?.status).toBe("delivered");
      const message: Hl7Message = cdaPeer.received[0]!;
      expect(message.getSegment("MSH")?.getField(9).toString()).toBe("MDM^T02^MDM_T02");
      const xml = Buffer.from(message.getSegment("OBX")!.getComponent(5, 5), "base64").toString("utf8");
      expect(await validateCda(xml)).toEqual({ valid: true, errors: "" });
    } finally {
      await cdaPeer.close();
    }
  });
});

describe("POST /api/surveyresults/batchUpload", () => {
  test("is an admin act: a plain user is refused and nothing is stored", async () => {
    const before = await session.inject({ method: "GET", url: "/api/surveyresults" });
    const res = await session.inject({
      method: "POST",
      url: "/api/surveyresults/batchUpload",
      payload: { format: "json", content: "[]" },
    });
    expect(res.statusCode).toBe(403);
    const after = await session.inject({ method: "GET", url: "/api/surveyresults" });
    expect(after.json<{ total: number }>().total).toBe(before.json<{ total: number }>().total);
  });

  test("stores valid rows, reports the others by row and field, and is idempotent with its deliveries", async () => {
    const patient = await createPatient(t.db, tenantId, {
      mrn: `B-${objectId().slice(-6)}`,
      firstName: "Batch",
      lastName: "Row",
      dob: "1960-01-02",
      sex: "M",
    });
    const iface = await createInterface(t.db, tenantId, {
      name: "batch receiver",
      type: "hl7-mllp",
      host: "127.0.0.1",
      port: peer.port,
      sendingApplication: "CORECARE",
      sendingFacility: "DEMO",
      receivingApplication: "EHR",
      receivingFacility: "DEMOHOSP",
    });
    const prefix = objectId();
    const content = JSON.stringify([
      {
        externalId: `${prefix}-1`,
        mrn: patient.mrn,
        surveyId: TELE_AWV_SURVEY_ID,
        answers: { depression: { phq9LittleInterest: "several days" } },
      },
      {
        externalId: `${prefix}-2`,
        mrn: "NO-SUCH-MRN",
        surveyId: TELE_AWV_SURVEY_ID,
        answers: { notes: "x" },
      },
      {
        externalId: `${prefix}-3`,
        patientId: patient.id,
        surveyId: TELE_AWV_SURVEY_ID,
        answers: { notes: "y" },
      },
      {
        externalId: `${prefix}-4`,
        patientId: patient.id,
        surveyId: "no-such-survey",
        answers: { notes: "z" },
      },
      { externalId: "bad id!", patientId: patient.id, surveyId: TELE_AWV_SURVEY_ID, answers: { notes: "w" } },
    ]);
    const upload = () =>
      adminSession.inject({
        method: "POST",
        url: "/api/surveyresults/batchUpload",
        payload: { format: "json", content, interfaceId: iface.id },
      });
    while ((await t.app.deliveryWorker.runOnce()) > 0);
    const resultsBefore = await rowCount(surveyResults);
    const deliveriesBefore = await rowCount(deliveries);
    const first = await upload();
    expect(first.statusCode).toBe(200);
    expect(first.json()).toEqual({
      accepted: 2,
      created: 2,
      updated: 0,
      unchanged: 0,
      rejectedCount: 3,
      rejected: [
        { row: 2, field: "mrn", message: "No patient has this MRN." },
        { row: 4, field: "surveyId", message: "No such survey." },
        { row: 5, field: "externalId", message: "Must be 1 to 128 of A-Z a-z 0-9 _ . : -" },
      ],
    });
    expect(await rowCount(surveyResults)).toBe(resultsBefore + 2);
    expect(await rowCount(deliveries)).toBe(deliveriesBefore + 2);

    const again = await upload();
    expect(again.json()).toMatchObject({ accepted: 2, created: 0, unchanged: 2 });
    expect(await rowCount(surveyResults)).toBe(resultsBefore + 2);
    expect(await rowCount(deliveries)).toBe(deliveriesBefore + 2);

    const before = peer.received.length;
    while ((await t.app.deliveryWorker.runOnce()) > 0);
    expect(peer.received.length - before).toBe(2);
  });

  test("reads CSV with quoted fields and dotted answer columns", async () => {
    const patient = await createPatient(t.db, tenantId, {
      mrn: `C-${objectId().slice(-6)}`,
      firstName: "Csv",
      lastName: "Row",
      dob: "1961-03-04",
      sex: "F",
    });
    const externalId = `csv-${objectId()}`;
    const content = [
      "externalId,mrn,surveyId,depression.phq9LittleInterest,notes",
      `${externalId},${patient.mrn},${TELE_AWV_SURVEY_ID},several days,"walks, ""slowly""\nat night"`,
      `,${patient.mrn},${TELE_AWV_SURVEY_ID},not at all,`,
    ].join("\r\n");
    const res = await adminSession.inject({
      method: "POST",
      url: "/api/surveyresults/batchUpload",
      payload: { format: "csv", content },
    });
    expect(res.json()).toEqual({
      accepted: 1,
      created: 1,
      updated: 0,
      unchanged: 0,
      rejectedCount: 1,
      rejected: [{ row: 2, field: "externalId", message: "Must be 1 to 128 of A-Z a-z 0-9 _ . : -" }],
    });
    const [stored] = await t.db
      .select({ answers: surveyResults.answers, isSubmitted: surveyResults.isSubmitted })
      .from(surveyResults)
      .where(and(eq(surveyResults.tenantId, tenantId), eq(surveyResults.patientId, patient.id)));
    expect(stored).toEqual({
      isSubmitted: true,
      answers: { depression: { phq9LittleInterest: "several days" }, notes: 'walks, "slowly"\nat night' },
    });
  });

  test("answers 400 naming content for malformed uploads", async () => {
    for (const payload of [
      { format: "json", content: "{not json" },
      { format: "json", content: '{"a":1}' },
      { format: "csv", content: "a,b\n1,2" },
    ]) {
      const res = await adminSession.inject({
        method: "POST",
        url: "/api/surveyresults/batchUpload",
        payload,
      });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ responseStatus: { errors: [{ field: "content" }] } });
    }
  });
});

describe("delivery worker in the API process", () => {
  test("delivers a send without being driven, and stops when the app closes", async () => {
    const running = await createTestApp({ config: { nodeEnv: "development" } });
    const receiver = await startMllpPeer("AA");
    try {
      const user = await running.createTestTenant({ role: "user" });
      const s = await login(running.app, user.email);
      const f = await createDeliveryFixture(running.db, user.tenantId, {
        type: "hl7-mllp",
        port: receiver.port,
      });
      const res = await send(s, f.resultId, "sendhl7", { interfaceId: f.interfaceId });
      expect(res.statusCode).toBe(202);
      const deadline = Date.now() + 15_000;
      let status = "";
      while (Date.now() < deadline) {
        status = (await deliveriesOf(s, f.resultId))[0]?.status ?? "";
        if (status === "delivered") break;
        await new Promise((r) => setTimeout(r, 50));
      }
      expect(status).toBe("delivered");
      expect(receiver.received).toHaveLength(1);
    } finally {
      await running.close();
      await receiver.close();
    }
  });
});
