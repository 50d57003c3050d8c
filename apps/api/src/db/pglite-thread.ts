import { EventEmitter } from "node:events";
import { Worker } from "node:worker_threads";
import type { PGliteOptions } from "@electric-sql/pglite";
import { serialize } from "pg-protocol";
import { Parser } from "pg-protocol/dist/parser.js";

/** What the PGlite thread starts from (`workerData` of ./pglite-worker.mjs). */
export interface PgliteThreadOptions {
  /** A data directory on disk; without it and without `loadDataDir` the database lives in memory. */
  dataDir?: string;
  /** A `dumpDataDir()` archive to start from (skips initdb, which is slow in WebAssembly). */
  loadDataDir?: Blob;
  /** PGlite's compiled WebAssembly module, shared by every thread of the process. */
  wasmModule?: PGliteOptions["pgliteWasmModule"];
}

type Reply = { id: number; data?: Uint8Array; error?: string } | { ready: true };

/**
 * PGlite running on a thread of its own, spoken to in PostgreSQL's wire protocol. It has one
 * session, as PGlite always has: the pool in front of it must hold one connection.
 */
export class PgliteThread {
  private readonly worker: Worker;
  private readonly pending = new Map<
    number,
    { resolve: (data: Uint8Array) => void; reject: (e: Error) => void }
  >();
  private nextId = 1;
  private failure: Error | undefined;
  readonly ready: Promise<void>;

  constructor(options: PgliteThreadOptions) {
    this.worker = new Worker(new URL("./pglite-worker.mjs", import.meta.url), { workerData: options });
    this.ready = new Promise((resolve, reject) => {
      this.worker.on("message", (reply: Reply) => {
        if ("ready" in reply) {
          resolve();
          return;
        }
        const waiting = this.pending.get(reply.id);
        this.pending.delete(reply.id);
        if (reply.error !== undefined) waiting?.reject(new Error(reply.error));
        else waiting?.resolve(reply.data ?? new Uint8Array());
      });
      const fail = (error: Error) => {
        this.failure = error;
        reject(error);
        for (const waiting of this.pending.values()) waiting.reject(error);
        this.pending.clear();
      };
      this.worker.on("error", fail);
      this.worker.on("exit", (code) => fail(new Error(`the PGlite thread stopped (exit code ${code})`)));
    });
  }

  /** Sends a run of frontend messages; answers the backend's bytes. */
  exec(data: Uint8Array): Promise<Uint8Array> {
    return this.request("exec", data);
  }

  async close(): Promise<void> {
    if (this.failure === undefined) await this.request("close");
    await this.worker.terminate();
  }

  private request(op: "exec" | "close", data?: Uint8Array): Promise<Uint8Array> {
    if (this.failure !== undefined) return Promise.reject(this.failure);
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.worker.postMessage({ id, op, data }, data === undefined ? [] : [data.buffer as ArrayBuffer]);
    });
  }
}

interface ProtocolMessage {
  name: string;
  channel?: string;
  payload?: string;
  status?: string;
}

/**
 * PGlite's one session as node-postgres clients share it, one after another: the order of their
 * exchanges, the prepared statements it holds, and whether it is inside a transaction. A client that
 * the pool discards (after any failed statement) must leave the session as a new one would find it.
 */
export class PgliteSession {
  /** Prepared statement names node-postgres tracks per connection: here per session, where they live. */
  readonly parsedStatements: Record<string, string> = {};
  /** Every exchange, in order: a run of protocol messages must never interleave with another. */
  private chain: Promise<void> = Promise.resolve();
  /** The transaction status of the last ReadyForQuery: I (idle), T (in a transaction), E (failed one). */
  private status = "I";

  constructor(
    readonly thread: PgliteThread,
    private readonly onNotification: (channel: string, payload: string) => void,
  ) {}

  /** Runs `step` after every exchange queued before it; a failure of one never stops the next. */
  enqueue(step: () => Promise<void>): Promise<void> {
    const run = this.chain.then(step);
    this.chain = run.catch(() => undefined);
    return run;
  }

