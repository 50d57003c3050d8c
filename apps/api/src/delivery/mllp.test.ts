import { afterEach, describe, expect, test } from "vitest";
import { startMllpPeer, type MllpPeer } from "../../test/peers/mllp-peer.js";
import { goldenCases } from "./golden.js";
import { buildOruR01 } from "./hl7-oru.js";
import { MllpConnection, MllpConnections, MllpError, parseAck } from "./mllp.js";

const input = goldenCases()[0]!.input;
const message = (controlId: string) => buildOruR01({ ...input, controlId });
const options = { connectTimeoutMs: 5_000, ackTimeoutMs: 5_000 };

let peer: MllpPeer | undefined;
let connection: MllpConnection | undefined;
afterEach(async () => {
  connection?.close();
  await peer?.close();
});

describe("MllpConnection", () => {
  test("delivers a framed ORU^R01 and reads AA when the receiver accepts", async () => {
    peer = await startMllpPeer("AA");
    connection = new MllpConnection({ host: "127.0.0.1", port: peer.port }, options);
    const ack = await connection.send(message("CTRL-1"), "CTRL-1");
    expect(ack).toMatchObject({ code: "AA", controlId: "CTRL-1" });
    expect(peer.received).toHaveLength(1);
    expect(peer.received[0]!.getSegment("MSH")?.getField(10).toString()).toBe("CTRL-1");
    expect(peer.received[0]!.getAllSegments("OBX").length).toBeGreaterThan(10);
  });

  test("reads AE and AR with the receiver's text", async () => {
    peer = await startMllpPeer("AE");
    connection = new MllpConnection({ host: "127.0.0.1", port: peer.port }, options);
    await expect(connection.send(message("CTRL-2"), "CTRL-2")).resolves.toMatchObject({
      code: "AE",
      text: "rejected by test peer",
    });
    peer.mode = "AR";
    await expect(connection.send(message("CTRL-3"), "CTRL-3")).resolves.toMatchObject({ code: "AR" });
  });

  test("times out when the receiver never answers, then reconnects for the next message", async () => {
    peer = await startMllpPeer("silent");
    connection = new MllpConnection(
      { host: "127.0.0.1", port: peer.port },
      { ...options, ackTimeoutMs: 400 },
    );
    const error = await connection.send(message("CTRL-4"), "CTRL-4").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MllpError);
    expect((error as MllpError).reason).toBe("timeout");
    peer.mode = "AA";
    await expect(connection.send(message("CTRL-5"), "CTRL-5")).resolves.toMatchObject({ code: "AA" });
    expect(peer.connections()).toBe(2);
  });

  test("fails with a connection error when the receiver drops the connection", async () => {
    peer = await startMllpPeer("drop");
    connection = new MllpConnection({ host: "127.0.0.1", port: peer.port }, options);
    const error = await connection.send(message("CTRL-6"), "CTRL-6").catch((e: unknown) => e);
    expect((error as MllpError).reason).toBe("connection");
  });

  test("fails with a connection error when nothing listens", async () => {
    peer = await startMllpPeer("AA");
    const port = peer.port;
    await peer.close();
    peer = undefined;
    connection = new MllpConnection({ host: "127.0.0.1", port }, options);
    const error = await connection.send(message("CTRL-7"), "CTRL-7").catch((e: unknown) => e);
    expect((error as MllpError).reason).toBe("connection");
  });

  test("sends messages one after another over one connection", async () => {
    peer = await startMllpPeer("AA");
    connection = new MllpConnection({ host: "127.0.0.1", port: peer.port }, options);
    const acks = await Promise.all(["A", "B", "C"].map((id) => connection!.send(message(id), id)));
    expect(acks.map((a) => a.controlId)).toEqual(["A", "B", "C"]);
    expect(peer.connections()).toBe(1);
  });
});

describe("MllpConnections", () => {
  test("keeps one connection per interface", async () => {
    peer = await startMllpPeer("AA");
    const pool = new MllpConnections(options);
    const endpoint = { host: "127.0.0.1", port: peer.port };
    expect(pool.get("if-1", endpoint)).toBe(pool.get("if-1", endpoint));
    expect(pool.get("if-1", endpoint)).not.toBe(pool.get("if-2", endpoint));
    await pool.get("if-1", endpoint).send(message("P-1"), "P-1");
    await pool.get("if-1", endpoint).send(message("P-2"), "P-2");
    expect(peer.connections()).toBe(1);
    pool.closeAll();
  });
});

describe("parseAck", () => {
  test("rejects an answer without MSA or with an unknown code", () => {
    expect(() => parseAck("MSH|^~\\&|A")).toThrow(MllpError);
    expect(() => parseAck("MSH|^~\\&|A\rMSA|ZZ|1")).toThrow(/table 0008/);
  });
});
