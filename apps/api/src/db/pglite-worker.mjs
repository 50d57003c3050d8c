// The thread that runs PGlite (./pglite-thread.ts): PostgreSQL compiled to WebAssembly executes here,
// so a long statement never holds up the server's own thread. It answers raw PostgreSQL protocol:
// each message from the server's thread is a run of frontend messages, answered with the backend's
// bytes. Plain JavaScript, so that it loads in any runner without a TypeScript loader.
import { parentPort, workerData } from "node:worker_threads";
import { PGlite } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";

/** @type {import("./pglite-thread.ts").PgliteThreadOptions} */
const options = workerData;
const db = await PGlite.create({
  // The patient search's trigram index (migration 0007) needs pg_trgm in every PGlite that opens the data.
  extensions: { pg_trgm },
  ...(options.dataDir === undefined ? {} : { dataDir: options.dataDir }),
  ...(options.loadDataDir === undefined ? {} : { loadDataDir: options.loadDataDir }),
  ...(options.wasmModule === undefined ? {} : { pgliteWasmModule: options.wasmModule }),
});

const port = parentPort;
if (port === null) throw new Error("pglite-worker.mjs runs only as a worker thread");

// One request at a time, in order: a run of protocol messages must not interleave with another.
let queue = Promise.resolve();
port.on("message", (request) => {
  queue = queue.then(async () => {
    try {
      if (request.op === "exec") {
        // A copy: the answer may be a view on the WebAssembly memory, which must never be transferred.
        const answer = (await db.execProtocolRaw(request.data)).slice();
        port.postMessage({ id: request.id, data: answer }, [answer.buffer]);
      } else if (request.op === "close") {
        await db.close();
        port.postMessage({ id: request.id });
      }
    } catch (error) {
      port.postMessage({ id: request.id, error: error instanceof Error ? error.message : String(error) });
    }
  });
});
port.postMessage({ ready: true });
