import { Socket } from "node:net";
import { ACK_CODES, type AckCode } from "./codes/hl7-tables.js";

/** MLLP block characters (HL7 v2.5.1 Appendix C, Minimal Lower Layer Protocol). */
export const MLLP_START = 0x0b;
export const MLLP_END = Buffer.from([0x1c, 0x0d]);

export function frameMllp(message: string): Buffer {
  return Buffer.concat([Buffer.from([MLLP_START]), Buffer.from(message, "utf8"), MLLP_END]);
}

/** The acknowledgment a receiver returned: MSA-1 code, MSA-2 control id and MSA-3 text. */
export interface HL7Ack {
  code: AckCode;
  controlId: string;
  text: string;
  raw: string;
}

export class MllpError extends Error {
  constructor(
    message: string,
    readonly reason: "timeout" | "connection" | "protocol",
    /** The socket's error code (ECONNREFUSED, ENOTFOUND, ...) when the connection failed. */
    readonly code?: string,
  ) {
    super(message);
    this.name = "MllpError";
  }
}

/** Reads MSA from an ACK; throws a protocol error when it has none or an unknown code. */
export function parseAck(raw: string): HL7Ack {
  const segments = raw.split(/\r\n|\r|\n/);
  const msh = segments.find((s) => s.startsWith("MSH"));
  const msa = segments.find((s) => s.startsWith("MSA"));
  if (!msh || !msa) throw new MllpError("acknowledgment without MSH or MSA segment", "protocol");
  const fieldSeparator = msh[3] ?? "|";
  const fields = msa.split(fieldSeparator);
  const code = fields[1] ?? "";
  if (!(ACK_CODES as readonly string[]).includes(code)) {
    throw new MllpError(`acknowledgment code "${code}" is not in HL7 table 0008`, "protocol");
  }
  return { code: code as AckCode, controlId: fields[2] ?? "", text: fields[3] ?? "", raw };
}

export interface MllpEndpoint {
  host: string;
  port: number;
}

/**
 * One MLLP connection to one receiver. Messages go one at a time (original acknowledgment mode:
 * the next message waits for the previous ACK); the connection is opened on first use, kept
 * open, and reopened after a timeout or a drop.
 */
export class MllpConnection {
  private socket: Socket | undefined;
  private buffer = Buffer.alloc(0);
  private waiting: { resolve: (frame: string) => void; reject: (e: Error) => void } | undefined;
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly endpoint: MllpEndpoint,
    private readonly options: { connectTimeoutMs: number; ackTimeoutMs: number },
  ) {}

  /**
   * Sends a message and resolves with its ACK; rejects with an MllpError on timeout or drop.
   * `ackTimeoutMs` overrides the connection's ACK timeout for this message.
   */
  send(message: string, controlId: string, ackTimeoutMs = this.options.ackTimeoutMs): Promise<HL7Ack> {
    const next = this.queue.then(() => this.exchange(message, controlId, ackTimeoutMs));
    this.queue = next.catch(() => undefined);
    return next;
  }

  close(): void {
    this.fail(new MllpError("connection closed", "connection"));
    this.socket?.destroy();
    this.socket = undefined;
  }

  private async exchange(message: string, controlId: string, ackTimeoutMs: number): Promise<HL7Ack> {
    const socket = await this.connect();
    const frame = new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiting = undefined;
        reject(new MllpError(`no acknowledgment within ${ackTimeoutMs / 1000} s`, "timeout"));
        // A late ACK must never be taken for the next message's, so the connection is dropped.
        this.drop();
      }, ackTimeoutMs);
      this.waiting = {
        resolve: (f) => {
          clearTimeout(timer);
          resolve(f);
        },
        reject: (e) => {
          clearTimeout(timer);
          reject(e);
        },
      };
    });
    socket.write(frameMllp(message));
    const ack = parseAck(await frame);
    if (ack.controlId !== controlId) {
      this.drop();
      throw new MllpError(
        `acknowledgment for control id "${ack.controlId}", expected "${controlId}"`,
        "protocol",
      );
    }
    return ack;
  }

  private connect(): Promise<Socket> {
    if (this.socket && !this.socket.destroyed) return Promise.resolve(this.socket);
    return new Promise((resolve, reject) => {
      const socket = new Socket();
      this.buffer = Buffer.alloc(0);
      const timer = setTimeout(() => {
        socket.destroy();
        reject(new MllpError(`connect timed out after ${this.options.connectTimeoutMs} ms`, "timeout"));
      }, this.options.connectTimeoutMs);
      socket.once("connect", () => {
        clearTimeout(timer);
        socket.setNoDelay(true);
        socket.setKeepAlive(true);
        this.socket = socket;
        resolve(socket);
      });
      socket.on("data", (chunk: Buffer) => this.onData(chunk));
      socket.on("error", (error: NodeJS.ErrnoException) => {
        clearTimeout(timer);
        const failure = new MllpError(
          `connection error: ${error.code ?? error.message}`,
          "connection",
          error.code,
        );
        if (this.socket === socket) this.fail(failure);
        else reject(failure);
      });
      socket.on("close", () => {
        if (this.socket === socket) {
          this.socket = undefined;
          this.fail(
            new MllpError("connection closed by the receiver before an acknowledgment", "connection"),
          );
        }
      });
      socket.connect(this.endpoint.port, this.endpoint.host);
    });
  }

  private onData(chunk: Buffer) {
    this.buffer = Buffer.concat([this.buffer, chunk]);
    let end: number;
    while ((end = this.buffer.indexOf(MLLP_END)) !== -1) {
      const start = this.buffer.indexOf(MLLP_START);
      const body = this.buffer.subarray(start === -1 || start > end ? 0 : start + 1, end).toString("utf8");
      this.buffer = this.buffer.subarray(end + MLLP_END.length);
      const waiting = this.waiting;
      this.waiting = undefined;
      waiting?.resolve(body);
    }
  }

  private fail(error: Error) {
    const waiting = this.waiting;
    this.waiting = undefined;
    waiting?.reject(error);
  }

  private drop() {
    this.socket?.destroy();
    this.socket = undefined;
  }
}

/** Keeps one MLLP connection per interface. */
export class MllpConnections {
  private readonly connections = new Map<string, { key: string; connection: MllpConnection }>();

  constructor(private readonly options = { connectTimeoutMs: 5_000, ackTimeoutMs: 30_000 }) {}

  get(interfaceId: string, endpoint: MllpEndpoint): MllpConnection {
    const key = `${endpoint.host}:${endpoint.port}`;
    const existing = this.connections.get(interfaceId);
    if (existing?.key === key) return existing.connection;
    existing?.connection.close();
    const connection = new MllpConnection(endpoint, this.options);
    this.connections.set(interfaceId, { key, connection });
    return connection;
  }

  closeAll(): void {
    for (const { connection } of this.connections.values()) connection.close();
    this.connections.clear();
  }
}
