import { and, asc, eq, inArray, lte, sql } from "drizzle-orm";
import type { FastifyBaseLogger } from "fastify";
import type { Db } from "../db/index.js";
import { deliveries, interfaces } from "../db/schema.js";
import { audit } from "../services/audit.js";
import { postFhirBundle } from "./fhir-http.js";
import { MllpConnections, MllpError } from "./mllp.js";
import { dropFile, sftpFileName } from "./sftp.js";

type DeliveryRow = typeof deliveries.$inferSelect;
type InterfaceRow = typeof interfaces.$inferSelect;

export interface DeliveryWorkerOptions {
  /** How often due deliveries are looked for when nothing wakes the worker. */
  pollIntervalMs: number;
  /** Deliveries claimed per round. */
  batchSize: number;
  /** How long a claimed delivery stays with its worker; after that another may retry it. */
  leaseMs: number;
  /** Attempts before a delivery that keeps failing is marked failed. */
  maxAttempts: number;
  /** Wait after the first failed attempt; doubled after each further one, up to `backoffMaxMs`. */
  backoffBaseMs: number;
  backoffMaxMs: number;
  connectTimeoutMs: number;
  ackTimeoutMs: number;
  /** The clock; injectable so tests can move past a backoff or a lease. */
  now: () => Date;
}

export const DEFAULT_WORKER_OPTIONS: DeliveryWorkerOptions = {
  pollIntervalMs: 2_000,
  batchSize: 10,
  leaseMs: 5 * 60_000,
  maxAttempts: 10,
  backoffBaseMs: 10_000,
  backoffMaxMs: 30 * 60_000,
  connectTimeoutMs: 10_000,
  ackTimeoutMs: 60_000,
  now: () => new Date(),
};

/** How one attempt ended. `ack` is what the receiver answered; `error` never holds PHI. */
type Outcome =
  | { kind: "delivered"; ack: string }
  | { kind: "retry"; error: string; ack?: string }
  | { kind: "failed"; error: string; ack?: string };

const FILE_EXTENSIONS = { hl7: "hl7", sftp: "hl7", cda: "xml", fhir: "json" } as const;

/**
 * Delivers queued results. It claims due rows (FOR UPDATE SKIP LOCKED, so several API processes
 * on one PostgreSQL server never take the same row), sends each with the row's fixed payload and
 * control id, and records the outcome in one transaction with its audit event. A row whose worker
 * died stays 'sending' until its lease ends and is then retried with the same control id.
 */
export class DeliveryWorker {
  readonly options: DeliveryWorkerOptions;
  private readonly mllp: MllpConnections;
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private stopped = true;
  private wakeRequested = false;

  constructor(
    private readonly db: Db,
    private readonly log: FastifyBaseLogger,
    options: Partial<DeliveryWorkerOptions> = {},
  ) {
    this.options = { ...DEFAULT_WORKER_OPTIONS, ...options };
    this.mllp = new MllpConnections({
      connectTimeoutMs: this.options.connectTimeoutMs,
      ackTimeoutMs: this.options.ackTimeoutMs,
    });
  }

