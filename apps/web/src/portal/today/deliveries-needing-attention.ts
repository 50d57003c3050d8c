import type { Delivery } from "@core-care/schema";

/** A delivery's status as stored: the known ones, and whatever states the delivery log adds later. */
type Status = Delivery["status"] | (string & {});

/** Statuses of a delivery still on its way; a later attempt may yet deliver it. */
const IN_FLIGHT: readonly Status[] = ["pending", "sending"];
/** Statuses that need nothing more: delivered, or skipped by an admin's decision. */
const SETTLED: readonly Status[] = ["delivered", "skipped"];

/** What a delivery needing attention shows: which result, where to, what went wrong. */
export interface DeliveryProblem {
  delivery: Delivery;
  /** "Failed" when it has given up (or is in a state this screen does not know), "Retrying" when not yet. */
  state: "Failed" | "Retrying";
}

/**
 * The deliveries of one result that need someone's attention. Only the newest send of each format to each
 * interface counts (a failed send that a resend delivered needs nothing more). It needs attention when it
 * has failed, when it is in any state other than delivered, skipped or on its way (a state added to the delivery
 * log later counts as a problem until this screen knows it), or when it is on its way after a failed
 * attempt.
 */
export function deliveryProblems(deliveries: readonly Delivery[]): DeliveryProblem[] {
  const newest = new Map<string, Delivery>();
  for (const delivery of deliveries) {
    const key = `${delivery.interfaceId} ${delivery.format}`;
    const seen = newest.get(key);
    if (seen === undefined || seen.createdAt < delivery.createdAt) newest.set(key, delivery);
  }
  const problems: DeliveryProblem[] = [];
  for (const delivery of newest.values()) {
    const status: Status = delivery.status;
    if (SETTLED.includes(status)) continue;
    if (IN_FLIGHT.includes(status)) {
      if (delivery.lastError !== null) problems.push({ delivery, state: "Retrying" });
      continue;
    }
    problems.push({ delivery, state: "Failed" });
  }
  return problems;
}

/**
 * Runs `work` over `items` with at most `limit` running at once, in order of `items`; answers each
 * outcome, so one failure does not hide the others.
 */
export async function mapLimited<T, R>(
  items: readonly T[],
  limit: number,
  work: (item: T) => Promise<R>,
): Promise<PromiseSettledResult<R>[]> {
  const outcomes = new Array<PromiseSettledResult<R>>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      try {
        outcomes[index] = { status: "fulfilled", value: await work(items[index] as T) };
      } catch (reason) {
        outcomes[index] = { status: "rejected", reason };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return outcomes;
}
