import { ApiError, api, sessionLost, sessionMark } from "../api/client";
import type { SaveBody, SendOutcome } from "./save-queue";

/**
 * Sends one survey-result save through the app's HTTP client. The runner reports failures itself
 * (SPEC 8: 'Failed to save results: …'), so the client's banner and 401 handling are off here.
 *
 * A 401 to a save sent under a session the page has replaced since, or while it replaces it (the staff's
 * return takes the tablet back while a save is on its way), speaks of the patient credential the staff
 * ended, not of a lost session: it is not a refusal to alert and sign out on. The save counts as not sent
 * (`offline`, kept for a later try); should the staff's return fail, the client signs out with the held
 * 401 as it would have, and the page sends the answers as it leaves.
 */
export async function sendResult(body: SaveBody): Promise<SendOutcome> {
  const mark = sessionMark();
  try {
    const { id } = await api.post<{ id: string }>("/api/surveyresults", body, { handleErrors: true });
    return { kind: "saved", id };
  } catch (error) {
    if (!(error instanceof ApiError) || error.status === 0) return { kind: "offline" };
    if (error.status === 401 && !sessionLost(mark)) return { kind: "offline" };
    return { kind: "rejected", status: error.status, message: error.message };
  }
}
