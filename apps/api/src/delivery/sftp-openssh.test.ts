import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startOpenSshPeer, type OpenSshPeer } from "../../test/peers/openssh.js";
import { dropFile, sftpFileName } from "./sftp.js";

let peer: OpenSshPeer;
beforeAll(async () => {
  peer = await startOpenSshPeer();
});
afterAll(async () => {
  await peer?.close();
});

describe("dropFile against OpenSSH", () => {
  test("lands the whole file under its final name with key authentication", async () => {
    const name = sftpFileName("tenant-openssh", `r${process.pid}${Date.now()}`, new Date(), "xml", "C1");
    const content = `<?xml version="1.0"?><ClinicalDocument>${"x".repeat(100_000)}</ClinicalDocument>`;
    const target = {
      host: peer.host,
      port: peer.port,
      username: peer.username,
      secret: peer.privateKey,
      path: peer.remoteDir,
    };
    const result = await dropFile(target, name, content);
    expect(result.alreadyPresent).toBe(false);
    expect(readFileSync(join(peer.localDir, name), "utf8")).toBe(content);
    expect(readdirSync(peer.localDir).filter((f) => f.endsWith(".part"))).toEqual([]);
    await expect(dropFile(target, name, content)).resolves.toMatchObject({ alreadyPresent: true });
    // Another file under that name is never taken for this one.
    await expect(dropFile(target, name, "again")).rejects.toThrow(/holds 100058 bytes where 5 were sent/);
    expect(readFileSync(join(peer.localDir, name), "utf8")).toBe(content);
  }, 30_000);
});
