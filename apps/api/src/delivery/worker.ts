import { randomBytes } from "node:crypto";
import { hostname } from "node:os";
import { and, asc, eq, inArray, like, lte, sql, type SQL } from "drizzle-orm";
import type { FastifyBaseLogger } from "fastify";
import type { InterfaceSettings } from "@core-care/schema";
import type { Db, DbOrTx } from "../db/index.js";
import { deliveries, interfaces } from "../db/schema.js";
import { audit } from "../services/audit.js";
import { interfaceSettings } from "../services/interfaces.js";
import { postFhirBundle } from "./fhir-http.js";
import { MllpConnections } from "./mllp.js";
import { transportOutcome, type Endpoint, type Outcome } from "./outcomes.js";
import { dropFile, sftpFileName } from "./sftp.js";

type DeliveryRow = typeof deliveries.$inferSelect;
type InterfaceRow = typeof interfaces.$inferSelect;

export interface DeliveryWorkerOptions {
  /** How often due deliveries are looked for when nothing wakes the worker. */
  pollIntervalMs: number;
  /** Interfaces whose head delivery is claimed per round (each then sends in a lane of its own). */
  batchSize: number;
  /**
   * How long a claimed delivery stays with its worker before the send starts; the send then extends
   * it by its interface's timeouts. After that another process may take it back.
   */
  leaseMs: number;
  /** Longest wait for a TCP or SSH connection (the interface's ACK timeout if shorter). */
  connectTimeoutMs: number;
  /** The clock; injectable so tests can move past a backoff or a lease. */
  now: () => Date;
  /** Who this process is in `claimed_by`: `host:pid:boot`. */
  instanceId: string;
}

const BOOT_ID = randomBytes(6).toString("hex");

export const DEFAULT_WORKER_OPTIONS: DeliveryWorkerOptions = {
  pollIntervalMs: 2_000,
  batchSize: 20,
  leaseMs: 60_000,
  connectTimeoutMs: 10_000,
  now: () => new Date(),
  instanceId: `${hostname()}:${process.pid}:${BOOT_ID}`,
};

/** Statuses that hold an interface's queue: nothing later of that interface goes before them. */
const UNFINISHED = ["pending", "sending", "failed"] as const;

const FILE_EXTENSIONS = { hl7: "hl7", sftp: "hl7", cda: "xml", fhir: "json" } as const;

/** Whether a process of this machine is alive (a signal 0 reaches it, or exists but is not ours). */
function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/**
 * Delivers queued results, first in first out per interface, interfaces independent of each other.
 *
 * Only the head of an interface's queue (its earliest delivery still pending, sending or failed, by
 * queue position) is ever claimed, so a later message never goes before an earlier one that is
 * still waiting, retrying or failed; a failed head holds the queue until an admin skips or resends
 * it. Claims take the row with `FOR UPDATE SKIP LOCKED` and mark it `sending` with the claiming
 * process's id, so several API processes on one database never send the same delivery nor two of
 * one interface at once. Each claimed interface is sent in a lane of its own: a receiver that does
 * not answer holds up only its own lane. A process that died while sending is recognised on the
 * same machine by its id (a dead pid, or this pid with another boot id) and its work taken back at
 * once, with the same control id; elsewhere its lease ends.
 */
export class DeliveryWorker {
  readonly options: DeliveryWorkerOptions;
  private readonly mllp: MllpConnections;
  private readonly lanes = new Map<string, Promise<void>>();
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private stopped = true;
  private wakeRequested = false;
  /** Set by `stop()`: lanes finish the send in hand and claim nothing more. */
  private halted = false;

  constructor(
    private readonly db: Db,
    private readonly log: FastifyBaseLogger,
    options: Partial<DeliveryWorkerOptions> = {},
  ) {
    this.options = { ...DEFAULT_WORKER_OPTIONS, ...options };
    this.mllp = new MllpConnections({
      connectTimeoutMs: this.options.connectTimeoutMs,
      ackTimeoutMs: 30_000,
    });
  }

