import { createServer, type Server, type Socket } from "node:net";

const START = 0x0b;
const END = Buffer.from([0x1c, 0x0d]);

/**
 * An EHR's HL7 v2 receiver over MLLP on 127.0.0.1: it acknowledges each framed message with `code` (AA
 * accepts; AR rejects, with `reason`), both changeable while it runs, and records each message's control id.
 */
export interface MllpReceiver {
  port: number;
  code: "AA" | "AR";
  reason: string;
  /** The control id (MSH-10) of every message received, in order. */
  controlIds: string[];
  close: () => Promise<void>;
}

export async function startMllpReceiver(
  options: { code?: "AA" | "AR"; reason?: string } = {},
): Promise<MllpReceiver> {
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
    socket.on("error", () => socket.destroy());
    let buffer = Buffer.alloc(0);
    socket.on("data", (chunk: Buffer) => {
      buffer = Buffer.concat([buffer, chunk]);
      let end: number;
      while ((end = buffer.indexOf(END)) !== -1) {
        const text = buffer.subarray(buffer.indexOf(START) + 1, end).toString("utf8");
        buffer = buffer.subarray(end + END.length);
        const msh = text.split(/\r\n|\r|\n/).find((segment) => segment.startsWith("MSH|")) ?? "";
        // MSH-1 is the field separator itself, so MSH-n is the n-1th piece.
        const controlId = msh.split("|")[9] ?? "";
        receiver.controlIds.push(controlId);
        const ack = [
          `MSH|^~\\&|EHR|DEMO|CORECARE|DEMO|20260101000000||ACK^R01^ACK|ACK-${controlId}|P|2.5.1`,
          `MSA|${receiver.code}|${controlId}${receiver.code === "AR" ? `|${receiver.reason}` : ""}`,
        ].join("\r");
        socket.write(Buffer.concat([Buffer.from([START]), Buffer.from(ack), END]));
      }
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", resolve);
  });
  const address = server.address();
  if (address === null || typeof address === "string") throw new Error("the MLLP receiver has no port");
  const receiver: MllpReceiver = {
    port: address.port,
    code: options.code ?? "AA",
    reason: options.reason ?? "unknown patient",
    controlIds: [],
    close: () =>
      new Promise((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
  return receiver;
}
