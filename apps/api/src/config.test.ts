import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { DEFAULT_DEMO_PASSWORD, loadConfig } from "./config.js";

describe("loadConfig", () => {
  test("applies the documented defaults and keeps a generated session secret in DATA_DIR", () => {
    const dataDir = mkdtempSync(join(tmpdir(), "core-care-config-"));
    try {
      const config = loadConfig({ DATA_DIR: dataDir });
      expect(config).toMatchObject({
        port: 3000,
        host: "127.0.0.1",
        dataDir,
        databaseUrl: undefined,
        nodeEnv: "development",
        demoPassword: DEFAULT_DEMO_PASSWORD,
        idleTimeoutSeconds: 1440,
        absoluteTimeoutSeconds: 43_200,
        publicUrl: "http://127.0.0.1:3000",
      });
      expect(config.webDist.endsWith(join("apps", "web", "dist"))).toBe(true);
      const kept = readFileSync(join(dataDir, "session-secret"), "utf8");
      expect(kept).toBe(config.sessionSecret);
      expect(statSync(join(dataDir, "session-secret")).mode & 0o077).toBe(0);
      expect(loadConfig({ DATA_DIR: dataDir }).sessionSecret).toBe(kept);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  test("reads the variables it knows", () => {
    const config = loadConfig({
      PORT: "8080",
      HOST: "0.0.0.0",
      DATABASE_URL: "postgres://u@db:5432/core",
      NODE_ENV: "production",
      SESSION_SECRET: "s".repeat(40),
      TRUST_PROXY: "true",
      IDLE_TIMEOUT_SECONDS: "60",
      PUBLIC_URL: "https://portal.example.test/",
    });
    expect(config).toMatchObject({
      port: 8080,
      host: "0.0.0.0",
      databaseUrl: "postgres://u@db:5432/core",
      nodeEnv: "production",
      trustProxy: true,
      idleTimeoutSeconds: 60,
      publicUrl: "https://portal.example.test",
    });
  });

  test("in production, needs a session secret, seeds no demo data, runs no demo receiver and refuses a demo password", () => {
    const dataDir = mkdtempSync(join(tmpdir(), "core-care-config-"));
    try {
      expect(() => loadConfig({ NODE_ENV: "production", DATA_DIR: dataDir, TRUST_PROXY: "true" })).toThrow(
        /SESSION_SECRET/,
      );
      const secret = "s".repeat(40);
      expect(() =>
        loadConfig({
          NODE_ENV: "production",
          SESSION_SECRET: secret,
          TRUST_PROXY: "true",
          DEMO_PASSWORD: DEFAULT_DEMO_PASSWORD,
        }),
      ).toThrow(/DEMO_PASSWORD/);
      const config = loadConfig({
        NODE_ENV: "production",
        SESSION_SECRET: secret,
        TRUST_PROXY: "true",
        SEED_ON_START: "true",
        DEMO_RECEIVER: "true",
      });
      expect(config.seedOnStart).toBe(false);
      expect(config.demoReceiver).toBe(false);
      expect(config.sessionSecret).toBe(secret);
      expect(loadConfig({ DATA_DIR: dataDir })).toMatchObject({ seedOnStart: true, demoReceiver: true });
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  test("in production, refuses to start without TRUST_PROXY, saying why", () => {
    // Behind no TLS proxy every request is plain HTTP, and no browser would be given the Secure cookie.
    for (const trust of [undefined, "false"]) {
      expect(() =>
        loadConfig({
          NODE_ENV: "production",
          SESSION_SECRET: "s".repeat(40),
          ...(trust === undefined ? {} : { TRUST_PROXY: trust }),
        }),
      ).toThrow(
        "Invalid environment: TRUST_PROXY=true is required in production: the server speaks plain HTTP and " +
          "gives its Secure session cookie only to requests its TLS proxy marks HTTPS (X-Forwarded-Proto)",
      );
    }
    // Development and tests run on plain-HTTP loopback and need no proxy.
    for (const nodeEnv of ["development", "test"]) {
      expect(loadConfig({ NODE_ENV: nodeEnv, SESSION_SECRET: "s".repeat(40) }).trustProxy).toBe(false);
    }
  });

  test("names the variable that is malformed", () => {
    expect(() => loadConfig({ PORT: "eighty", SESSION_SECRET: "s".repeat(40) })).toThrow(/PORT/);
    expect(() => loadConfig({ SESSION_SECRET: "short" })).toThrow(/SESSION_SECRET/);
  });

  test("turns the inbound HL7 listener on with INBOUND_HL7_PORT, on 127.0.0.1 with its limits", () => {
    const secret = "x".repeat(32);
    expect(loadConfig({ SESSION_SECRET: secret }).inboundHl7).toBeUndefined();
    expect(loadConfig({ SESSION_SECRET: secret, INBOUND_HL7_PORT: "2575" }).inboundHl7).toEqual({
      port: 2575,
      host: "127.0.0.1",
      maxMessageBytes: 1024 * 1024,
      maxConnections: 50,
      idleTimeoutSeconds: 300,
    });
    expect(
      loadConfig({
        SESSION_SECRET: secret,
        INBOUND_HL7_PORT: "0",
        INBOUND_HL7_HOST: "0.0.0.0",
        INBOUND_HL7_MAX_BYTES: "65536",
        INBOUND_HL7_CONNECTIONS: "5",
        INBOUND_HL7_IDLE_SECONDS: "10",
      }).inboundHl7,
    ).toEqual({
      port: 0,
      host: "0.0.0.0",
      maxMessageBytes: 65536,
      maxConnections: 5,
      idleTimeoutSeconds: 10,
    });
    expect(() => loadConfig({ SESSION_SECRET: secret, INBOUND_HL7_PORT: "70000" })).toThrow(
      /INBOUND_HL7_PORT/,
    );
    expect(() =>
      loadConfig({ SESSION_SECRET: secret, INBOUND_HL7_PORT: "2575", INBOUND_HL7_MAX_BYTES: "10" }),
    ).toThrow(/INBOUND_HL7_MAX_BYTES/);
  });
});
