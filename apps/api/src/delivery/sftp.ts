import { createHash } from "node:crypto";
import { posix } from "node:path";
import SftpClient from "ssh2-sftp-client";

/** Where and as whom to drop files; `secret` is a password or an OpenSSH/PEM private key. */
export interface SftpTarget {
  host: string;
  port: number;
  username: string;
  secret?: string;
  /** Remote folder; the login folder when absent. */
  path?: string;
  /**
   * The server's host key as the admin confirmed it, `SHA256:<base64>` as `ssh-keygen -l` prints it.
   * Nothing is sent (not even the credentials) to a server whose key differs, or when none is confirmed.
   */
  hostKeySha256?: string;
  /** Permissions of the files written; 0o600 (owner read and write) unless configured. */
  fileMode?: number;
}

/** Files hold PHI: only the receiving account may read them unless the interface says otherwise. */
export const DEFAULT_FILE_MODE = 0o600;

/** The SHA-256 fingerprint of an SSH public key blob, as OpenSSH prints it (`SHA256:` + unpadded base64). */
export function hostKeyFingerprint(key: Buffer): string {
  return `SHA256:${createHash("sha256").update(key).digest("base64").replace(/=+$/, "")}`;
}

/** A server whose host key is not the confirmed one, or when none is confirmed: a configuration error. */
/**
 * The interface's folder is missing or the account may not write to it: nothing a retry can mend, so the
 * delivery fails at once with what an admin has to fix.
 */
export class SftpFolderError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "SftpFolderError";
  }
}

/** SFTP status codes (draft-ietf-secsh-filexfer-02 §7) a write can end with that no retry mends. */
const SSH_FX_NO_SUCH_FILE = 2;
const SSH_FX_PERMISSION_DENIED = 3;

/** The folder error a failed write means, or the error itself when it is not one. */
function folderError(error: unknown, dir: string, target: { host: string; port: number; username: string }) {
  const e = error as { code?: unknown; message?: unknown } | null;
  const message = typeof e?.message === "string" ? e.message.toLowerCase() : "";
  const where = `on the SFTP server at ${target.host}:${target.port}`;
  if (e?.code === SSH_FX_NO_SUCH_FILE || e?.code === "ENOENT" || message.includes("no such file")) {
    return new SftpFolderError(
      `The folder "${dir}" does not exist ${where}. Create it there, or correct the interface's folder, then resend.`,
    );
  }
  if (e?.code === SSH_FX_PERMISSION_DENIED || e?.code === "EACCES" || message.includes("permission denied")) {
    return new SftpFolderError(
      `The account "${target.username}" may not write to the folder "${dir}" ${where}. Give it write permission, or correct the interface's folder, then resend.`,
    );
  }
  return error;
}

export class HostKeyError extends Error {
  constructor(
    message: string,
    readonly fingerprint: string | undefined,
  ) {
    super(message);
    this.name = "HostKeyError";
  }
}

const isPrivateKey = (secret: string) => /^-----BEGIN [A-Z ]*PRIVATE KEY-----/.test(secret.trim());

/**
 * The remote file name of a delivery: tenant, result, the delivery's creation time (so a reader can
 * sort drops by time) and its control id. The control id makes the name unique per delivery (two
 * sends of one result within the same second must not share a name, or the second would find the
 * first's file and be taken as delivered) and the same on every retry of it.
 */
export function sftpFileName(
  tenantId: string,
  resultId: string,
  createdAt: Date,
  extension: string,
  controlId: string,
): string {
  const stamp = createdAt
    .toISOString()
    .replace(/[-:]/g, "")
    .replace(/\.\d+Z$/, "Z");
  const safe = (s: string) => s.replace(/[^A-Za-z0-9_-]/g, "-");
  return `${safe(tenantId)}_${safe(resultId)}_${stamp}_${safe(controlId)}.${extension}`;
}

function authOf(target: SftpTarget) {
  if (target.secret === undefined) return {};
  return isPrivateKey(target.secret) ? { privateKey: target.secret } : { password: target.secret };
}

/**
 * Connects with the confirmed host key pinned: ssh2 calls the verifier with the server's key before
 * authenticating, so a mismatch ends the connection before any credential or file is sent.
 */
async function connectPinned(client: SftpClient, target: SftpTarget, timeoutMs: number) {
  const pinned = target.hostKeySha256;
  if (pinned === undefined || pinned === "") {
    throw new HostKeyError(
      `The host key of ${target.host}:${target.port} has not been confirmed. Check the connection in the interface's settings and confirm the server's fingerprint.`,
      undefined,
    );
  }
  let seen: string | undefined;
  try {
    await client.connect({
      host: target.host,
      port: target.port,
      username: target.username,
      readyTimeout: timeoutMs,
      timeout: timeoutMs,
      hostVerifier: (key: Buffer) => {
        seen = hostKeyFingerprint(key);
        return seen === pinned;
      },
      ...authOf(target),
    });
  } catch (error) {
    if (seen !== undefined && seen !== pinned) {
      throw new HostKeyError(
        `The server at ${target.host}:${target.port} presented host key ${seen}, not the confirmed ${pinned}. Nothing was sent. If the server's key was changed on purpose, check the connection and confirm the new fingerprint.`,
        seen,
      );
    }
    throw error;
  }
}

