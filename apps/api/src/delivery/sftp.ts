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

/**
 * Uploads `content` under a temporary dot-name, then renames it, so a reader polling the folder
 * never sees half a file. When the final name already exists (an earlier attempt finished the
 * rename but could not record it), nothing is written again. Either way the final file's size is
 * checked against the content before the drop counts as done.
 */
export async function dropFile(
  target: SftpTarget,
  fileName: string,
  content: string | Buffer,
  options: { timeoutMs: number } = { timeoutMs: 20_000 },
): Promise<{ path: string; alreadyPresent: boolean }> {
  const client = new SftpClient("core-care-delivery");
  const auth =
    target.secret === undefined
      ? {}
      : isPrivateKey(target.secret)
        ? { privateKey: target.secret }
        : { password: target.secret };
  await client.connect({
    host: target.host,
    port: target.port,
    username: target.username,
    readyTimeout: options.timeoutMs,
    timeout: options.timeoutMs,
    ...auth,
  });
  try {
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
    await client.put(bytes, partPath);
    await client.rename(partPath, finalPath);
    await checkSize();
    return { path: finalPath, alreadyPresent: false };
  } finally {
    await client.end().catch(() => undefined);
  }
}