  /** Sends one run of frontend messages and hands each backend message to `emit`, in order. */
  async exchange(data: Uint8Array, emit: (message: ProtocolMessage) => void): Promise<void> {
    const answer = await this.thread.exec(data);
    new Parser().parse(Buffer.from(answer.buffer, answer.byteOffset, answer.byteLength), (message) => {
      const protocolMessage = message as ProtocolMessage;
      if (message.name === "notification") {
        this.onNotification(protocolMessage.channel ?? "", protocolMessage.payload ?? "");
      }
      if (message.name === "readyForQuery") this.status = protocolMessage.status ?? "I";
      emit(protocolMessage);
    });
  }

  /**
   * Called when a client leaves: a transaction it left open (it failed or was discarded between BEGIN
   * and COMMIT) is rolled back, or the next client's statements would run inside it, or fail in it.
   */
  async reset(): Promise<void> {
    if (this.status === "I") return;
    await this.exchange(serialize.query("ROLLBACK"), () => undefined);
  }
}

/**
 * A node-postgres connection to a {@link PgliteSession}: what `pg.Client` would write to a socket is
 * gathered until the client syncs or flushes, then sent in one exchange, and the answer is parsed into
 * the events `pg.Client` listens for. Each client gets a connection of its own, so that a client the
 * pool discards can never take the next client's listeners or bytes with it.
 */
export class PgliteThreadConnection extends EventEmitter {
  _connecting = false;
  readonly stream = { destroy: () => this.end() };
  submittedNamedStatements: Record<string, string> = {};
  private gathered: Uint8Array[] = [];
  private ended = false;

  constructor(private readonly session: PgliteSession) {
    super();
  }

  get parsedStatements(): Record<string, string> {
    return this.session.parsedStatements;
  }

  connect(): void {
    this._connecting = true;
    this.session.thread.ready.then(
      () => process.nextTick(() => this.emit("readyForQuery")),
      (error: unknown) => this.emit("error", error),
    );
  }

  requestSsl(): void {}
  startup(): void {}
  cancel(): void {}
  password(): void {}
  ref(): void {}
  unref(): void {}

  query(text: string): void {
    this.gathered.push(serialize.query(text));
    this.send();
  }
  parse(query: Parameters<typeof serialize.parse>[0]): void {
    this.gathered.push(serialize.parse(query));
  }
  bind(config: Parameters<typeof serialize.bind>[0]): void {
    this.gathered.push(serialize.bind(config));
  }
  execute(config: Parameters<typeof serialize.execute>[0]): void {
    this.gathered.push(serialize.execute(config));
  }
  describe(message: Parameters<typeof serialize.describe>[0]): void {
    this.gathered.push(serialize.describe(message));
  }
  close(message: Parameters<typeof serialize.close>[0]): void {
    this.gathered.push(serialize.close(message));
  }
  flush(): void {
    this.gathered.push(serialize.flush());
    this.send();
  }
  sync(): void {
    this.gathered.push(serialize.sync());
    this.send();
  }

  /** Ends the client's use of the session, after its exchanges, leaving no transaction open. */
  end(): void {
    if (this.ended) return;
    this.ended = true;
    this.gathered = [];
    void this.session
      .enqueue(() => this.session.reset())
      .catch(() => undefined)
      .then(() => {
        this.emit("end");
        this.removeAllListeners();
      });
  }

  private send(): void {
    const parts = this.gathered;
    this.gathered = [];
    if (this.ended) return;
    // One buffer of exactly these bytes, handed over to the thread rather than copied.
    const data = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
    let at = 0;
    for (const part of parts) {
      data.set(part, at);
      at += part.length;
    }
    this.session
      .enqueue(() =>
        this.session.exchange(data, (message) => {
          this.emit(message.name === "error" ? "errorMessage" : message.name, message);
        }),
      )
      .catch((error: unknown) => {
        this.emit("error", error);
      });
  }
}
