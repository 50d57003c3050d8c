import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { and, eq, sql } from "drizzle-orm";
import { objectId } from "@core-care/survey-engine";
import { rowsOf } from "../db/index.js";
import { inboundMessages, patients } from "../db/schema.js";
import { createTestApp, inspect, type TestApp, type TestTenant } from "../../test/helpers.js";
import { setInboundFacilities } from "./facilities.js";
import { setInboundSenders } from "./senders.js";
import { receiveMessageRetrying } from "./service.js";

// Two connections at once on one database: a PostgreSQL server's work (PGlite has one session).
describe("inbound ADT for a new MRN created meanwhile by another message", () => {
  let t: TestApp;
  let tenant: TestTenant;
  const facility = `RACE${Date.now().toString(36)}`.toUpperCase();

  beforeAll(async () => {
    t = await createTestApp();
    tenant = await t.createTestTenant({ role: "admin" });
    await setInboundFacilities(t.db, tenant.tenantId, [{ facility }]);
    await setInboundSenders(t.db, tenant.tenantId, {
      senders: [{ application: "EHR", facility: "CLINIC", addresses: ["127.0.0.1"] }],
      processingId: "P",
    });
  });
  afterAll(async () => t.close());

  test("waits for the other patient's commit, then applies the message as an update (AA)", async () => {
    const mrn = `RACE-${objectId()}`;
    const controlId = `C${objectId().slice(0, 12)}`;
    const message = Buffer.from(
      [
        `MSH|^~\\&|EHR|CLINIC|CORECARE|${facility}|20261127||ADT^A04^ADT_A01|${controlId}|P|2.5.1`,
        `PID|1||${mrn}^^^EHR^MR||Race^Rita||19600101|F`,
      ].join("\r"),
    );
    let answer: Promise<Awaited<ReturnType<typeof receiveMessageRetrying>>> | undefined;
    // Another writer holds the MRN uncommitted: the message sees no patient, and its insert waits on the
    // unique index until the writer commits.
    await t.db.transaction(async (tx) => {
      await tx.insert(patients).values({
        tenantId: tenant.tenantId,
        id: objectId(),
        mrn,
        firstName: "First",
        lastName: "Writer",
        dob: "1960-01-01",
        sex: "F",
      });
      answer = receiveMessageRetrying(t.db, message, { address: "127.0.0.1" });
      // Until the message's insert is waiting on this transaction's row lock.
      for (;;) {
        const rows = await inspect(() =>
          t.db.execute(
            sql`select count(*)::int as n from pg_stat_activity where wait_event_type = 'Lock' and datname = current_database()`,
          ),
        );
        if ((rowsOf<{ n: number }>(rows)[0]?.n ?? 0) > 0) break;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    });
    const { ack, summary } = await answer!;
    expect(summary.outcome).toBe("AA");
    expect(ack).toMatch(new RegExp(`\\rMSA\\|AA\\|${controlId}`));
    const rows = await inspect(() =>
      t.db
        .select({ lastName: patients.lastName })
        .from(patients)
        .where(and(eq(patients.tenantId, tenant.tenantId), eq(patients.mrn, mrn))),
    );
    expect(rows).toEqual([{ lastName: "Race" }]);
    const log = await inspect(() =>
      t.db
        .select({ action: inboundMessages.action, received: inboundMessages.received })
        .from(inboundMessages)
        .where(and(eq(inboundMessages.tenantId, tenant.tenantId), eq(inboundMessages.controlId, controlId))),
    );
    expect(log).toEqual([{ action: "updated", received: 1 }]);
  });
});
