import { Socket } from "node:net";
import { connect, type ConnectionOptions } from "node:tls";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { Patient } from "@core-care/schema";
import { loadConfig, type InboundHl7Config } from "../config.js";
import { frameMllp, MLLP_END } from "../delivery/mllp.js";
import { createTestApp, login, type Session, type TestApp } from "../../test/helpers.js";
import { makeThrowawayPki, type ThrowawayPki } from "../../test/peers/throwaway-certs.js";

/** Connects (TLS unless `plain`), sends one framed message, and answers the ACK or how it ended. */
function exchange(
  port: number,
  message: string,
  options: ConnectionOptions | "plain",
): Promise<{ ack?: string; closed?: string }> {
  return new Promise((resolve) => {
    let buffer = Buffer.alloc(0);
    let error = "";
    const socket =
      options === "plain"
        ? new Socket().connect(port, "127.0.0.1", () => socket.write(frameMllp(message)))
        : connect({ host: "127.0.0.1", port, ...options }, () => socket.write(frameMllp(message)));
    socket.on("data", (chunk: Buffer) => {
      buffer = Buffer.concat([buffer, chunk]);
      const end = buffer.indexOf(MLLP_END);
      if (end !== -1) {
        socket.destroy();
        resolve({ ack: buffer.subarray(1, end).toString("utf8") });
      }
    });
    socket.on("error", (e: Error & { code?: string }) => (error = e.code ?? e.message));
    socket.on("close", () => resolve({ closed: error || "closed" }));
  });
}

const FACILITY = `TLSFAC${Date.now().toString(36)}`.toUpperCase();
let seq = 0;
const a04 = (mrn: string) =>
  [
    `MSH|^~\\&|ENGINE|HOSPITAL|CORECARE|${FACILITY}|20261127010000||ADT^A04^ADT_A01|T${Date.now()}${(seq += 1)}|P|2.5.1`,
    `PID|1||${mrn}^^^H^MR||Secure^Sam||19700101|M`,
  ].join("\r");

/** The inbound settings as the server reads them from its environment. */
function inboundFromEnv(env: Record<string, string>): InboundHl7Config {
  const config = loadConfig({ SESSION_SECRET: "s".repeat(40), INBOUND_HL7_PORT: "0", ...env }).inboundHl7;
  if (config === undefined) throw new Error("inbound listener off");
  return { ...config, port: 0, host: "127.0.0.1" };
}

