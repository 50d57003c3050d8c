import { createServer, type AddressInfo, type Server, type Socket } from "node:net";
import type { FastifyBaseLogger } from "fastify";
import type { InboundHl7Config } from "../config.js";
import type { Db } from "../db/index.js";
import { frameMllp, MLLP_END, MLLP_START } from "../delivery/mllp.js";
import { internalErrorAck, receiveMessageRetrying } from "./service.js";

/**
 * The inbound MLLP listener (HL7 v2.5.1 Appendix C): each frame is answered with its ACK on the same
 * connection, one at a time in the order received (original acknowledgment mode). A frame longer than
 * `maxMessageBytes`, a connection past `maxConnections` and a connection idle for
 * `idleTimeoutSeconds` are closed; nothing they sent is applied.
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
    const server = createServer((socket) => this.accept(socket));
    // Past the limit Node closes a new connection at once, before any byte is read.
    server.maxConnections = this.config.maxConnections;
    server.on("drop", () => this.log.warn("inbound HL7: connection refused, too many open"));
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
    this.log.info(`inbound HL7 (MLLP) listening on ${address}:${port}`);
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

  private accept(socket: Socket): void {
    this.sockets.add(socket);
    socket.setNoDelay(true);
    socket.setTimeout(this.config.idleTimeoutSeconds * 1000, () => socket.destroy());
    socket.on("close", () => this.sockets.delete(socket));
    socket.on("error", () => socket.destroy());

    const limit = this.config.maxMessageBytes;
    let chunks: Buffer[] = [];
    let buffered = 0;
    let busy = false;

    const takeFrame = (): Buffer | undefined => {
      if (chunks.length > 1) chunks = [Buffer.concat(chunks)];
      const buffer = chunks[0];
      if (buffer === undefined) return undefined;
      const end = buffer.indexOf(MLLP_END);
      if (end === -1) return undefined;
      const start = buffer.indexOf(MLLP_START);
      // Bytes before the start block are not part of any frame.
      const frame = buffer.subarray(start === -1 || start > end ? 0 : start + 1, end);
      const rest = buffer.subarray(end + MLLP_END.length);
      chunks = rest.length === 0 ? [] : [rest];
      buffered = rest.length;
      return frame;
    };

    const pump = async () => {
      if (busy) return;
      busy = true;
      socket.pause();
      try {
        for (let frame = takeFrame(); frame !== undefined; frame = takeFrame()) {
          if (frame.length > limit) {
            tooLong();
            return;
          }
          const ack = await this.handle(frame);
          if (socket.destroyed) return;
          socket.write(frameMllp(ack));
        }
        // What is left is a frame not yet ended: past the limit, it is never read to its end.
        if (buffered > limit + MLLP_END.length + 1) tooLong();
      } finally {
        busy = false;
        if (!socket.destroyed) socket.resume();
      }
    };

    const tooLong = () => {
      this.log.warn("inbound HL7: message over the size limit, connection closed");
      chunks = [];
      buffered = 0;
      socket.destroy();
    };

    socket.on("data", (chunk: Buffer) => {
      chunks.push(chunk);
      buffered += chunk.length;
      // While a message is applied the socket is paused; what came with it is bounded all the same.
      if (buffered > 2 * (limit + MLLP_END.length + 1)) {
        tooLong();
        return;
      }
      void pump();
    });
  }

  private handle(frame: Buffer): Promise<string> {
    const work = receiveMessageRetrying(this.db, frame).then(
      ({ ack, summary }) => {
        // The outcome only: control id, type, tenant and field at fault; never a value (PHI).
        this.log.info({ inbound: summary }, "inbound HL7 message");
        return ack;
      },
      (error: unknown) => {
        const code = (error as { code?: unknown }).code;
        this.log.error(
          { errName: error instanceof Error ? error.name : typeof error, code },
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
