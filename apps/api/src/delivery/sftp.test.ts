import { afterEach, describe, expect, test } from "vitest";
import { startSftpPeer, type SftpPeer } from "../../test/peers/sftp-peer.js";
import { checkSftp, dropFile, HostKeyError, sftpFileName } from "./sftp.js";

let peer: SftpPeer | undefined;
afterEach(async () => {
  await peer?.close();
  peer = undefined;
});

describe("sftpFileName", () => {
  test("names the file from tenant, result, time and control id", () => {
    expect(
      sftpFileName(
        "tenant/a b",
        "6560a1b2c3d4e5f6000000aa",
        new Date("2026-11-21T09:30:00.123Z"),
        "hl7",
        "1ABC2DEF",
      ),
    ).toBe("tenant-a-b_6560a1b2c3d4e5f6000000aa_20261121T093000Z_1ABC2DEF.hl7");
  });

  test("gives two deliveries of one result in the same second different names", () => {
    const at = new Date("2026-11-21T09:30:00.100Z");
    const later = new Date("2026-11-21T09:30:00.900Z");
    expect(sftpFileName("t", "r", at, "hl7", "A1")).not.toBe(sftpFileName("t", "r", later, "hl7", "A2"));
  });
});

describe("dropFile", () => {
  test("writes under a temporary name and renames it into the folder", async () => {
    peer = await startSftpPeer();
    const target = {
      host: "127.0.0.1",
      port: peer.port,
      username: peer.username,
      secret: peer.password,
      path: "upload",
      hostKeySha256: peer.hostKeySha256,
    };
    const result = await dropFile(target, "t_r_20261121T093000Z.xml", "<ClinicalDocument/>", {
      timeoutMs: 5_000,
    });
    expect(result).toEqual({ path: "upload/t_r_20261121T093000Z.xml", alreadyPresent: false });
    expect(peer.files.get("/upload/t_r_20261121T093000Z.xml")?.toString()).toBe("<ClinicalDocument/>");
    expect([...peer.files.keys()]).toEqual(["/upload/t_r_20261121T093000Z.xml"]);
    // PHI: created readable by the receiving account only.
    expect(peer.modes.get("/upload/t_r_20261121T093000Z.xml")).toBe(0o600);
    expect(peer.operations).toEqual([
      "OPEN /upload/.t_r_20261121T093000Z.xml.part",
      "RENAME /upload/.t_r_20261121T093000Z.xml.part -> /upload/t_r_20261121T093000Z.xml",
    ]);
  }, 20_000);

  test("does not write again when the same file already arrived, and refuses another file of that name", async () => {
    peer = await startSftpPeer();
    const target = {
      host: "127.0.0.1",
      port: peer.port,
      username: peer.username,
      secret: peer.password,
      path: "/upload",
      hostKeySha256: peer.hostKeySha256,
    };
    await dropFile(target, "same.hl7", "first");
    const again = await dropFile(target, "same.hl7", "first");
    expect(again).toEqual({ path: "/upload/same.hl7", alreadyPresent: true });
    await expect(dropFile(target, "same.hl7", "second")).rejects.toThrow(/holds 5 bytes where 6 were sent/);
    expect(peer.files.get("/upload/same.hl7")?.toString()).toBe("first");
  }, 20_000);

  test("fails on a wrong password without writing anything", async () => {
    peer = await startSftpPeer();
    const target = {
      host: "127.0.0.1",
      port: peer.port,
      username: peer.username,
      secret: "wrong",
      hostKeySha256: peer.hostKeySha256,
    };
    await expect(dropFile(target, "x.hl7", "x", { timeoutMs: 5_000 })).rejects.toThrow(/auth/i);
    expect(peer.files.size).toBe(0);
  }, 20_000);
});

describe("host key pinning", () => {
  const targetOf = (p: SftpPeer, hostKeySha256?: string) => ({
    host: "127.0.0.1",
    port: p.port,
    username: p.username,
    secret: p.password,
    path: "/upload",
    ...(hostKeySha256 === undefined ? {} : { hostKeySha256 }),
  });

  test("refuses a server whose key is not the confirmed one, naming both keys, and writes nothing", async () => {
    peer = await startSftpPeer();
    const replaced = await startSftpPeer();
    try {
      // The server at the interface's address now presents another key (a replaced or spoofed host).
      const error = await dropFile(targetOf(replaced, peer.hostKeySha256), "x.hl7", "PHI", {
        timeoutMs: 5_000,
      }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(HostKeyError);
      expect((error as HostKeyError).message).toContain(replaced.hostKeySha256);
      expect((error as HostKeyError).message).toContain(peer.hostKeySha256);
      expect((error as HostKeyError).message).toMatch(/Nothing was sent/);
      expect(replaced.files.size).toBe(0);
      expect(replaced.operations).toEqual([]);
    } finally {
      await replaced.close();
    }
  }, 20_000);

  test("refuses to send while no host key is confirmed", async () => {
    peer = await startSftpPeer();
    await expect(dropFile(targetOf(peer), "x.hl7", "PHI", { timeoutMs: 5_000 })).rejects.toThrow(
      /has not been confirmed/,
    );
    expect(peer.files.size).toBe(0);
  }, 20_000);

  test("the connection check shows the key before any is confirmed, then signs in once it is", async () => {
    peer = await startSftpPeer();
    const first = await checkSftp(targetOf(peer), 5_000);
    expect(first).toMatchObject({ hostKeySha256: peer.hostKeySha256, matches: null, connected: false });
    expect(first.message).toContain(peer.hostKeySha256);
    const confirmed = await checkSftp(targetOf(peer, peer.hostKeySha256), 5_000);
    expect(confirmed).toMatchObject({ matches: true, connected: true });
    const other = await checkSftp(targetOf(peer, "SHA256:" + "A".repeat(43)), 5_000);
    expect(other).toMatchObject({ hostKeySha256: peer.hostKeySha256, matches: false, connected: false });
  }, 20_000);

  test("writes files with a configured mode", async () => {
    peer = await startSftpPeer();
    await dropFile({ ...targetOf(peer, peer.hostKeySha256), fileMode: 0o640 }, "m.hl7", "x", {
      timeoutMs: 5_000,
    });
    expect(peer.modes.get("/upload/m.hl7")).toBe(0o640);
  }, 20_000);
});
