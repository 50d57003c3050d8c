import { createServer, type AddressInfo, type Socket } from "node:net";
import { frameMllp, MLLP_END, MLLP_START } from "./mllp.js";

/**
 * A stand-in for a practice's EHR on this machine, for the demo data only: an MLLP listener on
 * 127.0.0.1 that answers every HL7 v2 message with an AA acknowledgment (original mode, HL7 v2.5.1
 * 2.9.2), so that "Send" of the demo works without an EHR. It keeps nothing it receives.
 */
export interface DemoReceiver {
  port: number;
  /** Messages acknowledged since it started. */
  acknowledged(): number;
  close(): Promise<void>;
}

/** The ACK of a message: MSH with sender and receiver swapped, MSA-1 `AA` and MSA-2 its control id. */
export function demoAck(message: string): string {
  const msh = message.split(/\r\n|\r|\n/).find((segment) => segment.startsWith("MSH")) ?? "MSH|^~\\&";
  const separator = msh[3] ?? "|";
  // MSH-1 is the separator itself, so MSH-n is the n-th field after splitting.
  const field = (n: number) => msh.split(separator)[n - 1] ?? "";
  const stamp = new Date().toISOString().replace(/[-:T]/g, "").slice(0, 14);
  const controlId = field(10);
  return [
    [
      "MSH",
      field(2),
      field(5),
      field(6),
      field(3),
      field(4),
      stamp,
      "",
      "ACK",
      `ACK-${controlId}`,
      "P",
      field(12) || "2.5.1",
    ].join(separator),
    ["MSA", "AA", controlId].join(separator),
  ].join("\r");
}

/** Starts the demo receiver on 127.0.0.1 and the given port (0: any free one). */
export async function startDemoReceiver(port = 0): Promise<DemoReceiver> {
  const sockets = new Set<Socket>();
  let count = 0;
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.setNoDelay(true);
    socket.on("close", () => sockets.delete(socket));
    socket.on("error", () => socket.destroy());
    let buffer = Buffer.alloc(0);
    socket.on("data", (chunk: Buffer) => {
      buffer = Buffer.concat([buffer, chunk]);
      let end: number;
      while ((end = buffer.indexOf(MLLP_END)) !== -1) {
        const start = buffer.indexOf(MLLP_START);
        const text = buffer.subarray(start === -1 ? 0 : start + 1, end).toString("utf8");
        buffer = buffer.subarray(end + MLLP_END.length);
        count += 1;
        socket.write(frameMllp(demoAck(text)));
      }
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () => resolve());
  });
  return {
    port: (server.address() as AddressInfo).port,
    acknowledged: () => count,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
