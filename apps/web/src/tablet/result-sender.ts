import { ApiError, api } from "../api/client";
import type { SaveBody, SendOutcome } from "./save-queue";

/**
 * Sends one survey-result save through the app's HTTP client. The runner reports failures itself
 * (SPEC 8: 'Failed to save results: …'), so the client's banner and 401 handling are off here.
 */
export async function sendResult(body: SaveBody): Promise<SendOutcome> {
  try {
    const { id } = await api.post<{ id: string }>("/api/surveyresults", body, { handleErrors: true });
    return { kind: "saved", id };
  } catch (error) {
    if (error instanceof ApiError) {
      return error.status === 0
        ? { kind: "offline" }
        : { kind: "rejected", status: error.status, message: error.message };
    }
    return { kind: "offline" };
  }
}
