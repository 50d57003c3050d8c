import { afterEach, describe, expect, test } from "vitest";
import { startSftpPeer, type SftpPeer } from "../../test/peers/sftp-peer.js";
import { dropFile, sftpFileName } from "./sftp.js";

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
    };
    const result = await dropFile(target, "t_r_20261121T093000Z.xml", "<ClinicalDocument/>", {
      timeoutMs: 5_000,
    });
    expect(result).toEqual({ path: "upload/t_r_20261121T093000Z.xml", alreadyPresent: false });
    expect(peer.files.get("/upload/t_r_20261121T093000Z.xml")?.toString()).toBe("<ClinicalDocument/>");
    expect([...peer.files.keys()]).toEqual(["/upload/t_r_20261121T093000Z.xml"]);
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
    };
    await dropFile(target, "same.hl7", "first");
    const again = await dropFile(target, "same.hl7", "first");
    expect(again).toEqual({ path: "/upload/same.hl7", alreadyPresent: true });
    await expect(dropFile(target, "same.hl7", "second")).rejects.toThrow(/holds 5 bytes where 6 were sent/);
    expect(peer.files.get("/upload/same.hl7")?.toString()).toBe("first");
  }, 20_000);

  test("fails on a wrong password without writing anything", async () => {
    peer = await startSftpPeer();
    const target = { host: "127.0.0.1", port: peer.port, username: peer.username, secret: "wrong" };
    await expect(dropFile(target, "x.hl7", "x", { timeoutMs: 5_000 })).rejects.toThrow(/auth/i);
    expect(peer.files.size).toBe(0);
  }, 20_000);
});
