import { readFileSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startOpenSshPeer, type OpenSshPeer } from "../../test/peers/openssh.js";
import { transportOutcome } from "./outcomes.js";
import { checkSftp, dropFile, HostKeyError, sftpFileName, SftpFolderError } from "./sftp.js";

let peer: OpenSshPeer;
beforeAll(async () => {
  peer = await startOpenSshPeer();
});
afterAll(async () => {
  await peer?.close();
});

describe("dropFile against OpenSSH", () => {
  const unpinned = () => ({
    host: peer.host,
    port: peer.port,
    username: peer.username,
    secret: peer.privateKey,
    path: peer.remoteDir,
  });

  test("lands the whole file, 0600, under its final name with key authentication and the confirmed host key", async () => {
    // First connect: the check shows sshd's key; the admin confirms it as the interface's hostKeySha256.
    const shown = await checkSftp(unpinned());
    expect(shown.matches).toBeNull();
    expect(shown.hostKeySha256).toMatch(/^SHA256:[A-Za-z0-9+/]{43}$/);
    const target = { ...unpinned(), hostKeySha256: shown.hostKeySha256 };
    await expect(checkSftp(target)).resolves.toMatchObject({ matches: true, connected: true });
    const name = sftpFileName("tenant-openssh", `r${process.pid}${Date.now()}`, new Date(), "xml", "C1");
    const content = `<?xml version="1.0"?><ClinicalDocument>${"x".repeat(100_000)}</ClinicalDocument>`;
    const result = await dropFile(target, name, content);
    expect(result.alreadyPresent).toBe(false);
    expect(readFileSync(join(peer.localDir, name), "utf8")).toBe(content);
    expect(statSync(join(peer.localDir, name)).mode & 0o777).toBe(0o600);
    expect(readdirSync(peer.localDir).filter((f) => f.endsWith(".part"))).toEqual([]);
    await expect(dropFile(target, name, content)).resolves.toMatchObject({ alreadyPresent: true });
    // Another file under that name is never taken for this one.
    await expect(dropFile(target, name, "again")).rejects.toThrow(/holds 100058 bytes where 5 were sent/);
    expect(readFileSync(join(peer.localDir, name), "utf8")).toBe(content);
  }, 30_000);

  test("refuses sshd when the confirmed key is another one, and writes nothing", async () => {
    const name = sftpFileName("tenant-openssh", `k${process.pid}${Date.now()}`, new Date(), "xml", "C2");
    const target = { ...unpinned(), hostKeySha256: `SHA256:${"B".repeat(43)}` };
    await expect(dropFile(target, name, "PHI")).rejects.toBeInstanceOf(HostKeyError);
    expect(readdirSync(peer.localDir).filter((f) => f.includes(name))).toEqual([]);
  }, 30_000);

  /** What the worker records for an attempt that ended with `error`. */
  const outcomeOf = (error: unknown, port: number) =>
    transportOutcome(error, { host: peer.host, port, everDelivered: true });

  test("fails, not retries, a delivery to a folder that does not exist, saying which and what to do", async () => {
    const pinned = { ...unpinned(), path: `${peer.remoteDir}/no-such-folder-${process.pid}` };
    const target = { ...pinned, hostKeySha256: (await checkSftp(pinned)).hostKeySha256 };
    const name = sftpFileName("tenant-openssh", `m${process.pid}${Date.now()}`, new Date(), "hl7", "C3");
    const error = await dropFile(target, name, "MSH|").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SftpFolderError);
    expect(outcomeOf(error, peer.port)).toEqual({
      kind: "failed",
      error: `The folder "${target.path}" does not exist on the SFTP server at ${peer.host}:${peer.port}. Create it there, or correct the interface's folder, then resend.`,
    });
  }, 30_000);

  test("fails, not retries, a delivery to a folder the account may not write, and writes nothing", async () => {
    const readOnly = await startOpenSshPeer(process.env, { readOnly: true });
    try {
      const given = {
        host: readOnly.host,
        port: readOnly.port,
        username: readOnly.username,
        secret: readOnly.privateKey,
        path: readOnly.remoteDir,
      };
      const target = { ...given, hostKeySha256: (await checkSftp(given)).hostKeySha256 };
      await expect(checkSftp(target)).resolves.toMatchObject({ connected: true });
      const name = sftpFileName("tenant-openssh", `p${process.pid}${Date.now()}`, new Date(), "hl7", "C4");
      const error = await dropFile(target, name, "MSH|").catch((e: unknown) => e);
      expect(error).toBeInstanceOf(SftpFolderError);
      expect(outcomeOf(error, readOnly.port)).toEqual({
        kind: "failed",
        error: `The account "${readOnly.username}" may not write to the folder "${readOnly.remoteDir}" on the SFTP server at ${readOnly.host}:${readOnly.port}. Give it write permission, or correct the interface's folder, then resend.`,
      });
      expect(readdirSync(readOnly.localDir)).toEqual([]);
    } finally {
      await readOnly.close();
    }
  }, 30_000);
});
