import { beforeEach, describe, expect, test } from "vitest";
import { api, replaceSession } from "../api/client";
import { heldServerForFile } from "../test/held-server";
import { sendResult } from "./result-sender";
import { createSaveQueue, type QueueState, type ResultSnapshot, type SaveOutcome } from "./save-queue";

// A file of its own: a replaced session is the page's state for as long as the module lives.

const { server, signOuts } = heldServerForFile();
const SAVES = "/api/surveyresults";
const STAFF_RETURN = "/api/tablet/handover/staff";

const snapshot: ResultSnapshot = {
  clientRequestId: "3f0c7d1e-8f2a-4c55-9d0e-6a1b2c3d4e5f",
  surveyId: "PHQ-9",
  patientId: "p-1",
  isSubmitted: false,
  answers: { phq1: 2 },
};

/** The staff's return as the Staff dialog sends it: a session change whose own errors the dialog shows. */
const staffReturn = () =>
  replaceSession(() => api.post(STAFF_RETURN, { password: "pw" }, { handleErrors: true })).catch(
    (error: unknown) => error,
  );

beforeEach(() => {
  window.history.replaceState(null, "", "/tablet/patient-survey/PHQ-9/pg/2");
});

describe("a survey save answered 401 (the runner alerts and signs out on a refusal)", () => {
  test("under the page's own session it is a refusal, left to the runner", async () => {
    const sent = sendResult(snapshot);
    (await server().heldRequest(SAVES))(401);
    expect(await sent).toEqual({ kind: "rejected", status: 401, message: "Answered 401." });
    expect(signOuts).toEqual([]);
  });

  test("while the staff's return runs and then fails, it is held: not a refusal, and the client signs out once", async () => {
    const sent = sendResult(snapshot);
    const answerSave = await server().heldRequest(SAVES);
    const returning = staffReturn();
    const answerReturn = await server().heldRequest(STAFF_RETURN);
    answerSave(401);
    expect(await sent).toEqual({ kind: "offline" });
    expect(signOuts).toEqual([]);
    // A wrong password: the patient credential was not ended by the staff, so the 401 was the session's.
    answerReturn(400, { responseStatus: { message: "The password is not correct." } });
    expect(await returning).toMatchObject({ status: 400 });
    expect(signOuts).toEqual(["/tablet/patient-survey/PHQ-9/pg/2"]);
  });

  // Last: the page's session stays replaced.
  test("sent before the staff's return succeeded, it is not a refusal: the queue keeps the answers unsent", async () => {
    const states: QueueState[] = [];
    const outcomes: SaveOutcome[] = [];
    const queue = createSaveQueue({ send: sendResult, persist: (state) => states.push(state) });
    void queue.save(snapshot).then((outcome) => outcomes.push(outcome));
    const answerSave = await server().heldRequest(SAVES);
    const returning = staffReturn();
    (await server().heldRequest(STAFF_RETURN))(200, { id: "staff" });
    expect(await returning).toEqual({ id: "staff" });
    answerSave(401);
    await expect.poll(() => queue.status).toBe("offline");
    queue.dispose();
    expect(outcomes).toEqual([]);
    expect(states.at(-1)).toEqual({ resultId: null, unsent: snapshot });
    expect(signOuts).toEqual([]);

    // A save made under the staff's session is judged as always.
    const after = sendResult(snapshot);
    (await server().heldRequest(SAVES))(401);
    expect(await after).toMatchObject({ kind: "rejected", status: 401 });
  });
});
