import { createHash } from "node:crypto";
import { posix } from "node:path";
import ssh2, { type Attributes, type Connection, type SFTPWrapper } from "ssh2";

const { Server, utils } = ssh2;
const { OPEN_MODE, STATUS_CODE } = utils.sftp;

export interface SftpPeer {
  port: number;
  username: string;
  password: string;
  /** Files by absolute path. */
  files: Map<string, Buffer>;
  /** Every path-changing operation in order, e.g. `OPEN /upload/.x.part`, `RENAME a -> b`. */
  operations: string[];
  /** The permission bits each file was created or last set with, by absolute path. */
  modes: Map<string, number>;
  /** The SHA-256 fingerprint of the server's host key, as `ssh-keygen -l` prints it. */
  hostKeySha256: string;
  close: () => Promise<void>;
}

const FILE_MODE = 0o100644;
const DIR_MODE = 0o040755;

/**
 * A real SSH/SFTP server built on the `ssh2` package, listening on 127.0.0.1, that keeps files in
 * memory so a test can read exactly what arrived. Password authentication only.
 */
export async function startSftpPeer(options: { port?: number; dirs?: string[] } = {}): Promise<SftpPeer> {
  const username = "drop";
  const password = "test-only-password";
  const files = new Map<string, Buffer>();
  const dirs = new Set(["/", ...(options.dirs ?? ["/upload"])]);
  const operations: string[] = [];
  const modes = new Map<string, number>();
  const clients = new Set<Connection>();
  const hostKey = ed25519HostKey();

  const attrs = (mode: number, size = 0): Attributes => ({ mode, uid: 0, gid: 0, size, atime: 0, mtime: 0 });
  const resolvePath = (p: string) => posix.resolve("/", p);

  const serveSftp = (sftp: SFTPWrapper) => {
    const handles = new Map<number, { path: string; kind: "file" | "dir"; listed?: boolean }>();
    let nextHandle = 1;
    const handleOf = (buf: Buffer) => handles.get(buf.readUInt32BE(0));
    const newHandle = (entry: { path: string; kind: "file" | "dir" }) => {
      const id = nextHandle++;
      handles.set(id, entry);
      const buf = Buffer.alloc(4);
      buf.writeUInt32BE(id);
      return buf;
    };
    sftp.on("REALPATH", (reqId, p) => {
      const path = resolvePath(p);
      sftp.name(reqId, [{ filename: path, longname: path, attrs: attrs(DIR_MODE) }]);
    });
    const stat = (reqId: number, p: string) => {
      const path = resolvePath(p);
      if (dirs.has(path)) return sftp.attrs(reqId, attrs(DIR_MODE));
      const file = files.get(path);
      if (file) return sftp.attrs(reqId, attrs(FILE_MODE, file.length));
      return sftp.status(reqId, STATUS_CODE.NO_SUCH_FILE);
    };
    sftp.on("STAT", stat);
    sftp.on("LSTAT", stat);
    sftp.on("FSTAT", (reqId, handle) => {
      const h = handleOf(handle);
      if (!h) return sftp.status(reqId, STATUS_CODE.FAILURE);
      stat(reqId, h.path);
    });
    sftp.on("OPEN", (reqId, filename, flags, openAttrs) => {
      const path = resolvePath(filename);
      if (!dirs.has(posix.dirname(path))) return sftp.status(reqId, STATUS_CODE.NO_SUCH_FILE);
      if (flags & OPEN_MODE.WRITE) {
        operations.push(`OPEN ${path}`);
        if (!files.has(path)) modes.set(path, (openAttrs.mode ?? 0o644) & 0o777);
        if (flags & OPEN_MODE.TRUNC || !files.has(path)) files.set(path, Buffer.alloc(0));
      } else if (!files.has(path)) return sftp.status(reqId, STATUS_CODE.NO_SUCH_FILE);
      sftp.handle(reqId, newHandle({ path, kind: "file" }));
    });
    sftp.on("WRITE", (reqId, handle, offset, data) => {
      const h = handleOf(handle);
      if (!h) return sftp.status(reqId, STATUS_CODE.FAILURE);
      const current = files.get(h.path) ?? Buffer.alloc(0);
      const next = Buffer.alloc(Math.max(current.length, offset + data.length));
      current.copy(next);
      data.copy(next, offset);
      files.set(h.path, next);
      sftp.status(reqId, STATUS_CODE.OK);
    });
    sftp.on("READ", (reqId, handle, offset, length) => {
      const h = handleOf(handle);
      const file = h && files.get(h.path);
      if (!file) return sftp.status(reqId, STATUS_CODE.FAILURE);
      if (offset >= file.length) return sftp.status(reqId, STATUS_CODE.EOF);
      sftp.data(reqId, file.subarray(offset, offset + length));
    });
    sftp.on("CLOSE", (reqId, handle) => {
      handles.delete(handle.readUInt32BE(0));
      sftp.status(reqId, STATUS_CODE.OK);
    });
    sftp.on("FSETSTAT", (reqId, handle, set) => {
      const h = handleOf(handle);
      if (h && set.mode !== undefined) modes.set(h.path, set.mode & 0o777);
      sftp.status(reqId, STATUS_CODE.OK);
    });
    sftp.on("SETSTAT", (reqId, p, set) => {
      if (set.mode !== undefined) modes.set(resolvePath(p), set.mode & 0o777);
      sftp.status(reqId, STATUS_CODE.OK);
    });
    sftp.on("RENAME", (reqId, from, to) => {
      const src = resolvePath(from);
      const dst = resolvePath(to);
      const file = files.get(src);
      // SFTP v3 (draft-ietf-secsh-filexfer-02 §6.5): renaming onto an existing file fails.
      if (!file || files.has(dst)) return sftp.status(reqId, STATUS_CODE.FAILURE);
      operations.push(`RENAME ${src} -> ${dst}`);
      files.delete(src);
      files.set(dst, file);
      const mode = modes.get(src);
      modes.delete(src);
      if (mode !== undefined) modes.set(dst, mode);
      sftp.status(reqId, STATUS_CODE.OK);
    });
    sftp.on("REMOVE", (reqId, p) => {
      const path = resolvePath(p);
      operations.push(`REMOVE ${path}`);
      sftp.status(reqId, files.delete(path) ? STATUS_CODE.OK : STATUS_CODE.NO_SUCH_FILE);
    });
    sftp.on("MKDIR", (reqId, p) => {
      dirs.add(resolvePath(p));
      sftp.status(reqId, STATUS_CODE.OK);
    });
    sftp.on("OPENDIR", (reqId, p) => {
      const path = resolvePath(p);
      if (!dirs.has(path)) return sftp.status(reqId, STATUS_CODE.NO_SUCH_FILE);
      sftp.handle(reqId, newHandle({ path, kind: "dir" }));
    });
    sftp.on("READDIR", (reqId, handle) => {
      const h = handleOf(handle);
      if (!h || h.listed) return sftp.status(reqId, STATUS_CODE.EOF);
      h.listed = true;
      const entries = [...files.entries()]
        .filter(([p]) => posix.dirname(p) === h.path)
        .map(([p, data]) => ({
          filename: posix.basename(p),
          longname: posix.basename(p),
          attrs: attrs(0o100000 | (modes.get(p) ?? 0o644), data.length),
        }));
      sftp.name(reqId, entries);
    });
  };

  const server = new Server({ hostKeys: [hostKey] }, (client) => {
    clients.add(client);
    // ssh2's server-side Connection has setNoDelay (lib/server.js); @types/ssh2 leaves it out.
    (client as Connection & { setNoDelay: (on: boolean) => void }).setNoDelay(true);
    client.on("close", () => clients.delete(client));
    client.on("error", () => clients.delete(client));
    client.on("authentication", (ctx) => {
      if (ctx.method === "password" && ctx.username === username && ctx.password === password) ctx.accept();
      else ctx.reject(["password"]);
    });
    client.on("ready", () => {
      client.on("session", (accept) => {
        const session = accept();
        session.on("sftp", (acceptSftp) => serveSftp(acceptSftp()));
      });
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, "127.0.0.1", () => resolve());
  });
  const address = server.address();
  if (address === null || typeof address === "string") throw new Error("SFTP peer has no port");
  return {
    port: address.port,
    username,
    password,
    files,
    operations,
    modes,
    hostKeySha256: fingerprintOf(hostKey),
    close: () =>
      new Promise((resolve) => {
        for (const c of clients) c.end();
        server.close(() => resolve());
      }),
  };
}

/**
 * A host key ssh2 itself can read back: its ed25519 generator drops a public key's leading zero byte,
 * about one key in 256 (mscdex/ssh2 issues 1390 and 1513), so such a key is made again.
 */
function ed25519HostKey(): string {
  for (;;) {
    const pair = utils.generateKeyPairSync("ed25519");
    if (!(utils.parseKey(pair.private) instanceof Error) && !(utils.parseKey(pair.public) instanceof Error)) {
      return pair.private;
    }
  }
}

/** The OpenSSH SHA-256 fingerprint of a private key's public half. */
function fingerprintOf(privateKey: string): string {
  const key = utils.parseKey(privateKey);
  if (key instanceof Error || Array.isArray(key)) throw new Error("the peer's host key cannot be read");
  return `SHA256:${createHash("sha256").update(key.getPublicSSH()).digest("base64").replace(/=+$/, "")}`;
}
