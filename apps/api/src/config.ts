import { randomBytes } from "node:crypto";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { createSecureContext } from "node:tls";
import { fileURLToPath } from "node:url";
import { z } from "zod";

/** The password every seeded demo user gets unless DEMO_PASSWORD says otherwise (documented in README). */
export const DEFAULT_DEMO_PASSWORD = "core-care-demo-password";

const packageRoot = resolve(dirname(fileURLToPath(import.meta.url)), "..");

/** Everything the server reads from its environment, parsed once at boot. */
export interface Config {
  port: number;
  host: string;
  dataDir: string;
  /** PostgreSQL server URL; absent means the embedded PGlite database under `dataDir`. */
  databaseUrl: string | undefined;
  nodeEnv: "development" | "test" | "production";
  sessionSecret: string;
  demoPassword: string;
  idleTimeoutSeconds: number;
  /** How long a Tele-AWV invitation link stays valid. */
  teleAwvLinkTtlSeconds: number;
  /** Absolute session lifetime, whatever the activity (issue 3: 12 hours). */
  absoluteTimeoutSeconds: number;
  smtpUrl: string | undefined;
  mailFrom: string;
  publicUrl: string;
  webDist: string;
  logLevel: "fatal" | "error" | "warn" | "info" | "debug" | "trace" | "silent";
  /** Seed the demo tenants and users when the database has no tenant yet. */
  seedOnStart: boolean;
  /**
   * Run the demo's local HL7 receiver (an MLLP listener on 127.0.0.1 answering AA) and point the demo
   * practice's interface at it; never in production.
   */
  demoReceiver: boolean;
  /** API requests per minute per signed-in user (per address before sign-in). */
  rateLimitPerMinute: number;
  /** Behind a TLS-terminating proxy: trust its X-Forwarded-Proto and X-Forwarded-For. */
  trustProxy: boolean;
  /** Server processes `pnpm start` runs on one port (a PostgreSQL server is needed for more than one). */
  workers: number;
  /** The bearer token a Prometheus scraper presents to read `/metrics`; unset, only sysAdmins may. */
  metricsToken: string | undefined;
  /** How long a SIGTERM waits for in-flight requests and deliveries before the process exits anyway. */
  shutdownTimeoutSeconds: number;
  /** A failed delivery holding its interface's queue longer than this many minutes is a stalled queue. */
  deliveryStallMinutes: number;
  /** How many list reads (pages and searches) one practice may run at once, of the list reads' connections. */
  listTenantConcurrency: number;
  /** How long a practice's list read waits for one of its slots before answering 503 with Retry-After. */
  listTenantWaitMs: number;
  /** The inbound HL7 listener (ADT from the practices' EHRs over MLLP); absent when it is off. */
  inboundHl7: InboundHl7Config | undefined;
}

/** Where the inbound MLLP listener listens and how much it takes (src/inbound/README.md). */
export interface InboundHl7Config {
  port: number;
  host: string;
  /** The largest message taken; a longer one closes its connection unread. */
  maxMessageBytes: number;
  /** Connections open at once; more are closed on arrival. */
  maxConnections: number;
  /** A connection that sends nothing for this long is closed. */
  idleTimeoutSeconds: number;
  /** MLLP over TLS: absent, the listener takes plain TCP. */
  tls?: InboundTlsConfig | undefined;
}

/** The inbound listener's TLS: its certificate and key, and the CAs a client's certificate must chain to. */
export interface InboundTlsConfig {
  /** PEM certificate (chain) the listener presents. */
  cert: string;
  /** PEM private key of that certificate. */
  key: string;
  /** PEM CA certificates: when set, a client must present a certificate they signed, or is refused. */
  ca?: string | undefined;
}

const blankToUndefined = (v: unknown) => (v === "" ? undefined : v);

const EnvSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).default("127.0.0.1"),
  DATA_DIR: z.string().min(1).default("./data"),
  DATABASE_URL: z.preprocess(blankToUndefined, z.string().url().optional()),
  NODE_ENV: z.enum(["development", "test", "production"]).default("development"),
  SESSION_SECRET: z.preprocess(blankToUndefined, z.string().min(32).optional()),
  DEMO_PASSWORD: z.preprocess(blankToUndefined, z.string().min(15).default(DEFAULT_DEMO_PASSWORD)),
  IDLE_TIMEOUT_SECONDS: z.coerce.number().int().min(1).default(1440),
  TELE_AWV_LINK_TTL_SECONDS: z.coerce
    .number()
    .int()
    .min(1)
    .default(14 * 24 * 60 * 60),
  SMTP_URL: z.preprocess(blankToUndefined, z.string().url().optional()),
  MAIL_FROM: z.string().min(3).default("Core Care <no-reply@corecare.localhost>"),
  PUBLIC_URL: z.preprocess(blankToUndefined, z.string().url().optional()),
  WEB_DIST: z.preprocess(blankToUndefined, z.string().optional()),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  SEED_ON_START: z.enum(["true", "false"]).default("true"),
  DEMO_RECEIVER: z.enum(["true", "false"]).default("true"),
  RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).default(1200),
  TRUST_PROXY: z.enum(["true", "false"]).default("false"),
  WORKERS: z.coerce.number().int().min(1).max(64).default(1),
  METRICS_TOKEN: z.preprocess(blankToUndefined, z.string().min(32).optional()),
  SHUTDOWN_TIMEOUT_SECONDS: z.coerce.number().int().min(1).default(30),
  DELIVERY_STALL_MINUTES: z.coerce.number().int().min(1).max(10_080).default(15),
  LIST_TENANT_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(2),
  LIST_TENANT_WAIT_MS: z.coerce.number().int().min(0).max(60_000).default(1000),
  INBOUND_HL7_PORT: z.preprocess(blankToUndefined, z.coerce.number().int().min(0).max(65535).optional()),
  INBOUND_HL7_HOST: z.string().min(1).default("127.0.0.1"),
  INBOUND_HL7_MAX_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .max(64 * 1024 * 1024)
    .default(1024 * 1024),
  INBOUND_HL7_CONNECTIONS: z.coerce.number().int().min(1).max(10_000).default(50),
  INBOUND_HL7_IDLE_SECONDS: z.coerce.number().int().min(1).default(300),
  INBOUND_HL7_TLS_CERT: z.preprocess(blankToUndefined, z.string().optional()),
  INBOUND_HL7_TLS_KEY: z.preprocess(blankToUndefined, z.string().optional()),
  INBOUND_HL7_TLS_CA: z.preprocess(blankToUndefined, z.string().optional()),
});

/** A PEM file named by a variable; throws naming the variable when it cannot be read. */
function pemFile(variable: string, file: string): string {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    throw new Error(`Invalid environment: ${variable}: the file cannot be read (${String(code)})`);
  }
  if (!text.includes("-----BEGIN ")) throw new Error(`Invalid environment: ${variable}: not a PEM file`);
  return text;
}

/**
 * The inbound listener's TLS from INBOUND_HL7_TLS_CERT, _KEY and _CA (file names), checked now: a
 * certificate without its key, a key that is not the certificate's, or a CA file without them stops
 * the start with the variable named.
 */
function inboundTls(e: { cert?: string; key?: string; ca?: string }): InboundTlsConfig | undefined {
  if (e.cert === undefined && e.key === undefined) {
    if (e.ca !== undefined)
      throw new Error("Invalid environment: INBOUND_HL7_TLS_CA needs INBOUND_HL7_TLS_CERT and _KEY");
    return undefined;
  }
  if (e.cert === undefined)
    throw new Error("Invalid environment: INBOUND_HL7_TLS_CERT is required with _KEY");
  if (e.key === undefined) throw new Error("Invalid environment: INBOUND_HL7_TLS_KEY is required with _CERT");
  const tls: InboundTlsConfig = {
    cert: pemFile("INBOUND_HL7_TLS_CERT", e.cert),
    key: pemFile("INBOUND_HL7_TLS_KEY", e.key),
    ca: e.ca === undefined ? undefined : pemFile("INBOUND_HL7_TLS_CA", e.ca),
  };
  try {
    createSecureContext({ cert: tls.cert, key: tls.key, ca: tls.ca });
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new Error(`Invalid environment: INBOUND_HL7_TLS_CERT/_KEY/_CA: ${reason}`);
  }
  return tls;
}

/** Reads the session secret from DATA_DIR, making and keeping one on first start. */
function persistentSessionSecret(dataDir: string): string {
  const file = join(dataDir, "session-secret");
  try {
    const existing = readFileSync(file, "utf8").trim();
    if (existing.length >= 32) return existing;
  } catch {
    // first start: no secret kept yet
  }
  mkdirSync(dataDir, { recursive: true });
  const secret = randomBytes(48).toString("base64url");
  writeFileSync(file, secret, { mode: 0o600 });
  return secret;
}

/**
 * True when the process runs in production (NODE_ENV), read at each call: the response serialiser
 * checks answers against their schemas everywhere else, and its tests switch the mode for a call.
 */
