import { randomBytes } from "node:crypto";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
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
  /** Absolute session lifetime, whatever the activity (issue 3: 12 hours). */
  absoluteTimeoutSeconds: number;
  smtpUrl: string | undefined;
  mailFrom: string;
  publicUrl: string;
  webDist: string;
  logLevel: "fatal" | "error" | "warn" | "info" | "debug" | "trace" | "silent";
  /** Seed the demo tenants and users when the database has no tenant yet. */
  seedOnStart: boolean;
  /** API requests per minute per signed-in user (per address before sign-in). */
  rateLimitPerMinute: number;
  /** Behind a TLS-terminating proxy: trust its X-Forwarded-Proto and X-Forwarded-For. */
  trustProxy: boolean;
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
  SMTP_URL: z.preprocess(blankToUndefined, z.string().url().optional()),
  MAIL_FROM: z.string().min(3).default("Core Care <no-reply@corecare.localhost>"),
  PUBLIC_URL: z.preprocess(blankToUndefined, z.string().url().optional()),
  WEB_DIST: z.preprocess(blankToUndefined, z.string().optional()),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  SEED_ON_START: z.enum(["true", "false"]).default("true"),
  RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).default(1200),
  TRUST_PROXY: z.enum(["true", "false"]).default("false"),
});

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

/** Parses the environment into a typed config; throws naming the variable when one is malformed. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = EnvSchema.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ");
    throw new Error(`Invalid environment: ${problems}`);
  }
  const e = parsed.data;
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
    absoluteTimeoutSeconds: 12 * 60 * 60,
    smtpUrl: e.SMTP_URL,
    mailFrom: e.MAIL_FROM,
    publicUrl: (e.PUBLIC_URL ?? `http://${e.HOST}:${e.PORT}`).replace(/\/+$/, ""),
    webDist: resolve(packageRoot, e.WEB_DIST ?? "../web/dist"),
    logLevel: e.LOG_LEVEL,
    seedOnStart: e.SEED_ON_START === "true",
    rateLimitPerMinute: e.RATE_LIMIT_PER_MINUTE,
    trustProxy: e.TRUST_PROXY === "true",
  };
}