  /** Starts polling; the first round first takes back work left by a dead process of this machine. */
  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.halted = false;
    this.schedule(0);
  }

  /** Looks for due deliveries now instead of at the next poll (after a send request). */
  wake(): void {
    if (this.stopped) return;
    if (this.running) this.wakeRequested = true;
    else this.schedule(0);
  }

  /**
   * Stops polling and waits for the sends in progress. Open MLLP connections are closed first, so a
   * send still waiting for its ACK ends now and is retried later with the same control id.
   */
  async stop(): Promise<void> {
    this.stopped = true;
    this.halted = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.mllp.closeAll();
    await this.running;
    await Promise.all(this.lanes.values());
    this.mllp.closeAll();
  }

  /**
   * One round, awaited: takes back stale work, claims the head of every interface with a due
   * delivery and sends each interface's due deliveries in order. Answers how many were sent.
   */
  async runOnce(): Promise<number> {
    await this.releaseStale();
    const claimed = await this.claim();
    const counts = await Promise.all(claimed.map((row) => this.lane(row)));
    return counts.reduce((a, b) => a + b, 0);
  }

  /**
   * Takes back deliveries left `sending` by a process of this machine that is gone: its pid is dead,
   * or it is this pid with another boot id (a container restarted under the same pid). They are due
   * at once, with the same control id (the receiver may have them already: at least once).
   */
  async releaseStale(): Promise<number> {
    const [host] = this.options.instanceId.split(":");
    const claims = await this.db
      .selectDistinct({ claimedBy: deliveries.claimedBy })
      .from(deliveries)
      .where(and(eq(deliveries.status, "sending"), like(deliveries.claimedBy, `${host}:%`)));
    const dead = claims
      .map((c) => c.claimedBy)
      .filter((claimedBy): claimedBy is string => {
        if (claimedBy === null || claimedBy === this.options.instanceId) return false;
        const pid = Number(claimedBy.split(":")[1]);
        if (!Number.isInteger(pid) || pid <= 0) return false;
        return pid === process.pid || !processAlive(pid);
      });
    if (dead.length === 0) return 0;
    const now = this.options.now();
    const released = await this.db
      .update(deliveries)
      .set({
        status: "pending",
        nextAttemptAt: now,
        claimedBy: null,
        lastError:
          "The server stopped while sending this message; it is sent again with the same control id.",
        updatedAt: now,
      })
      .where(and(eq(deliveries.status, "sending"), inArray(deliveries.claimedBy, dead)))
      .returning({ id: deliveries.id });
    if (released.length > 0) {
      this.log.warn({ count: released.length }, "took back deliveries of a process that stopped");
    }
    return released.length;
  }

  private schedule(delayMs: number) {
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.running = this.poll().finally(() => {
        this.running = undefined;
        if (this.stopped) return;
        const again = this.wakeRequested;
        this.wakeRequested = false;
        this.schedule(again ? 0 : this.options.pollIntervalMs);
      });
    }, delayMs);
    this.timer.unref();
  }

  /** Claims the heads of interfaces without a lane here and starts a lane for each; never waits on a send. */
  private async poll(): Promise<void> {
    try {
      await this.releaseStale();
      for (;;) {
        if (this.stopped) return;
        const claimed = await this.claim({ excludeLanes: true });
        for (const row of claimed) {
          const key = laneKey(row);
          const lane = this.lane(row)
            .then(() => undefined)
            .catch((error: unknown) => this.log.error({ err: error }, "delivery lane failed"))
            .finally(() => {
              if (this.lanes.get(key) === lane) this.lanes.delete(key);
            });
          this.lanes.set(key, lane);
        }
        if (claimed.length < this.options.batchSize) return;
      }
    } catch (error) {
      this.log.error({ err: error }, "delivery worker round failed");
    }
  }

  /** Sends a claimed delivery, then the interface's next ones while they are due; answers how many. */
  private async lane(first: DeliveryRow): Promise<number> {
    let row: DeliveryRow | undefined = first;
    let sent = 0;
    while (row !== undefined) {
      await this.deliver(row);
      sent++;
      if (this.halted) break;
      [row] = await this.claim({ interfaceOf: row });
    }
    return sent;
  }

  /**
   * Claims due heads: one per interface (or the one of `interfaceOf`), marking each `sending` under
   * this process's id with a short lease.
   */
  private async claim(
    scope: { excludeLanes?: boolean; interfaceOf?: DeliveryRow } = {},
  ): Promise<DeliveryRow[]> {
    const now = this.options.now();
    const conditions: SQL[] = [
      inArray(deliveries.status, ["pending", "sending"]),
      lte(deliveries.nextAttemptAt, now),
      // The head of its interface's queue: nothing earlier of that interface is unfinished.
      sql`not exists (select 1 from ${deliveries} e where e.tenant_id = ${deliveries.tenantId}
        and e.interface_id = ${deliveries.interfaceId}
        and e.status in (${sql.join(
          UNFINISHED.map((s) => sql`${s}`),
          sql`, `,
        )})
        and (e.queue_seq, e.id) < (${deliveries.queueSeq}, ${deliveries.id}))`,
    ];
    if (scope.interfaceOf !== undefined) {
      conditions.push(
        eq(deliveries.tenantId, scope.interfaceOf.tenantId),
        eq(deliveries.interfaceId, scope.interfaceOf.interfaceId),
      );
    }
    if (scope.excludeLanes && this.lanes.size > 0) {
      conditions.push(
        sql`(${deliveries.tenantId} || '/' || ${deliveries.interfaceId}) not in (${sql.join(
          [...this.lanes.keys()].map((k) => sql`${k}`),
          sql`, `,
        )})`,
      );
    }
    const due = this.db
      .select({ tenantId: deliveries.tenantId, id: deliveries.id })
      .from(deliveries)
      .where(and(...conditions))
      .orderBy(asc(deliveries.nextAttemptAt))
      .limit(scope.interfaceOf === undefined ? this.options.batchSize : 1)
      .for("update", { skipLocked: true });
    return this.db
      .update(deliveries)
      .set({
        status: "sending",
        attempts: sql`${deliveries.attempts} + 1`,
        nextAttemptAt: new Date(now.getTime() + this.options.leaseMs),
        claimedBy: this.options.instanceId,
        updatedAt: now,
      })
      .where(sql`(${deliveries.tenantId}, ${deliveries.id}) in (${due})`)
      .returning();
  }

  private async deliver(row: DeliveryRow): Promise<void> {
    const [iface] = await this.db
      .select()
      .from(interfaces)
      .where(and(eq(interfaces.tenantId, row.tenantId), eq(interfaces.id, row.interfaceId)));
    const settings = iface === undefined ? undefined : interfaceSettings(iface);
    let outcome: Outcome;
    if (iface === undefined || settings === undefined) {
      outcome = { kind: "failed", error: "The interface no longer exists." };
    } else if (row.payload === null) {
      outcome = { kind: "failed", error: "The delivery has no payload." };
    } else {
      await this.extendLease(row, settings);
      const endpoint: Endpoint = {
        host: iface.host,
        port: iface.port,
        everDelivered: await this.everDelivered(row),
      };
      try {
        outcome = await this.attempt(row, iface, row.payload, settings, endpoint);
      } catch (error) {
        outcome = transportOutcome(error, endpoint);
      }
    }
    await this.record(row, outcome, settings);
  }

  /** The send may take the interface's whole ACK timeout: the lease covers it, with a margin. */
  private async extendLease(row: DeliveryRow, settings: InterfaceSettings): Promise<void> {
    const ms = this.connectTimeout(settings) + settings.ackTimeoutSeconds * 1000 + 30_000;
    await this.db
      .update(deliveries)
      .set({ nextAttemptAt: new Date(this.options.now().getTime() + Math.max(ms, this.options.leaseMs)) })
      .where(this.ownClaim(row));
  }

  private connectTimeout(settings: InterfaceSettings): number {
    return Math.min(this.options.connectTimeoutMs, settings.ackTimeoutSeconds * 1000);
  }

  private async everDelivered(row: DeliveryRow): Promise<boolean> {
    const [hit] = await this.db
      .select({ id: deliveries.id })
      .from(deliveries)
      .where(
        and(
          eq(deliveries.tenantId, row.tenantId),
          eq(deliveries.interfaceId, row.interfaceId),
          eq(deliveries.status, "delivered"),
        ),
      )
      .limit(1);
    return hit !== undefined;
  }

  private async attempt(
    row: DeliveryRow,
    iface: InterfaceRow,
    payload: string,
    settings: InterfaceSettings,
    endpoint: Endpoint,
  ): Promise<Outcome> {
    const timeoutMs = settings.ackTimeoutSeconds * 1000;
    switch (iface.type) {
      case "hl7-mllp":
      case "cda-mllp":
        return this.sendMllp(row, iface, payload, timeoutMs);
      case "sftp":
      case "cda-sftp": {
        const name = sftpFileName(
          row.tenantId,
          row.resultId,
          row.createdAt,
          FILE_EXTENSIONS[row.format],
          row.controlId,
        );
        const target = {
          host: iface.host,
          port: iface.port,
          username: iface.username ?? "",
          ...(iface.secret ? { secret: iface.secret } : {}),
          ...(iface.path ? { path: iface.path } : {}),
          ...(iface.hostKeySha256 ? { hostKeySha256: iface.hostKeySha256 } : {}),
          ...(iface.fileMode === null ? {} : { fileMode: iface.fileMode }),
        };
        const dropped = await dropFile(target, name, payload, {
          timeoutMs: Math.max(this.connectTimeout(settings), timeoutMs),
        });
        return {
          kind: "delivered",
          ack: `${dropped.alreadyPresent ? "already present" : "written"}: ${dropped.path}`,
        };
      }
      case "fhir-http": {
        const target = {
          host: iface.host,
          port: iface.port,
          ...(iface.path ? { path: iface.path } : {}),
          ...(iface.secret ? { secret: iface.secret } : {}),
        };
        const result = await postFhirBundle(target, JSON.parse(payload), { timeoutMs });
        if (result.outcome === "accepted") {
          return {
            kind: "delivered",
            ack: `HTTP ${result.status}${result.location ? ` ${result.location}` : ""}`,
          };
        }
        if (result.status === null) {
          const code = /network: (\w+)/.exec(result.error)?.[1];
          return transportOutcome(
            code === undefined ? new Error(result.error) : Object.assign(new Error(result.error), { code }),
            endpoint,
          );
        }
        const error = `The FHIR server at ${endpoint.host}:${endpoint.port} answered ${result.error}.`;
        return result.outcome === "retry" ? { kind: "retry", error } : { kind: "failed", error };
      }
    }
  }

  private async sendMllp(
    row: DeliveryRow,
    iface: InterfaceRow,
    payload: string,
    ackTimeoutMs: number,
  ): Promise<Outcome> {
    const connection = this.mllp.get(`${row.tenantId}/${iface.id}`, { host: iface.host, port: iface.port });
    const ack = await connection.send(payload, row.controlId, ackTimeoutMs);
    const detail = ack.text ? `${ack.code}: ${ack.text}` : ack.code;
    switch (ack.code) {
      case "AA":
      case "CA":
        return { kind: "delivered", ack: ack.raw };
      // Application error: the receiver could not process it now; HL7 v2.5.1 §2.9.2 lets the sender retry.
      case "AE":
      case "CE":
        return { kind: "retry", error: `Receiver answered ${detail}`, ack: ack.raw };
      // Application reject: the message will never be accepted as it is.
      case "AR":
      case "CR":
        return { kind: "failed", error: `Receiver rejected the message (${detail})`, ack: ack.raw };
    }
  }

  /** Only the claim that made this attempt may record it; a row taken back meanwhile is not touched. */
  private ownClaim(row: DeliveryRow) {
    return and(
      eq(deliveries.tenantId, row.tenantId),
      eq(deliveries.id, row.id),
      eq(deliveries.status, "sending"),
      eq(deliveries.attempts, row.attempts),
      eq(deliveries.claimedBy, this.options.instanceId),
    );
  }

  /**
   * A delivery cancelled or skipped while this attempt was on the wire, and acknowledged: the receiver
   * has it, so the log says delivered, and why it was not stopped.
   */
  private async recordArrivedAfterAll(tx: DbOrTx, row: DeliveryRow, ack: string | null, now: Date) {
    const arrived = await tx
      .update(deliveries)
      .set({
        status: "delivered",
        deliveredAt: now,
        ack,
        claimedBy: null,
        updatedAt: now,
        lastError: sql`${deliveries.lastError} || ' It was already being sent, and the receiver acknowledged it.'`,
      })
      .where(
        and(
          eq(deliveries.tenantId, row.tenantId),
          eq(deliveries.id, row.id),
          inArray(deliveries.status, ["cancelled", "skipped"]),
          eq(deliveries.attempts, row.attempts),
          eq(deliveries.claimedBy, this.options.instanceId),
        ),
      )
      .returning({ id: deliveries.id });
    if (arrived.length === 0) return;
    await audit(tx, {
      tenantId: row.tenantId,
      userId: null,
      action: "send",
      entity: "delivery:delivered",
      entityId: row.id,
    });
  }

  private async record(row: DeliveryRow, outcome: Outcome, settings: InterfaceSettings | undefined) {
    const now = this.options.now();
    const maxAttempts = settings?.maxAttempts ?? 1;
    const exhausted = outcome.kind === "retry" && row.attempts >= maxAttempts;
    const status =
      outcome.kind === "delivered"
        ? "delivered"
        : outcome.kind === "failed" || exhausted
          ? "failed"
          : "pending";
    const delays = settings?.retryDelaysSeconds ?? [10];
    const delayMs = delays[Math.min(row.attempts, delays.length) - 1]! * 1000;
    await this.db.transaction(async (tx) => {
      const updated = await tx
        .update(deliveries)
        .set({
          status,
          updatedAt: now,
          nextAttemptAt: status === "pending" ? new Date(now.getTime() + delayMs) : null,
          claimedBy: null,
          lastError:
            outcome.kind === "delivered"
              ? null
              : exhausted
                ? `${outcome.error} Gave up after ${row.attempts} attempts.`
                : outcome.error,
          ack: outcome.ack ?? (outcome.kind === "delivered" ? null : row.ack),
          deliveredAt: status === "delivered" ? now : null,
        })
        .where(this.ownClaim(row))
        .returning({ id: deliveries.id });
      if (updated.length === 0) {
        if (outcome.kind === "delivered") await this.recordArrivedAfterAll(tx, row, outcome.ack ?? null, now);
        return;
      }
      await audit(tx, {
        tenantId: row.tenantId,
        userId: null,
        action: "send",
        entity: `delivery:${status}`,
        entityId: row.id,
      });
    });
    this.log.info(
      { deliveryId: row.id, tenantId: row.tenantId, format: row.format, attempt: row.attempts, status },
      "delivery attempt recorded",
    );
  }
}

function laneKey(row: { tenantId: string; interfaceId: string }): string {
  return `${row.tenantId}/${row.interfaceId}`;
}