  /** Starts polling. */
  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.schedule(0);
  }

  /** Looks for due deliveries now instead of at the next poll (after a send request). */
  wake(): void {
    if (this.stopped) return;
    if (this.running) this.wakeRequested = true;
    else this.schedule(0);
  }

  /**
   * Stops polling and waits for the round in progress. Open MLLP connections are closed first, so
   * a send still waiting for its ACK ends now and is retried later with the same control id.
   */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.mllp.closeAll();
    await this.running;
    this.mllp.closeAll();
  }

  /** Claims and delivers one batch of due deliveries; answers how many it handled. */
  async runOnce(): Promise<number> {
    const claimed = await this.claim();
    await Promise.all(claimed.map((row) => this.deliver(row)));
    return claimed.length;
  }

  private schedule(delayMs: number) {
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.running = this.loop().finally(() => {
        this.running = undefined;
        if (this.stopped) return;
        const again = this.wakeRequested;
        this.wakeRequested = false;
        this.schedule(again ? 0 : this.options.pollIntervalMs);
      });
    }, delayMs);
    this.timer.unref();
  }

  private async loop(): Promise<void> {
    try {
      while (!this.stopped && (await this.runOnce()) === this.options.batchSize) {
        // a full batch: more may be due
      }
    } catch (error) {
      this.log.error({ err: error }, "delivery worker round failed");
    }
  }

  private async claim(): Promise<DeliveryRow[]> {
    const now = this.options.now();
    const due = this.db
      .select({ tenantId: deliveries.tenantId, id: deliveries.id })
      .from(deliveries)
      .where(and(inArray(deliveries.status, ["pending", "sending"]), lte(deliveries.nextAttemptAt, now)))
      .orderBy(asc(deliveries.nextAttemptAt))
      .limit(this.options.batchSize)
      .for("update", { skipLocked: true });
    return this.db
      .update(deliveries)
      .set({
        status: "sending",
        attempts: sql`${deliveries.attempts} + 1`,
        nextAttemptAt: new Date(now.getTime() + this.options.leaseMs),
        updatedAt: now,
      })
      .where(sql`(${deliveries.tenantId}, ${deliveries.id}) in (${due})`)
      .returning();
  }

  private async deliver(row: DeliveryRow): Promise<void> {
    let outcome: Outcome;
    try {
      outcome = await this.attempt(row);
    } catch (error) {
      outcome = { kind: "retry", error: describeError(error) };
    }
    await this.record(row, outcome);
  }

  private async attempt(row: DeliveryRow): Promise<Outcome> {
    const [iface] = await this.db
      .select()
      .from(interfaces)
      .where(and(eq(interfaces.tenantId, row.tenantId), eq(interfaces.id, row.interfaceId)));
    if (iface === undefined) return { kind: "failed", error: "The interface no longer exists." };
    if (row.payload === null) return { kind: "failed", error: "The delivery has no payload." };
    switch (iface.type) {
      case "hl7-mllp":
      case "cda-mllp":
        return this.sendMllp(row, iface, row.payload);
      case "sftp":
      case "cda-sftp": {
        const name = sftpFileName(row.tenantId, row.resultId, row.createdAt, FILE_EXTENSIONS[row.format]);
        const target = {
          host: iface.host,
          port: iface.port,
          username: iface.username ?? "",
          ...(iface.secret ? { secret: iface.secret } : {}),
          ...(iface.path ? { path: iface.path } : {}),
        };
        const dropped = await dropFile(target, name, row.payload, {
          timeoutMs: this.options.connectTimeoutMs,
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
        const result = await postFhirBundle(target, JSON.parse(row.payload), {
          timeoutMs: this.options.ackTimeoutMs,
        });
        if (result.outcome === "accepted") {
          return {
            kind: "delivered",
            ack: `HTTP ${result.status}${result.location ? ` ${result.location}` : ""}`,
          };
        }
        return result.outcome === "retry"
          ? { kind: "retry", error: result.error }
          : { kind: "failed", error: result.error };
      }
    }
  }

  private async sendMllp(row: DeliveryRow, iface: InterfaceRow, payload: string): Promise<Outcome> {
    const connection = this.mllp.get(`${row.tenantId}/${iface.id}`, { host: iface.host, port: iface.port });
    const ack = await connection.send(payload, row.controlId);
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

  private async record(row: DeliveryRow, outcome: Outcome): Promise<void> {
    const now = this.options.now();
    const exhausted = outcome.kind === "retry" && row.attempts >= this.options.maxAttempts;
    const status =
      outcome.kind === "delivered"
        ? "delivered"
        : outcome.kind === "failed" || exhausted
          ? "failed"
          : "pending";
    const delay = Math.min(this.options.backoffBaseMs * 2 ** (row.attempts - 1), this.options.backoffMaxMs);
    await this.db.transaction(async (tx) => {
      const updated = await tx
        .update(deliveries)
        .set({
          status,
          updatedAt: now,
          nextAttemptAt: status === "pending" ? new Date(now.getTime() + delay) : null,
          lastError:
            outcome.kind === "delivered"
              ? null
              : exhausted
                ? `${outcome.error} (gave up after ${row.attempts} attempts)`
                : outcome.error,
          ack: outcome.ack ?? (outcome.kind === "delivered" ? null : row.ack),
          deliveredAt: status === "delivered" ? now : null,
        })
        // Only the claim that made this attempt may record it; a row re-claimed after its lease is not touched.
        .where(
          and(
            eq(deliveries.tenantId, row.tenantId),
            eq(deliveries.id, row.id),
            eq(deliveries.status, "sending"),
            eq(deliveries.attempts, row.attempts),
          ),
        )
        .returning({ id: deliveries.id });
      if (updated.length === 0) return;
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

/** An error as a short text fit for the delivery log: transport reasons only, never message content. */
function describeError(error: unknown): string {
  if (error instanceof MllpError) return `MLLP ${error.reason}: ${error.message}`;
  const e = error as { code?: unknown; message?: unknown };
  const code = typeof e.code === "string" ? e.code : undefined;
  const message = typeof e.message === "string" ? e.message.split("\n")[0]!.slice(0, 300) : String(error);
  return code && !message.includes(code) ? `${code}: ${message}` : message;
}