/**
 * Uploads `content` under a temporary dot-name created with the target's file mode (0600 unless
 * configured), then renames it, so a reader polling the folder never sees half a file. When the
 * final name already exists (an earlier attempt finished the rename but could not record it),
 * nothing is written again. Either way the final file's size is checked against the content before the
 * drop counts as done. Refuses a server whose host key is not the confirmed one.
 */
export async function dropFile(
  target: SftpTarget,
  fileName: string,
  content: string | Buffer,
  options: { timeoutMs: number } = { timeoutMs: 20_000 },
): Promise<{ path: string; alreadyPresent: boolean }> {
  const client = new SftpClient("core-care-delivery");
  try {
    await connectPinned(client, target, options.timeoutMs);
    // Nagle plus delayed ACK add tens of milliseconds to every SFTP round trip on a LAN.
    (client as unknown as { client?: { setNoDelay?: (on: boolean) => void } }).client?.setNoDelay?.(true);
    const dir = target.path && target.path !== "" ? target.path : ".";
    const finalPath = posix.join(dir, fileName);
    const bytes = Buffer.isBuffer(content) ? content : Buffer.from(content, "utf8");
    const checkSize = async () => {
      const { size } = await client.stat(finalPath);
      if (size !== bytes.length) {
        throw new Error(`the file ${finalPath} holds ${size} bytes where ${bytes.length} were sent`);
      }
    };
    if (await client.exists(finalPath)) {
      await checkSize();
      return { path: finalPath, alreadyPresent: true };
    }
    const partPath = posix.join(dir, `.${fileName}.part`);
    const mode = target.fileMode ?? DEFAULT_FILE_MODE;
    try {
      await client.put(bytes, partPath, { writeStreamOptions: { mode } });
      // The server applies its umask to the mode of a new file; set it exactly (never wider than asked).
      await client.chmod(partPath, mode);
      await client.rename(partPath, finalPath);
    } catch (error) {
      throw folderError(error, dir, target);
    }
    await checkSize();
    return { path: finalPath, alreadyPresent: false };
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** What a connection check found: the server's host key and, when it is the confirmed one, whether signing in works. */
export interface SftpCheck {
  hostKeySha256: string;
  /** True when the interface has a confirmed key and it is this one; false when it differs; null when none is confirmed. */
  matches: boolean | null;
  /** True when the key matched and the account signed in and read the folder. */
  connected: boolean;
  message: string;
}

/**
 * Connects to read the server's host key. Without a confirmed key, or with a different one, it stops
 * there: no credential goes to a server the admin has not confirmed. With the confirmed key it signs
 * in and reads the folder, to say whether deliveries can be written.
 */
export async function checkSftp(target: SftpTarget, timeoutMs = 10_000): Promise<SftpCheck> {
  const probe = new SftpClient("core-care-check");
  let seen: string | undefined;
  try {
    await probe.connect({
      host: target.host,
      port: target.port,
      username: target.username,
      readyTimeout: timeoutMs,
      timeout: timeoutMs,
      hostVerifier: (key: Buffer) => {
        seen = hostKeyFingerprint(key);
        return false;
      },
    });
  } catch (error) {
    if (seen === undefined) throw error;
  } finally {
    await probe.end().catch(() => undefined);
  }
  if (seen === undefined) throw new Error(`The server at ${target.host}:${target.port} sent no host key.`);
  const pinned = target.hostKeySha256;
  if (pinned === undefined || pinned === "") {
    return {
      hostKeySha256: seen,
      matches: null,
      connected: false,
      message: `The server presents host key ${seen}. Compare it with the fingerprint the receiver's administrator gives you, then confirm it.`,
    };
  }
  if (seen !== pinned) {
    return {
      hostKeySha256: seen,
      matches: false,
      connected: false,
      message: `The server presents host key ${seen}, not the confirmed ${pinned}. Deliveries are refused until the new key is confirmed.`,
    };
  }
  const client = new SftpClient("core-care-check");
  try {
    await connectPinned(client, target, timeoutMs);
    await client.list(target.path && target.path !== "" ? target.path : ".");
    return {
      hostKeySha256: seen,
      matches: true,
      connected: true,
      message: "Connected: the host key is the confirmed one and the folder can be read.",
    };
  } catch (error) {
    return {
      hostKeySha256: seen,
      matches: true,
      connected: false,
      message: `The host key is the confirmed one, but signing in or reading the folder failed: ${error instanceof Error ? error.message : String(error)}`,
    };
  } finally {
    await client.end().catch(() => undefined);
  }
}
