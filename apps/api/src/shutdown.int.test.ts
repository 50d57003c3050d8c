import { afterAll, describe, expect, test } from "vitest";
import { CORE_CARE_WELLNESS_EXAM_ID, objectId } from "@core-care/survey-engine";
import { DEFAULT_DEMO_PASSWORD } from "./config.js";
import {
  freshServerStorage,
  signIn,
  startServer,
  stopServer,
  waitForStatus,
  type ServerProcess,
} from "../test/processes.js";

// The promise of a SIGTERM: the process stops taking requests, answers every request it took (a save
// only after its commit), and exits 0; every save it acknowledged is there after the next start.
const started: ServerProcess[] = [];
afterAll(async () => {
  await Promise.all(started.map((server) => stopServer(server, 5_000)));
});

type Outcome = { status: number; id?: string; clientRequestId: string } | { error: string };

describe("SIGTERM", () => {
  test("finishes the saves in flight, refuses the rest, exits 0 and loses no acknowledged save", async () => {
    const storage = await freshServerStorage();
    const env = { ...storage.env, NODE_ENV: "development", RATE_LIMIT_PER_MINUTE: "100000" };
    try {
      const server = startServer({ env });
      started.push(server);
      const base = await server.listening;
      await waitForStatus(`${base}/readyz`);
      const headers = await signIn(base, "staff@demo.test", DEFAULT_DEMO_PASSWORD);
      const patients = (await (await fetch(`${base}/api/patients`, { headers })).json()) as {
        items: { id: string }[];
      };
      const patientId = patients.items[0]?.id ?? "";

      const outcomes: Outcome[] = [];
      let acknowledged = 0;
      let refused = false;
      const save = async (): Promise<void> => {
        const clientRequestId = objectId();
        try {
          const response = await fetch(`${base}/api/surveyresults`, {
            method: "POST",
            headers,
            body: JSON.stringify({
              clientRequestId,
              surveyId: CORE_CARE_WELLNESS_EXAM_ID,
              patientId,
              answers: { note: clientRequestId },
            }),
          });
          const body = (await response.json()) as { id?: string };
          outcomes.push({ status: response.status, clientRequestId, ...(body.id ? { id: body.id } : {}) });
          if (response.status === 200) acknowledged++;
        } catch (err) {
          const cause = (err as { cause?: { code?: string } }).cause;
          outcomes.push({ error: cause?.code ?? String(err) });
          if (cause?.code === "ECONNREFUSED") refused = true;
        }
      };
      // Eight browsers saving one after another until the server no longer takes connections.
      const stopped = (async () => {
        while (acknowledged < 40) await new Promise((resolve) => setTimeout(resolve, 10));
        return stopServer(server);
      })();
      await Promise.all(
        Array.from({ length: 8 }, async () => {
          while (!refused && outcomes.length < 5_000) await save();
        }),
      );
      expect(
        await stopped,
        server
          .output()
          .split("\n")
          .filter((l) => !l.includes("request"))
          .slice(-15)
          .join("\n"),
      ).toBe(0);
      expect(server.output()).toContain("SIGTERM: stopping; finishing the requests and deliveries in flight");

      const answered = outcomes.filter((o): o is Extract<Outcome, { status: number }> => "status" in o);
      // Taken requests are answered: saved, or refused with 503 while stopping; never another failure.
      expect(new Set(answered.map((o) => o.status))).toEqual(
        new Set(answered.some((o) => o.status === 503) ? [200, 503] : [200]),
      );
      const saved = answered.filter((o) => o.status === 200);
      expect(saved.length).toBeGreaterThanOrEqual(40);

      const again = startServer({ env });
      started.push(again);
      const base2 = await again.listening;
      await waitForStatus(`${base2}/readyz`);
      const headers2 = await signIn(base2, "staff@demo.test", DEFAULT_DEMO_PASSWORD);
      for (const { id, clientRequestId } of saved) {
        const read = await fetch(`${base2}/api/surveyresults/${id}`, { headers: headers2 });
        expect(read.status).toBe(200);
        expect(((await read.json()) as { answers: { note: string } }).answers.note).toBe(clientRequestId);
      }
      expect(await stopServer(again)).toBe(0);
    } finally {
      await storage.drop();
    }
  }, 300_000);
});
