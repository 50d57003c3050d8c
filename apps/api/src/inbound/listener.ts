import { createServer, type AddressInfo, type Server, type Socket } from "node:net";
import { createServer as createTlsServer } from "node:tls";
import type { FastifyBaseLogger } from "fastify";
import type { InboundHl7Config } from "../config.js";
import type { Db } from "../db/index.js";
import { frameMllp } from "../delivery/mllp.js";
import { buildAck, headerOfBytes } from "./ack.js";
import { MllpFrameReader, type Frame } from "./frames.js";
import { internalErrorAck, receiveFrame, type FrameAnswer } from "./service.js";

/** How long a connection closed after its last ACK is read (and dropped) before it is cut off. */
const CLOSE_GRACE_MS = 5_000;

/**
 * The inbound MLLP listener (HL7 v2.5.1 Appendix C), over TCP or, with `tls` configured, over TLS
 * (with a client certificate required when a CA is given). Each frame is answered with its ACK on the
 * same connection, one at a time in the order received (original acknowledgment mode); a batch with
 * a batch of ACKs. A frame longer than `maxMessageBytes` is read to its end, not kept, and answered AR
 * naming the limit; one still unended after eight times the limit is answered so and its connection
 * closed. A connection past `maxConnections` and a connection idle for `idleTimeoutSeconds` are closed.
 */
export class InboundListener {
  private server: Server | undefined;
  private readonly sockets = new Set<Socket>();
  private readonly inFlight = new Set<Promise<unknown>>();

  constructor(
    private readonly db: Db,
    private readonly config: InboundHl7Config,
    private readonly log: FastifyBaseLogger,
  ) {}

  async start(): Promise<void> {
    const { tls } = this.config;
    const server =
      tls === undefined
        ? createServer((socket) => this.accept(socket))
        : createTlsServer(
            {
              cert: tls.cert,
              key: tls.key,
              ca: tls.ca,
              requestCert: tls.ca !== undefined,
              rejectUnauthorized: tls.ca !== undefined,
              minVersion: "TLSv1.2",
              // A connection that never finishes its handshake holds a place no longer than this.
              handshakeTimeout: Math.min(this.config.idleTimeoutSeconds, 30) * 1000,
            },
            (socket) => this.accept(socket),
          );
    // Past the limit Node closes a new connection at once, before any byte is read.
    server.maxConnections = this.config.maxConnections;
    // Every connection, a TLS one still in its handshake too, is closed by stop().
    server.on("connection", (socket: Socket) => this.track(socket));
    server.on("drop", () => this.log.warn("inbound HL7: connection refused, too many open"));
    // A failed handshake (no or a wrong client certificate, not TLS at all, or none within the
    // handshake timeout): its socket is closed, which a listener of this event has to do.
    server.on("tlsClientError", (error: Error & { code?: unknown }, socket: Socket) => {
      this.log.warn({ code: error.code }, "inbound HL7: TLS handshake refused");
      socket.destroy();
    });
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(this.config.port, this.config.host, () => {
        server.off("error", reject);
        resolve();
      });
    });
    server.on("error", (error) => this.log.error({ err: error }, "inbound HL7 listener error"));
    this.server = server;
    const { address, port } = server.address() as AddressInfo;
    this.log.info(
      `inbound HL7 (MLLP${tls === undefined ? "" : " over TLS"}) listening on ${address}:${port}`,
    );
  }

  /** The port it listens on (the one the OS chose for port 0). */
  port(): number | undefined {
    const address = this.server?.address();
    return typeof address === "object" && address !== null ? address.port : undefined;
  }

  /** Stops taking connections, closes the open ones, and waits for the messages being applied. */
  async stop(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    if (server === undefined) return;
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    for (const socket of this.sockets) socket.destroy();
    await Promise.allSettled([...this.inFlight]);
    await closed;
  }

  private track(socket: Socket): void {
    this.sockets.add(socket);
    socket.on("close", () => this.sockets.delete(socket));
  }

  private accept(socket: Socket): void {
    this.track(socket);
    socket.setNoDelay(true);
    socket.setTimeout(this.config.idleTimeoutSeconds * 1000, () => socket.destroy());
    socket.on("error", () => socket.destroy());
    const peer = { address: socket.remoteAddress ?? "" };

    const limit = this.config.maxMessageBytes;
    const reader = new MllpFrameReader(limit, 8 * limit);
    const queue: Frame[] = [];
    let busy = false;
    let closing = false;

    const pump = async () => {
      if (busy) return;
      busy = true;
      socket.pause();
      try {
        for (let frame = queue.shift(); frame !== undefined; frame = queue.shift()) {
          if (frame.kind === "oversize") {
            socket.write(frameMllp(this.oversizeAck(frame)));
            if (!frame.ended) {
              closeAfterAck();
              return;
            }
            continue;
          }
          const ack = await this.handle(frame.bytes, peer);
          if (socket.destroyed) return;
          socket.write(frameMllp(ack));
        }
      } finally {
        busy = false;
        if (!socket.destroyed && !closing) socket.resume();
      }
    };

    // The sender is told, then the connection is ended; what it still sends is read and dropped.
    const closeAfterAck = () => {
      closing = true;
      queue.length = 0;
      socket.end();
      socket.resume();
      setTimeout(() => socket.destroy(), CLOSE_GRACE_MS).unref();
    };

    socket.on("data", (chunk: Buffer) => {
      if (closing) return;
      queue.push(...reader.push(chunk));
      void pump();
    });
  }

  /** AR naming the size limit, with the control id when the frame's MSH could be read. */
  private oversizeAck(frame: Extract<Frame, { kind: "oversize" }>): string {
    const header = headerOfBytes(frame.head);
    this.log.warn(
      { inbound: { outcome: "AR", controlId: header.controlId, errorField: "MSH", size: frame.size } },
      frame.ended
        ? "inbound HL7: message over the size limit, answered AR"
        : "inbound HL7: message over the size limit and unended, answered AR and closed",
    );
    const limit = this.config.maxMessageBytes;
    return buildAck(header, {
      code: "AR",
      text: frame.ended
        ? `The message is over this receiver's size limit of ${limit} bytes.`
        : `The message is over this receiver's size limit of ${limit} bytes; the connection is closed.`,
      error: { location: "MSH", code: "valueTooLong" },
    });
  }

  private handle(frame: Buffer, peer: { address: string }): Promise<string> {
    const work = receiveFrame(this.db, frame, peer).then(
      ({ ack, summaries }: FrameAnswer) => {
        for (const summary of summaries) {
          const { failure, ...outcome } = summary;
          // The outcome only: control id, type, tenant and field at fault; never a value (PHI).
          if (failure === undefined) this.log.info({ inbound: outcome }, "inbound HL7 message");
          else this.log.error({ inbound: outcome, ...failure }, "inbound HL7: message not processed");
        }
        return ack;
      },
      (error: unknown) => {
        this.log.error(
          { errName: error instanceof Error ? error.name : typeof error },
          "inbound HL7: message not processed",
        );
        return internalErrorAck(frame);
      },
    );
    this.inFlight.add(work);
    void work.finally(() => this.inFlight.delete(work));
    return work;
  }
}
