import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createDeliveryFixture } from "../../test/peers/delivery-fixtures.js";
import { startMllpPeer, type MllpPeer } from "../../test/peers/mllp-peer.js";
import { createTestApp, login, type Session, type TestApp } from "../../test/helpers.js";
import { startSmtpPeer } from "../../test/mail.js";
import { auditEvents, deliveries, patients } from "../db/schema.js";
import { mailStalledQueues, STALL_MAIL_ACTION } from "./stall-mail.js";

let t: TestApp;
let smtp: Awaited<ReturnType<typeof startSmtpPeer>>;
let peer: MllpPeer;

beforeAll(async () => {
  smtp = await startSmtpPeer();
  peer = await startMllpPeer("AR");
  t = await createTestApp({ config: { smtpUrl: smtp.url } });
});
afterAll(async () => {
  await t.close();
  await peer.close();
  await smtp.close();
});

const check = (now = new Date()) =>
  mailStalledQueues(
    { db: t.db, mailer: t.app.mailer, log: t.app.log, publicUrl: t.config.publicUrl, stallMinutes: 15 },
    now,
  );

/** A practice with two admins and a user, and an HL7 interface whose receiver rejects every message. */
async function practice() {
  const admin = await t.createTestTenant({ role: "admin" });
  const second = await t.createTestUser(admin.tenantId, { role: "admin" });
  const user = await t.createTestUser(admin.tenantId, { role: "user" });
  const userS = await login(t.app, user.email);
  const fx = await createDeliveryFixture(t.db, admin.tenantId, {
    type: "hl7-mllp",
    port: peer.port,
    settings: { ackTimeoutSeconds: 5, retryDelaysSeconds: [1], maxAttempts: 1 },
  });
  const queue = async (s: Session = userS) =>
    (
      await s.inject({
        method: "POST",
        url: `/api/surveyresults/${fx.resultId}/sendhl7`,
        payload: { interfaceId: fx.interfaceId },
      })
    ).json<{ deliveryId: string }>().deliveryId;
  /** Moves a delivery's failure `minutes` into the past. */
  const failedAgo = async (id: string, minutes: number) => {
    await t.db
      .update(deliveries)
      .set({ updatedAt: new Date(Date.now() - minutes * 60_000) })
      .where(and(eq(deliveries.tenantId, admin.tenantId), eq(deliveries.id, id)));
  };
  const [patient] = await t.db
    .select()
    .from(patients)
    .where(and(eq(patients.tenantId, admin.tenantId), eq(patients.id, fx.patientId)));
  return {
    tenantId: admin.tenantId,
    admins: [admin.email, second.email],
    user,
    userS,
    fx,
    queue,
    failedAgo,
    patient: patient!,
  };
}

const to = (m: (typeof smtp.messages)[number]) =>
  m.to === undefined ? [] : [m.to].flat().map((a) => a.text);
const mailsFor = (emails: string[]) => smtp.messages.filter((m) => to(m).some((a) => emails.includes(a)));

describe("the stall e-mail", () => {
  test("goes to each admin once per stall across repeated checks, and names no patient", async () => {
    const p = await practice();
    const held = await p.queue();
    await p.queue();
    await t.app.deliveryWorker.runOnce();
    const [row] = await t.db
      .select()
      .from(deliveries)
      .where(and(eq(deliveries.tenantId, p.tenantId), eq(deliveries.id, held)));
    expect(row?.status).toBe("failed");

    // Failed just now: not yet a stall.
    await check();
    expect(mailsFor(p.admins)).toEqual([]);

    await p.failedAgo(held, 16);
    await check();
    await check();
    await check();
    const mails = mailsFor([...p.admins, p.user.email]);
    expect(mails.map((m) => to(m)).sort()).toEqual(p.admins.map((a) => [a]).sort());
    for (const mail of mails) {
      expect(mail.subject).toBe("Core Care: deliveries to hl7-mllp receiver are stalled");
      expect(mail.text).toContain("held the delivery queue of hl7-mllp receiver for more than 15 minutes");
      expect(mail.text).toContain("2 messages are waiting");
      expect(mail.text).toContain(`/deliveries?interface=${p.fx.interfaceId}`);
      const whole = `${mail.subject ?? ""}\n${mail.text ?? ""}\n${typeof mail.html === "string" ? mail.html : ""}`;
      for (const phi of [
        p.patient.firstName,
        p.patient.lastName,
        p.patient.mrn,
        p.patient.dob,
        row!.controlId,
      ])
        expect(whole).not.toContain(phi);
    }
    // The marker is an audit event of the interface naming the head and when it failed.
    const markers = await t.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.tenantId, p.tenantId), eq(auditEvents.action, STALL_MAIL_ACTION)));
    expect(markers).toHaveLength(1);
    expect(markers[0]).toMatchObject({ entity: "interface", entityId: p.fx.interfaceId, userId: null });
    expect(markers[0]!.details).toMatchObject({ deliveryId: held });
  });

  test("a new stall after the queue recovered is e-mailed again", async () => {
    const p = await practice();
    const first = await p.queue();
    await t.app.deliveryWorker.runOnce();
    await p.failedAgo(first, 20);
    await check();
    expect(mailsFor(p.admins)).toHaveLength(2);

    // An admin skips the failed head: the queue runs again; a later message fails and holds it.
    const adminS = await login(t.app, p.admins[0]!);
    expect((await adminS.inject({ method: "POST", url: `/api/deliveries/${first}/skip` })).statusCode).toBe(
      200,
    );
    await check();
    expect(mailsFor(p.admins)).toHaveLength(2);
    const next = await p.queue();
    await t.app.deliveryWorker.runOnce();
    await p.failedAgo(next, 16);
    await check();
    await check();
    expect(mailsFor(p.admins)).toHaveLength(4);

    // A resend of the failed head (a new delivery in its place) that fails again is a new stall too.
    const resent = await adminS.inject({ method: "POST", url: `/api/deliveries/${next}/resend` });
    expect(resent.statusCode).toBe(202);
    const again = resent.json<{ deliveryId: string }>().deliveryId;
    await t.app.deliveryWorker.runOnce();
    const [row] = await t.db
      .select()
      .from(deliveries)
      .where(and(eq(deliveries.tenantId, p.tenantId), eq(deliveries.id, again)));
    expect(row?.status).toBe("failed");
    await check();
    expect(mailsFor(p.admins)).toHaveLength(4);
    await p.failedAgo(again, 30);
    await check();
    expect(mailsFor(p.admins)).toHaveLength(6);
  });

  test("another practice's stall e-mails only its own admins", async () => {
    const p = await practice();
    const q = await practice();
    const held = await p.queue();
    await t.app.deliveryWorker.runOnce();
    await p.failedAgo(held, 16);
    await check();
    expect(mailsFor(p.admins)).toHaveLength(2);
    expect(mailsFor(q.admins)).toEqual([]);
  });
});
