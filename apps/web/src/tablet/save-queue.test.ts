import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "vitest";
import { configureClient } from "../api/client";
import { sendResult } from "./result-sender";
import {
  createSaveQueue,
  type QueueState,
  type ResultSnapshot,
  type SaveBody,
  type SaveStatus,
} from "./save-queue";

type Behaviour = "ok" | "drop-before" | "drop-after" | "fail-500" | { delayMs: number };

interface StoredResult {
  id: string;
  clientRequestId: string;
  isSubmitted: boolean;
  answers: Record<string, unknown>;
}

/** A small survey-results peer with the API's idempotency rules (docs/api.md), driven per request. */
class ResultsPeer {
  results = new Map<string, StoredResult>();
  received: SaveBody[] = [];
  script: Behaviour[] = [];
  private seq = 0;
  private server: Server = createServer((req, res) => void this.handle(req, res));

  async start(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, "127.0.0.1", resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  reset(): void {
    this.results.clear();
    this.received = [];
    this.script = [];
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const behaviour = this.script.shift() ?? "ok";
    if (
      req.method !== "POST" ||
      req.url !== "/api/surveyresults" ||
      req.headers["x-requested-with"] !== "XMLHttpRequest"
    ) {
      res.writeHead(404).end();
      return;
    }
    if (behaviour === "drop-before") {
      req.socket.destroy();
      return;
    }
    const body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as SaveBody;
    this.received.push(body);
    if (behaviour === "fail-500") {
      this.reply(res, 500, { responseStatus: { status: 500, message: "Database unavailable" } });
      return;
    }
    if (typeof behaviour === "object") await new Promise((resolve) => setTimeout(resolve, behaviour.delayMs));
    const answer = this.store(body);
    if (behaviour === "drop-after") {
      req.socket.destroy();
      return;
    }
    if ("error" in answer) this.reply(res, 409, { responseStatus: { status: 409, message: answer.error } });
    else this.reply(res, 200, answer);
  }

  private store(body: SaveBody): { id: string } | { error: string } {
    if (body.id === undefined) {
      const existing = [...this.results.values()].find((r) => r.clientRequestId === body.clientRequestId);
      if (existing) return { id: existing.id };
      const id = (++this.seq).toString(16).padStart(24, "0");
      this.results.set(id, {
        id,
        clientRequestId: body.clientRequestId,
        isSubmitted: body.isSubmitted,
        answers: body.answers,
      });
      return { id };
    }
    const existing = this.results.get(body.id);
    if (!existing) return { error: "Not found" };
    if (existing.isSubmitted) return { error: "This survey result has already been submitted." };
    existing.answers = body.answers;
    existing.isSubmitted = body.isSubmitted;
    return { id: existing.id };
  }

  private reply(res: ServerResponse, status: number, body: unknown): void {
    res.writeHead(status, { "Content-Type": "application/json" }).end(JSON.stringify(body));
  }
}

const peer = new ResultsPeer();

beforeAll(async () => {
  configureClient({ baseUrl: await peer.start() });
});
afterAll(async () => {
  await peer.stop();
});
beforeEach(() => {
  peer.reset();
});

function snapshot(answers: Record<string, unknown>, isSubmitted = false): ResultSnapshot {
  return {
    clientRequestId: "crid-1",
    surveyId: "s".repeat(24),
    patientId: "p".repeat(24),
    isSubmitted,
    answers,
  };
}

function recorder() {
  const states: QueueState[] = [];
  const statuses: SaveStatus[] = [];
  return {
    states,
    statuses,
    persist: (state: QueueState) => void states.push(structuredClone(state)),
    onStatus: (status: SaveStatus) => void statuses.push(status),
    last: () => states.at(-1),
  };
}

async function until(check: () => boolean, timeoutMs = 3000): Promise<void> {
  const start = Date.now();
  while (!check()) {
    if (Date.now() - start > timeoutMs) throw new Error("condition not met in time");
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

describe("createSaveQueue", () => {
  test("holds later saves until the first returns the id, then sends only the newest with that id", async () => {
    peer.script = [{ delayMs: 150 }];
    const rec = recorder();
    const queue = createSaveQueue({ send: sendResult, persist: rec.persist, onStatus: rec.onStatus });

    const first = queue.save(snapshot({ a: 1 }));
    const second = queue.save(snapshot({ a: 1, b: 2 }));
    const third = queue.save(snapshot({ a: 1, b: 2, c: 3 }));
    const outcomes = await Promise.all([first, second, third]);

    expect(peer.received).toHaveLength(2);
    expect(peer.received[0]).not.toHaveProperty("id");
    expect(peer.received[1]).toMatchObject({ id: queue.resultId, answers: { a: 1, b: 2, c: 3 } });
    expect(new Set(outcomes.map((o) => (o.kind === "saved" ? o.id : o.kind)))).toEqual(
      new Set([queue.resultId]),
    );
    expect(peer.results.size).toBe(1);
    expect(rec.last()).toEqual({ resultId: queue.resultId, unsent: null });
    expect(rec.statuses.at(-1)).toBe("idle");
    queue.dispose();
  });

  test("keeps the answers and resends them with the same request id when the network drops", async () => {
    peer.script = ["drop-before"];
    const rec = recorder();
    const queue = createSaveQueue({
      send: sendResult,
      persist: rec.persist,
      onStatus: rec.onStatus,
      retryDelayMs: 60_000,
    });

    let settled = false;
    const saved = queue.save(snapshot({ mood: "good" })).then((outcome) => {
      settled = true;
      return outcome;
    });
    await until(() => queue.status === "offline");
    expect(settled).toBe(false);
    expect(rec.last()?.unsent?.answers).toEqual({ mood: "good" });

    void queue.save(snapshot({ mood: "good", sleep: 7 }));
    expect(peer.received).toHaveLength(0);
    queue.retry();
    const outcome = await saved;

    expect(outcome).toEqual({ kind: "saved", id: queue.resultId });
    expect(peer.received).toHaveLength(1);
    expect(peer.received[0]).toMatchObject({
      clientRequestId: "crid-1",
      answers: { mood: "good", sleep: 7 },
    });
    expect(rec.last()).toEqual({ resultId: queue.resultId, unsent: null });
    queue.dispose();
  });

  test("creates one result only when the first answer was lost after the server stored it", async () => {
    peer.script = ["drop-after"];
    const rec = recorder();
    const queue = createSaveQueue({ send: sendResult, persist: rec.persist, retryDelayMs: 20 });

    const outcome = await queue.save(snapshot({ q1: "yes" }));

    expect(peer.received).toHaveLength(2);
    expect(peer.received.every((body) => body.id === undefined && body.clientRequestId === "crid-1")).toBe(
      true,
    );
    expect(peer.results.size).toBe(1);
    expect(outcome).toEqual({ kind: "saved", id: [...peer.results.keys()][0] });
    queue.dispose();
  });

  test("reports the server message and keeps the answers unsent when the server refuses a save", async () => {
    const rec = recorder();
    const queue = createSaveQueue({ send: sendResult, persist: rec.persist });
    await queue.save(snapshot({ q1: "a" }));
    peer.script = ["fail-500"];

    const outcome = await queue.save(snapshot({ q1: "a", q2: "b" }));

    expect(outcome).toEqual({ kind: "rejected", status: 500, message: "Database unavailable" });
    expect(rec.last()?.unsent?.answers).toEqual({ q1: "a", q2: "b" });
    const next = await queue.save(snapshot({ q1: "a", q2: "b", q3: "c" }));
    expect(next.kind).toBe("saved");
    expect(peer.results.get(queue.resultId ?? "")?.answers).toEqual({ q1: "a", q2: "b", q3: "c" });
    expect(rec.last()?.unsent).toBeNull();
    queue.dispose();
  });

  test("treats the conflict of a repeated submit as saved when the first submit was stored", async () => {
    const rec = recorder();
    const queue = createSaveQueue({ send: sendResult, persist: rec.persist, retryDelayMs: 20 });
    await queue.save(snapshot({ q1: "a" }));
    peer.script = ["drop-after"];

    const outcome = await queue.save(snapshot({ q1: "a" }, true));

    expect(outcome).toEqual({ kind: "saved", id: queue.resultId });
    expect(peer.received).toHaveLength(3);
    expect(peer.results.get(queue.resultId ?? "")?.isSubmitted).toBe(true);
    queue.dispose();
  });

  test("sends a snapshot left unsent by an earlier page load when flushed", async () => {
    const rec = recorder();
    const unsent = snapshot({ carried: "over" });
    const queue = createSaveQueue({
      send: sendResult,
      persist: rec.persist,
      initial: { resultId: null, unsent },
    });
    expect(peer.received).toEqual([]);

    const outcome = await queue.flush();

    expect(outcome).toEqual({ kind: "saved", id: queue.resultId });
    expect(peer.received).toEqual([unsent]);
    expect(rec.last()).toEqual({ resultId: queue.resultId, unsent: null });
    expect(queue.flush()).toBeNull();
    queue.dispose();
  });
});
