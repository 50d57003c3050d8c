import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { connect, createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** A Debian OpenSSH server accepting SFTP with a private key, and the folder it writes to. */
export interface OpenSshPeer {
  host: string;
  port: number;
  username: string;
  privateKey: string;
  /** Remote folder to drop files into, as the SFTP client names it. */
  remoteDir: string;
  /** The same folder on the local disk, to read what arrived. */
  localDir: string;
  close: () => Promise<void>;
}

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() =>
        typeof address === "object" && address ? resolve(address.port) : reject(new Error("no port")),
      );
    });
  });

async function waitForPort(port: number, deadline: number): Promise<void> {
  while (Date.now() < deadline) {
    const open = await new Promise<boolean>((resolve) => {
      const socket = connect(port, "127.0.0.1", () => {
        socket.destroy();
        resolve(true);
      });
      socket.once("error", () => resolve(false));
    });
    if (open) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`sshd did not listen on ${port}`);
}

/**
 * The OpenSSH peer: the one CI starts (SFTP_TEST_KEY, SFTP_TEST_PORT, SFTP_TEST_USER,
 * SFTP_TEST_ROOT), or, outside CI when running as root, an sshd this function starts on a free
 * port. Throws when neither is possible, so the test fails instead of being skipped.
 */
export async function startOpenSshPeer(
  env: NodeJS.ProcessEnv = process.env,
  options: {
    /**
     * Its folder may be read but not written by the account: CI's sshd with a folder of the test's own
     * (mode 0555; the account is another user), or an sshd of our own in read-only mode
     * (`internal-sftp -R`), since root, whom it signs in, is refused no write by a folder's mode.
     */
    readOnly?: boolean;
  } = {},
): Promise<OpenSshPeer> {
  if (env.SFTP_TEST_KEY) {
    const root = env.SFTP_TEST_ROOT;
    if (!env.SFTP_TEST_PORT || !env.SFTP_TEST_USER || !root) {
      throw new Error("SFTP_TEST_KEY is set but SFTP_TEST_PORT, SFTP_TEST_USER or SFTP_TEST_ROOT is missing");
    }
    let folder = "upload";
    if (options.readOnly) {
      folder = `upload/read-only-${process.pid}-${Date.now()}`;
      mkdirSync(join(root, folder));
      chmodSync(join(root, folder), 0o555);
    }
    return {
      host: "127.0.0.1",
      port: Number(env.SFTP_TEST_PORT),
      username: env.SFTP_TEST_USER,
      privateKey: readFileSync(env.SFTP_TEST_KEY, "utf8"),
      remoteDir: folder,
      localDir: join(root, folder),
      close: async () => undefined,
    };
  }
  if (env.CI === "true")
    throw new Error("CI must start sshd and set SFTP_TEST_KEY for the OpenSSH delivery test");
  if (process.getuid?.() !== 0 || !existsSync("/usr/sbin/sshd")) {
    throw new Error("the OpenSSH delivery test needs SFTP_TEST_KEY, or root and /usr/sbin/sshd to start one");
  }
  const work = mkdtempSync(join(tmpdir(), "sshd-"));
  chmodSync(work, 0o755);
  const upload = join(work, "upload");
  mkdirSync(join(work, "keys"));
  mkdirSync(upload);
  mkdirSync("/run/sshd", { recursive: true });
  execFileSync("ssh-keygen", ["-q", "-t", "ed25519", "-N", "", "-f", join(work, "host_ed25519")]);
  execFileSync("ssh-keygen", ["-q", "-t", "ed25519", "-N", "", "-f", join(work, "client_ed25519")]);
  writeFileSync(join(work, "keys", "root"), readFileSync(join(work, "client_ed25519.pub")));
  const port = await freePort();
  writeFileSync(
    join(work, "sshd_config"),
    [
      `Port ${port}`,
      "ListenAddress 127.0.0.1",
      `HostKey ${join(work, "host_ed25519")}`,
      `PidFile ${join(work, "sshd.pid")}`,
      `AuthorizedKeysFile ${join(work, "keys")}/%u`,
      "StrictModes no",
      "UsePAM no",
      "PasswordAuthentication no",
      "KbdInteractiveAuthentication no",
      "PermitRootLogin prohibit-password",
      "AllowUsers root",
      "Subsystem sftp internal-sftp",
      options.readOnly ? "ForceCommand internal-sftp -R" : "ForceCommand internal-sftp",
      "",
    ].join("\n"),
  );
  const sshd: ChildProcess = spawn(
    "/usr/sbin/sshd",
    ["-D", "-f", join(work, "sshd_config"), "-E", join(work, "log")],
    {
      stdio: "ignore",
    },
  );
  await waitForPort(port, Date.now() + 10_000);
  return {
    host: "127.0.0.1",
    port,
    username: "root",
    privateKey: readFileSync(join(work, "client_ed25519"), "utf8"),
    remoteDir: upload,
    localDir: upload,
    close: async () => {
      const exited = new Promise((resolve) => sshd.once("exit", resolve));
      sshd.kill("SIGTERM");
      await exited;
      rmSync(work, { recursive: true, force: true });
    },
  };
}
