import { and, count, eq } from "drizzle-orm";
import type { Hl7Message } from "@medplum/core";
import { objectId, TELE_AWV_SURVEY_ID } from "@core-care/survey-engine";
import type { Delivery, DeliveryCounts, DeliveryListResponse } from "@core-care/schema";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createDeliveryFixture, type DeliveryFixture } from "../../test/peers/delivery-fixtures.js";
import { startMllpPeer, type MllpPeer } from "../../test/peers/mllp-peer.js";
import { validateCda } from "../../test/peers/standards.js";
import { createTestApp, errorFields, login, type Session, type TestApp } from "../../test/helpers.js";
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

describe("the Deliveries screen's calls", () => {
  /** A practice of its own, with an admin, a user and an MLLP interface to its own peer. */
  async function practice(settings = { ackTimeoutSeconds: 5, retryDelaysSeconds: [1], maxAttempts: 2 }) {
    const own = await startMllpPeer("AA");
    const admin = await t.createTestTenant({ role: "admin" });
    const adminS = await login(t.app, admin.email);
    const userS = await login(t.app, (await t.createTestUser(admin.tenantId, { role: "user" })).email);
    const fx = await createDeliveryFixture(t.db, admin.tenantId, {
      type: "hl7-mllp",
      port: own.port,
      settings,
    });
    const queue = async () =>
      (await send(userS, fx.resultId, "sendhl7", { interfaceId: fx.interfaceId })).json<{
        deliveryId: string;
      }>().deliveryId;
    return { peer: own, adminS, userS, fx, queue, tenantId: admin.tenantId };
  }
  const list = async (s: Session, query = "") =>
    (await s.inject({ method: "GET", url: `/api/deliveries${query}` })).json<DeliveryListResponse>();
  const failedCount = async (s: Session) =>
    (await s.inject({ method: "GET", url: "/api/deliveries/counts" })).json<{ failed: number }>().failed;
  const controlIdsOf = (p: MllpPeer) => p.received.map((m) => m.getSegment("MSH")?.getField(10).toString());
  /** Runs the app's worker until `check` holds (retry delays are real seconds here). */
  async function driveUntil(check: () => Promise<boolean>, what: string) {
    const deadline = Date.now() + 60_000;
    while (!(await check())) {
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
      await t.app.deliveryWorker.runOnce();
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  test("a delivery failed after its last attempt holds its interface until an admin skips it", async () => {
    const p = await practice();
    try {
      p.peer.mode = "AE";
      const first = await p.queue();
      const second = await p.queue();
      const third = await p.queue();
      const statusOf = async (id: string) => (await list(p.userS)).items.find((d) => d.id === id)?.status;
      await driveUntil(async () => (await statusOf(first)) === "failed", "the first delivery to fail");
      await t.app.deliveryWorker.runOnce();
      const failed = (await list(p.userS, "?status=failed")).items;
      expect(failed).toHaveLength(1);
      expect(failed[0]).toMatchObject({
        id: first,
        attempts: 2,
        lastError: "Receiver answered AE: rejected by test peer Gave up after 2 attempts.",
        interfaceType: "hl7-mllp",
        patientName: "O'Brien, Ana",
      });
      expect(await statusOf(second)).toBe("pending");
      expect(new Set(controlIdsOf(p.peer))).toEqual(new Set([failed[0]!.controlId]));
      expect(await failedCount(p.userS)).toBe(1);

      const skipByUser = await p.userS.inject({ method: "POST", url: `/api/deliveries/${first}/skip` });
      expect(skipByUser.statusCode).toBe(403);
      // A queued delivery is skipped too: it is never sent.
      const skipQueued = await p.adminS.inject({ method: "POST", url: `/api/deliveries/${second}/skip` });
      expect(skipQueued.statusCode, skipQueued.body).toBe(200);
      expect(skipQueued.json<Delivery>()).toMatchObject({
        id: second,
        status: "skipped",
        attempts: 0,
        lastError: "Skipped by an admin before it was sent.",
      });
      const skipAgain = await p.adminS.inject({ method: "POST", url: `/api/deliveries/${second}/skip` });
      expect(skipAgain.statusCode).toBe(409);
      const skipped = await p.adminS.inject({ method: "POST", url: `/api/deliveries/${first}/skip` });
      expect(skipped.statusCode, skipped.body).toBe(200);
      expect(skipped.json<Delivery>()).toMatchObject({ id: first, status: "skipped" });
      expect(await failedCount(p.userS)).toBe(0);

      p.peer.mode = "AA";
      await driveUntil(async () => (await statusOf(third)) === "delivered", "the third delivery");
      const secondControlId = (await list(p.userS)).items.find((d) => d.id === second)!.controlId;
      expect(controlIdsOf(p.peer)).not.toContain(secondControlId);
      expect(await statusOf(second)).toBe("skipped");
      const events = await t.db
        .select()
        .from(auditEvents)
        .where(and(eq(auditEvents.tenantId, p.tenantId), eq(auditEvents.entityId, first)));
      expect(events.map((e) => e.entity)).toContain("delivery:skipped");
    } finally {
      await p.peer.close();
    }
  }, 90_000);

  /** Another submitted result of the fixture's patient, or of a new one. */
  async function anotherResult(p: { tenantId: string; fx: DeliveryFixture }, patientId = p.fx.patientId) {
    const saved = await saveResult(
      t.db,
      p.tenantId,
      {
        clientRequestId: `another-${objectId()}`,
        surveyId: TELE_AWV_SURVEY_ID,
        patientId,
        isSubmitted: true,
        answers: { notes: "another visit" },
      },
      "test",
    );
    return saved.id;
  }
  /**
   * The receiver takes one delivery, then goes down: its port refuses connections, which for an
   * interface that has taken deliveries is an outage, retried.
   */
  async function receiverGoesDown(p: {
    peer: MllpPeer;
    userS: Session;
    tenantId: string;
    fx: DeliveryFixture;
  }) {
    const warm = await queueFor(p, await anotherResult(p));
    await driveUntil(
      async () => (await list(p.userS)).items.find((d) => d.id === warm)?.status === "delivered",
      "the receiver's first delivery",
    );
    await p.peer.close();
  }
  const queueFor = async (p: { userS: Session; fx: DeliveryFixture }, resultId: string) =>
    (await send(p.userS, resultId, "sendhl7", { interfaceId: p.fx.interfaceId })).json<{
      deliveryId: string;
    }>().deliveryId;

  test("removing a result cancels its deliveries not yet sent: the receiver, down then back, gets none of them", async () => {
    const p = await practice({ ackTimeoutSeconds: 1, retryDelaysSeconds: [1], maxAttempts: 10 });
    const port = p.peer.port;
    await receiverGoesDown(p);
    let back: MllpPeer | undefined;
    try {
      const first = await p.queue();
      const second = await p.queue();
      const kept = await queueFor(p, await anotherResult(p));
      await t.app.deliveryWorker.runOnce();
      const tried = (await list(p.userS)).items.find((d) => d.id === first)!;
      expect(tried).toMatchObject({ status: "pending", attempts: 1 });
      expect(tried.lastError).toMatch(/127\.0\.0\.1/);

      const removed = await p.adminS.inject({ method: "DELETE", url: `/api/surveyresults/${p.fx.resultId}` });
      expect(removed.statusCode).toBe(204);
      const byId = new Map((await list(p.userS)).items.map((d) => [d.id, d]));
      for (const id of [first, second]) {
        expect(byId.get(id)).toMatchObject({
          status: "cancelled",
          nextAttemptAt: null,
          lastError: "Cancelled: the survey result was removed before it was sent.",
        });
      }
      expect(byId.get(kept)?.status).toBe("pending");
      const cancelledEvents = await t.db
        .select()
        .from(auditEvents)
        .where(and(eq(auditEvents.tenantId, p.tenantId), eq(auditEvents.entity, "delivery:cancelled")));
      expect(cancelledEvents.map((e) => e.entityId).sort()).toEqual([first, second].sort());
      expect(
        (await p.adminS.inject({ method: "POST", url: `/api/deliveries/${first}/skip` })).statusCode,
      ).toBe(409);

      back = await startMllpPeer("AA", port);
      await driveUntil(
        async () => (await list(p.userS)).items.find((d) => d.id === kept)?.status === "delivered",
        "the kept result's delivery",
      );
      // A few more rounds past the retry delay: nothing of the removed result goes out.
      await new Promise((r) => setTimeout(r, 1_200));
      while ((await t.app.deliveryWorker.runOnce()) > 0);
      const after = new Map((await list(p.userS)).items.map((d) => [d.id, d]));
      expect(back.controlIds()).toEqual([after.get(kept)!.controlId]);
      expect(after.get(first)?.status).toBe("cancelled");
      expect(after.get(second)?.status).toBe("cancelled");
    } finally {
      await back?.close();
    }
  }, 90_000);

  test("removing a patient cancels the deliveries not yet sent of every result of theirs", async () => {
    const p = await practice();
    const port = p.peer.port;
    await receiverGoesDown(p);
    let back: MllpPeer | undefined;
    try {
      const other = await createPatient(t.db, p.tenantId, {
        mrn: `MRN-${objectId().slice(-8)}`,
        firstName: "Walter",
        lastName: "Hobbs",
        dob: "1948-02-01",
        sex: "M",
      });
      const ofPatient = [await p.queue(), await queueFor(p, await anotherResult(p))];
      const ofOther = await queueFor(p, await anotherResult(p, other.id));
      const removed = await p.adminS.inject({ method: "DELETE", url: `/api/patients/${p.fx.patientId}` });
      expect(removed.statusCode).toBe(204);
      const byId = new Map((await list(p.userS)).items.map((d) => [d.id, d]));
      for (const id of ofPatient) {
        expect(byId.get(id)).toMatchObject({
          status: "cancelled",
          lastError: "Cancelled: the patient was removed before the result was sent.",
        });
      }
      back = await startMllpPeer("AA", port);
      await driveUntil(
        async () => (await list(p.userS)).items.find((d) => d.id === ofOther)?.status === "delivered",
        "the other patient's delivery",
      );
      expect(back.received.map((m) => m.getSegment("PID")?.getComponent(5, 1))).toEqual(["Hobbs"]);
    } finally {
      await back?.close();
    }
  }, 90_000);

  test("resending a failed delivery sends the new one in its place, before those queued behind it", async () => {
    const p = await practice();
    try {
      p.peer.mode = "AR";
      const rejected = await p.queue();
      await t.app.deliveryWorker.runOnce();
      const behind = await p.queue();
      p.peer.mode = "AA";
      await t.app.deliveryWorker.runOnce();
      expect(p.peer.received).toHaveLength(1);
      const res = await p.adminS.inject({ method: "POST", url: `/api/deliveries/${rejected}/resend` });
      expect(res.statusCode).toBe(202);
      const replacement = res.json<{ deliveryId: string }>().deliveryId;
      while ((await t.app.deliveryWorker.runOnce()) > 0);
      const items = (await list(p.userS)).items;
      const byId = new Map(items.map((d) => [d.id, d]));
      expect(byId.get(rejected)?.status).toBe("skipped");
      expect(byId.get(replacement)?.status).toBe("delivered");
      expect(byId.get(behind)?.status).toBe("delivered");
      expect(controlIdsOf(p.peer)).toEqual([
        byId.get(rejected)!.controlId,
        byId.get(replacement)!.controlId,
        byId.get(behind)!.controlId,
      ]);
    } finally {
      await p.peer.close();
    }
  });

  test("lists the practice's deliveries newest first, a keyset page at a time, filtered by status", async () => {
    const p = await practice();
    try {
      const ids = [await p.queue(), await p.queue(), await p.queue()];
      const page1 = await list(p.userS, "?limit=2");
      expect(page1.items.map((d) => d.id)).toEqual([ids[2], ids[1]]);
      expect(page1.items[0]).toMatchObject({ status: "pending", interfaceId: p.fx.interfaceId });
      expect(page1.items[0]).not.toHaveProperty("payload");
      const page2 = await list(p.userS, `?limit=2&before=${page1.nextBefore}`);
      expect(page2).toEqual({ items: [expect.objectContaining({ id: ids[0] })], nextBefore: null });
      expect((await list(p.userS, "?status=delivered")).items).toEqual([]);
      while ((await t.app.deliveryWorker.runOnce()) > 0);
      expect((await list(p.userS, "?status=delivered")).items.map((d) => d.id)).toEqual([...ids].reverse());
      const bad = await p.userS.inject({ method: "GET", url: "/api/deliveries?status=lost&limit=0" });
      expect(bad.statusCode).toBe(400);
      expect(errorFields(bad).sort()).toEqual(["limit", "status"]);
      // Another practice sees none of them.
      expect((await list(session)).items.map((d) => d.id)).not.toContain(ids[0]);
    } finally {
      await p.peer.close();
    }
  });

  test("searches by control id, patient name or MRN, with the interface filter, and only the practice's own", async () => {
    const p = await practice();
    try {
      const other = await createPatient(t.db, p.tenantId, {
        mrn: `MRN-${objectId().slice(-8)}`,
        firstName: "Walter",
        lastName: "Hobbs",
        dob: "1948-02-01",
        sex: "M",
      });
      const ana = await p.queue();
      const walter = await queueFor(p, await anotherResult(p, other.id));
      const ids = async (query: string) => (await list(p.userS, query)).items.map((d) => d.id);
      const controlId = (await list(p.userS)).items.find((d) => d.id === walter)!.controlId;
      expect(await ids(`?q=${controlId.toLowerCase()}`)).toEqual([walter]);
      expect(await ids("?q=hob")).toEqual([walter]);
      expect(await ids(`?q=${encodeURIComponent(other.mrn)}`)).toEqual([walter]);
      expect(await ids("?q=o'bri")).toEqual([ana]);
      expect(await ids("?q=%25")).toEqual([]);
      expect(await ids(`?q=hob&interfaceId=${p.fx.interfaceId}`)).toEqual([walter]);
      expect(await ids(`?q=hob&interfaceId=${objectId()}`)).toEqual([]);
      expect((await list(session, "?q=hob")).items.map((d) => d.id)).not.toContain(walter);
    } finally {
      await p.peer.close();
    }
  });

  test("names a queue held by a failed delivery for longer than the stall minutes, and no other", async () => {
    const p = await practice();
    try {
      p.peer.mode = "AR";
      const held = await p.queue();
      await p.queue();
      await t.app.deliveryWorker.runOnce();
      const counts = async () =>
        (await p.userS.inject({ method: "GET", url: "/api/deliveries/counts" })).json<DeliveryCounts>();
      expect(await counts()).toEqual({ failed: 1, stalled: [], stallMinutes: 15 });
      // The failure 16 minutes ago: the queue has been held past the 15 minutes.
      const failedAt = new Date(Date.now() - 16 * 60_000);
      await t.db
        .update(deliveries)
        .set({ updatedAt: failedAt })
        .where(and(eq(deliveries.tenantId, p.tenantId), eq(deliveries.id, held)));
      expect(await counts()).toEqual({
        failed: 1,
        stalled: [
          {
            interfaceId: p.fx.interfaceId,
            interfaceName: "hl7-mllp receiver",
            deliveryId: held,
            failedAt: failedAt.toISOString(),
          },
        ],
        stallMinutes: 15,
      });
      expect(
        (await session.inject({ method: "GET", url: "/api/deliveries/counts" })).json<DeliveryCounts>()
          .stalled,
      ).toEqual([]);
      await p.adminS.inject({ method: "POST", url: `/api/deliveries/${held}/skip` });
      expect((await counts()).stalled).toEqual([]);
    } finally {
      await p.peer.close();
    }
  });

  test("answers the exact message sent, to view or download, and 404 to another practice", async () => {
    const p = await practice();
    try {
      const id = await p.queue();
      await t.app.deliveryWorker.runOnce();
      const view = await p.userS.inject({ method: "GET", url: `/api/deliveries/${id}/message` });
      expect(view.statusCode).toBe(200);
      expect(view.headers["content-type"]).toBe("text/plain; charset=utf-8");
      expect(view.headers["content-disposition"]).toBeUndefined();
      const received = p.peer.received[0]!;
      expect(view.body).toBe(received.toString());
      const { controlId } = (await list(p.userS)).items[0]!;
      const download = await p.userS.inject({
        method: "GET",
        url: `/api/deliveries/${id}/message?download=true`,
      });
      expect(download.headers["content-disposition"]).toBe(`attachment; filename="${controlId}.hl7"`);
      expect((await session.inject({ method: "GET", url: `/api/deliveries/${id}/message` })).statusCode).toBe(
        404,
      );
      expect(
        (await adminSession.inject({ method: "POST", url: `/api/deliveries/${id}/skip` })).statusCode,
      ).toBe(404);
    } finally {
      await p.peer.close();
    }
  });
});
