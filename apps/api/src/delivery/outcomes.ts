import { MllpError } from "./mllp.js";
import { HostKeyError, SftpFolderError } from "./sftp.js";

/**
 * How one attempt ended. `ack` is what the receiver answered; `error` is a plain-language reason for
 * the practice's staff and never holds message content (no PHI).
 */
export type Outcome =
  | { kind: "delivered"; ack: string }
  | { kind: "retry"; error: string; ack?: string }
  | { kind: "failed"; error: string; ack?: string };

/** Where an attempt went, as staff know the interface: `host:port`. */
export interface Endpoint {
  host: string;
  port: number;
  /** Whether anything was ever delivered to this interface (a refused connection then means an outage). */
  everDelivered: boolean;
}

const at = (e: Endpoint) => `${e.host}:${e.port}`;

/** The errno-style code of a transport error (Node's net, ssh2, undici), if it has one. */
function codeOf(error: unknown): string | undefined {
  const e = error as { code?: unknown; cause?: { code?: unknown } } | null;
  if (typeof e?.code === "string") return e.code;
  if (typeof e?.cause?.code === "string") return e.cause.code;
  return undefined;
}

/**
 * Turns a transport error into an outcome with a reason in plain words. Configuration errors fail
 * at once instead of being retried for an hour: a host name that does not exist, credentials or a
 * key the server refuses, a key that cannot be read, and a refused connection to an interface that
 * has never taken a delivery (a wrong port). A refused connection to an interface that has taken
 * deliveries before is a receiver that is down, and is retried.
 */
export function transportOutcome(error: unknown, endpoint: Endpoint): Outcome {
  const code = codeOf(error);
  const message = error instanceof Error ? error.message : String(error);
  const lower = message.toLowerCase();
  // An unconfirmed or changed SFTP host key: nothing was sent, and retrying cannot help until an admin
  // confirms the key (its message says how).
  if (error instanceof HostKeyError) return { kind: "failed", error: error.message };
  // A missing or read-only folder: an admin has to fix the server or the interface; retrying cannot help.
  if (error instanceof SftpFolderError) return { kind: "failed", error: error.message };
  if (code === "ENOTFOUND") {
    return {
      kind: "failed",
      error: `The host name "${endpoint.host}" could not be found. Check the interface's host.`,
    };
  }
  if (code === "EAI_AGAIN") {
    return { kind: "retry", error: `The host name "${endpoint.host}" could not be looked up just now.` };
  }
  if (code === "ECONNREFUSED") {
    return endpoint.everDelivered
      ? { kind: "retry", error: `The receiver at ${at(endpoint)} refused the connection.` }
      : {
          kind: "failed",
          error: `The receiver at ${at(endpoint)} refused the connection. Check the interface's host and port.`,
        };
  }
  if (lower.includes("authentication methods failed") || lower.includes("authentication failed")) {
    return {
      kind: "failed",
      error: `The server at ${at(endpoint)} refused the user name, password or key of this interface.`,
    };
  }
  if (lower.includes("cannot parse privatekey") || lower.includes("unsupported key format")) {
    return { kind: "failed", error: "The private key of this interface cannot be read." };
  }
  if (code === "EHOSTUNREACH" || code === "ENETUNREACH") {
    return { kind: "retry", error: `The receiver at ${at(endpoint)} cannot be reached from this server.` };
  }
  if (error instanceof MllpError) {
    switch (error.reason) {
      case "timeout":
        return { kind: "retry", error: `The receiver at ${at(endpoint)} did not answer (${error.message}).` };
      case "connection":
        return {
          kind: "retry",
          error: `The receiver at ${at(endpoint)} closed the connection before acknowledging the message.`,
        };
      case "protocol":
        return {
          kind: "retry",
          error: `The receiver at ${at(endpoint)} did not acknowledge this message (${error.message}).`,
        };
    }
  }
  if (code === "ECONNRESET" || code === "EPIPE") {
    return { kind: "retry", error: `The receiver at ${at(endpoint)} closed the connection.` };
  }
  if (lower.includes("timed out") || lower.includes("timeout") || code === "ETIMEDOUT") {
    return { kind: "retry", error: `The receiver at ${at(endpoint)} did not answer.` };
  }
  const first = message.split("\n")[0]!.slice(0, 200);
  return { kind: "retry", error: `The send to ${at(endpoint)} did not complete: ${first}` };
}