describe("inbound HL7: MLLP over TLS", () => {
  let pki: ThrowawayPki;
  let t: TestApp;
  let mutual: TestApp;
  let admin: Session;

  beforeAll(async () => {
    pki = makeThrowawayPki();
    t = await createTestApp({
      config: {
        inboundHl7: inboundFromEnv({
          INBOUND_HL7_TLS_CERT: pki.server.certFile,
          INBOUND_HL7_TLS_KEY: pki.server.keyFile,
          INBOUND_HL7_IDLE_SECONDS: "3",
        }),
      },
    });
    mutual = await createTestApp({
      database: t.database,
      config: {
        inboundHl7: inboundFromEnv({
          INBOUND_HL7_TLS_CERT: pki.server.certFile,
          INBOUND_HL7_TLS_KEY: pki.server.keyFile,
          INBOUND_HL7_TLS_CA: pki.ca.certFile,
        }),
      },
    });
    const tenant = await t.createTestTenant({ role: "admin" });
    admin = await login(t.app, tenant.email);
    for (const [url, payload] of [
      ["/api/inbound-facilities", { facilities: [{ facility: FACILITY }] }],
      [
        "/api/inbound-senders",
        { senders: [{ application: "ENGINE", facility: "HOSPITAL", addresses: ["127.0.0.1"] }] },
      ],
    ] as const) {
      expect((await admin.inject({ method: "PUT", url, payload })).statusCode).toBe(200);
    }
  });
  afterAll(async () => {
    await mutual?.close();
    await t?.close();
    pki?.remove();
  });

  const patients = async (mrn: string) =>
    (await admin.inject({ method: "GET", url: `/api/patients?q=${mrn}` }))
      .json<{ items: Patient[] }>()
      .items.filter((p) => p.mrn === mrn);

  test("a TLS client that checks the listener's certificate sends an A04 and reads its AA", async () => {
    const port = t.app.inboundListener!.port()!;
    const mrn = `TLS-${Date.now()}`;
    const answer = await exchange(port, a04(mrn), { ca: pki.ca.cert });
    expect(answer.ack).toMatch(/\rMSA\|AA\|T\d+/);
    expect(await patients(mrn)).toHaveLength(1);
  });

  test("a client that does not trust the certificate, and one speaking plain TCP, get nothing", async () => {
    const port = t.app.inboundListener!.port()!;
    const untrusting = await exchange(port, a04(`TLS-U${Date.now()}`), { ca: pki.strangerCa.cert });
    expect(untrusting.ack).toBeUndefined();
    expect(untrusting.closed).toMatch(/SELF_SIGNED|UNABLE_TO_VERIFY|CERT/);
    const plain = await exchange(port, a04(`TLS-P${Date.now()}`), "plain");
    expect(plain).toEqual({ closed: "closed" });
  });

  test("a connection that never begins its handshake is closed (after the idle time, at most 30 s)", async () => {
    const socket = new Socket();
    const closed = new Promise<void>((resolve) => socket.once("close", () => resolve()));
    socket.on("error", () => undefined);
    socket.connect(t.app.inboundListener!.port()!, "127.0.0.1");
    await closed;
  });

  test("with a CA configured, only a client certificate it signed is answered", async () => {
    const port = mutual.app.inboundListener!.port()!;
    const mrn = `TLS-M${Date.now()}`;
    const withCert = await exchange(port, a04(mrn), {
      ca: pki.ca.cert,
      cert: pki.client.cert,
      key: pki.client.key,
    });
    expect(withCert.ack).toMatch(/\rMSA\|AA\|/);
    expect(await patients(mrn)).toHaveLength(1);

    const refusedMrn = `TLS-R${Date.now()}`;
    const without = await exchange(port, a04(refusedMrn), { ca: pki.ca.cert });
    expect(without.ack).toBeUndefined();
    const stranger = await exchange(port, a04(refusedMrn), {
      ca: pki.ca.cert,
      cert: pki.strangerClient.cert,
      key: pki.strangerClient.key,
    });
    expect(stranger.ack).toBeUndefined();
    expect(await patients(refusedMrn)).toEqual([]);
  });

  test("the TLS settings are read from files named by INBOUND_HL7_TLS_*, and a wrong one stops the start", () => {
    const env = { SESSION_SECRET: "s".repeat(40), INBOUND_HL7_PORT: "2575" };
    const tls = loadConfig({
      ...env,
      INBOUND_HL7_TLS_CERT: pki.server.certFile,
      INBOUND_HL7_TLS_KEY: pki.server.keyFile,
      INBOUND_HL7_TLS_CA: pki.ca.certFile,
    }).inboundHl7?.tls;
    expect(tls).toEqual({ cert: pki.server.cert, key: pki.server.key, ca: pki.ca.cert });
    expect(loadConfig(env).inboundHl7?.tls).toBeUndefined();
    expect(() => loadConfig({ ...env, INBOUND_HL7_TLS_CERT: pki.server.certFile })).toThrow(
      /INBOUND_HL7_TLS_KEY/,
    );
    expect(() => loadConfig({ ...env, INBOUND_HL7_TLS_CA: pki.ca.certFile })).toThrow(/INBOUND_HL7_TLS_CA/);
    expect(() =>
      loadConfig({
        ...env,
        INBOUND_HL7_TLS_CERT: `${pki.dir}/missing.crt`,
        INBOUND_HL7_TLS_KEY: pki.server.keyFile,
      }),
    ).toThrow(/INBOUND_HL7_TLS_CERT: the file cannot be read/);
    // The client's key is not the server certificate's.
    expect(() =>
      loadConfig({
        ...env,
        INBOUND_HL7_TLS_CERT: pki.server.certFile,
        INBOUND_HL7_TLS_KEY: pki.client.keyFile,
      }),
    ).toThrow(/INBOUND_HL7_TLS_CERT\/_KEY\/_CA/);
  });
});
