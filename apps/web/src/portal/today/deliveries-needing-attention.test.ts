import { describe, expect, test } from "vitest";
import type { Delivery } from "@core-care/schema";
import { deliveryProblems, mapLimited } from "./deliveries-needing-attention";

const base: Delivery = {
  id: "000000000000000000000001",
  resultId: "00000000000000000000000a",
  interfaceId: "0000000000000000000000f1",
  locationId: null,
  format: "hl7",
  status: "delivered",
  attempts: 1,
  nextAttemptAt: null,
  lastError: null,
  ack: null,
  controlId: "C1",
  createdAt: "2026-11-21T10:00:00.000Z",
  updatedAt: "2026-11-21T10:00:00.000Z",
  deliveredAt: "2026-11-21T10:00:01.000Z",
};
/** A delivery; its status may be one the schema does not list (yet). */
const delivery = (over: Omit<Partial<Delivery>, "status"> & { status: string }): Delivery =>
  ({ ...base, ...over }) as Delivery;

describe("deliveryProblems", () => {
  test("flags a failed delivery and one retrying after a failed attempt, not one delivered or on its way", () => {
    const problems = deliveryProblems([
      delivery({ id: "1".repeat(24), status: "failed", interfaceId: "a".repeat(24), lastError: "refused" }),
      delivery({ id: "2".repeat(24), status: "pending", interfaceId: "b".repeat(24), lastError: "timeout" }),
      delivery({ id: "3".repeat(24), status: "pending", interfaceId: "c".repeat(24) }),
      delivery({ id: "4".repeat(24), status: "delivered", interfaceId: "d".repeat(24) }),
    ]);
    expect(problems.map((p) => [p.delivery.id[0], p.state])).toEqual([
      ["1", "Failed"],
      ["2", "Retrying"],
    ]);
  });

  test("leaves out a delivery an admin skipped", () => {
    expect(deliveryProblems([delivery({ status: "skipped", lastError: "rejected" })])).toEqual([]);
  });

  test("counts a state it does not know yet as failed", () => {
    expect(deliveryProblems([delivery({ status: "rejected-by-receiver" })]).map((p) => p.state)).toEqual([
      "Failed",
    ]);
  });

  test("forgets a failed send that a later send to the same interface delivered", () => {
    const problems = deliveryProblems([
      delivery({ id: "1".repeat(24), status: "failed", createdAt: "2026-11-21T09:00:00.000Z" }),
      delivery({ id: "2".repeat(24), status: "delivered", createdAt: "2026-11-21T09:30:00.000Z" }),
    ]);
    expect(problems).toEqual([]);
  });
});

describe("mapLimited", () => {
  test("keeps the order, runs at most the limit at once and reports each failure on its own", async () => {
    let running = 0;
    let most = 0;
    const outcomes = await mapLimited([1, 2, 3, 4, 5], 2, async (n) => {
      running++;
      most = Math.max(most, running);
      await new Promise((resolve) => setTimeout(resolve, 5));
      running--;
      if (n === 3) throw new Error("three");
      return n * 10;
    });
    expect(most).toBe(2);
    expect(outcomes.map((o) => (o.status === "fulfilled" ? o.value : "failed"))).toEqual([
      10,
      20,
      "failed",
      40,
      50,
    ]);
  });
});
