import { createServer, type Socket } from "node:net";
import { Hl7Message } from "@medplum/core";

/** How the peer answers: an ACK code, silence (the sender times out) or closing the connection. */
export type MllpPeerMode = "AA" | "AE" | "AR" | "silent" | "drop";

export interface MllpPeer {
  port: number;
  /** Every message received, parsed by Medplum's independent HL7 parser. */
  received: Hl7Message[];
  /** The control id (MSH-10) of every message received, in order. */
  controlIds: () => string[];
  /** Connections accepted so far. */
  connections: () => number;
  mode: MllpPeerMode;
  /** The text of an AE or AR acknowledgment (MSA-3). */
  reason: string;
  /** When set, decides how to answer each message (0-based count of messages so far); else `mode`. */
  decide?: (index: number) => MllpPeerMode;
  close: () => Promise<void>;
}

const START = 0x0b;
const END = Buffer.from([0x1c, 0x0d]);

function ackFor(message: Hl7Message, code: string, reason: string): string {
  const msh = message.getSegment("MSH")!;
  const field = (n: number) => msh.getField(n)?.toString() ?? "";
  return [
    `MSH|^~\\&|${field(5)}|${field(6)}|${field(3)}|${field(4)}|20260101000000||ACK^R01^ACK|ACK-${field(10)}|P|2.5.1`,
    `MSA|${code}|${field(10)}${code === "AA" ? "" : `|${reason}`}`,
  ].join("\r");
}

/** A real MLLP listener on 127.0.0.1 with a free port. */
export async function startMllpPeer(mode: MllpPeerMode = "AA", port = 0): Promise<MllpPeer> {
  const sockets = new Set<Socket>();
  let connections = 0;
  const peer: MllpPeer = {
    port: 0,
    received: [],
    controlIds: () =>
      peer.received.map((message) => message.getSegment("MSH")?.getField(10)?.toString() ?? ""),
    connections: () => connections,
    mode,
    reason: "rejected by test peer",
    close: () =>
      new Promise((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
  const server = createServer((socket) => {
    connections++;
    sockets.add(socket);
    socket.setNoDelay(true);
    socket.on("close", () => sockets.delete(socket));
    socket.on("error", () => socket.destroy());
    let buffer = Buffer.alloc(0);
    socket.on("data", (chunk: Buffer) => {
      buffer = Buffer.concat([buffer, chunk]);
      let end: number;
      while ((end = buffer.indexOf(END)) !== -1) {
        if (buffer[0] !== START) throw new Error("MLLP frame without start block");
        const text = buffer.subarray(1, end).toString("utf8");
        buffer = buffer.subarray(end + END.length);
        const message = Hl7Message.parse(text);
        const mode = peer.decide?.(peer.received.length) ?? peer.mode;
        if (mode === "drop") {
          socket.destroy();
          return;
        }
        peer.received.push(message);
        if (mode === "silent") continue;
        socket.write(
          Buffer.concat([Buffer.from([START]), Buffer.from(ackFor(message, mode, peer.reason)), END]),
        );
      }
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", resolve);
  });
  const address = server.address();
  if (address === null || typeof address === "string") throw new Error("MLLP peer has no port");
  peer.port = address.port;
  return peer;
}