export function isProduction(env: NodeJS.ProcessEnv = process.env): boolean {
  return env.NODE_ENV === "production";
}

/** The first system administrator's password for `create-admin` (ADMIN_PASSWORD), or "" when unset. */
export function adminPassword(env: NodeJS.ProcessEnv = process.env): string {
  return env.ADMIN_PASSWORD ?? "";
}

/** Parses the environment into a typed config; throws naming the variable when one is malformed. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = EnvSchema.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ");
    throw new Error(`Invalid environment: ${problems}`);
  }
  const e = parsed.data;
  if (e.NODE_ENV === "production") {
    // A production server keeps no secret of its own making and holds no demo accounts.
    if (e.SESSION_SECRET === undefined) {
      throw new Error(
        "Invalid environment: SESSION_SECRET (32 characters or more) is required in production",
      );
    }
    // The server speaks plain HTTP, and a production session cookie is Secure (`__Host-sid`): a browser
    // is given it only over HTTPS, which the server learns from its TLS proxy's X-Forwarded-Proto. Without
    // TRUST_PROXY every sign-in would answer and leave the browser signed out.
    if (e.TRUST_PROXY !== "true") {
      throw new Error(
        "Invalid environment: TRUST_PROXY=true is required in production: the server speaks plain HTTP and " +
          "gives its Secure session cookie only to requests its TLS proxy marks HTTPS (X-Forwarded-Proto)",
      );
    }
    if (env.DEMO_PASSWORD !== undefined && env.DEMO_PASSWORD !== "") {
      throw new Error(
        "Invalid environment: DEMO_PASSWORD: demo accounts are not made in production; unset it",
      );
    }
  }
  if (e.WORKERS > 1 && e.DATABASE_URL === undefined) {
    // PGlite keeps its data folder in one process; several processes need a database server.
    throw new Error("Invalid environment: WORKERS above 1 needs DATABASE_URL (a PostgreSQL server)");
  }
  const dataDir = resolve(e.DATA_DIR);
  return {
    port: e.PORT,
    host: e.HOST,
    dataDir,
    databaseUrl: e.DATABASE_URL,
    nodeEnv: e.NODE_ENV,
    sessionSecret: e.SESSION_SECRET ?? persistentSessionSecret(dataDir),
    demoPassword: e.DEMO_PASSWORD,
    idleTimeoutSeconds: e.IDLE_TIMEOUT_SECONDS,
    teleAwvLinkTtlSeconds: e.TELE_AWV_LINK_TTL_SECONDS,
    absoluteTimeoutSeconds: 12 * 60 * 60,
    smtpUrl: e.SMTP_URL,
    mailFrom: e.MAIL_FROM,
    publicUrl: (e.PUBLIC_URL ?? `http://${e.HOST}:${e.PORT}`).replace(/\/+$/, ""),
    webDist: resolve(packageRoot, e.WEB_DIST ?? "../web/dist"),
    logLevel: e.LOG_LEVEL,
    // The demo practice and its users are made on a first start in development and test only.
    seedOnStart: e.NODE_ENV !== "production" && e.SEED_ON_START === "true",
    demoReceiver: e.NODE_ENV !== "production" && e.DEMO_RECEIVER === "true",
    rateLimitPerMinute: e.RATE_LIMIT_PER_MINUTE,
    trustProxy: e.TRUST_PROXY === "true",
    workers: e.WORKERS,
    metricsToken: e.METRICS_TOKEN,
    shutdownTimeoutSeconds: e.SHUTDOWN_TIMEOUT_SECONDS,
    deliveryStallMinutes: e.DELIVERY_STALL_MINUTES,
    listTenantConcurrency: e.LIST_TENANT_CONCURRENCY,
    listTenantWaitMs: e.LIST_TENANT_WAIT_MS,
    inboundHl7:
      e.INBOUND_HL7_PORT === undefined
        ? undefined
        : {
            port: e.INBOUND_HL7_PORT,
            host: e.INBOUND_HL7_HOST,
            maxMessageBytes: e.INBOUND_HL7_MAX_BYTES,
            maxConnections: e.INBOUND_HL7_CONNECTIONS,
            idleTimeoutSeconds: e.INBOUND_HL7_IDLE_SECONDS,
            tls: inboundTls({
              cert: e.INBOUND_HL7_TLS_CERT,
              key: e.INBOUND_HL7_TLS_KEY,
              ca: e.INBOUND_HL7_TLS_CA,
            }),
          },
  };
}
