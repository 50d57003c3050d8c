/** A FHIR server's base URL parts and the bearer token to present, if any. */
export interface FhirTarget {
  host: string;
  port: number;
  path?: string;
  secret?: string;
}

/** What a POST came to: accepted, worth retrying later, or refused for good. */
export type HttpOutcome =
  | { outcome: "accepted"; status: number; location: string | null }
  | { outcome: "retry" | "reject"; status: number | null; error: string };

const LOOPBACK = new Set(["127.0.0.1", "::1", "[::1]", "localhost"]);

/**
 * The URL a transaction Bundle is POSTed to. Anything leaving the machine goes over HTTPS;
 * plain HTTP is used only on the loopback interface (local development and tests).
 */
export function fhirUrl(target: FhirTarget): string {
  const scheme = LOOPBACK.has(target.host) ? "http" : "https";
  const host = target.host.includes(":") && !target.host.startsWith("[") ? `[${target.host}]` : target.host;
  const path = (target.path ?? "").replace(/^\/*/, "/");
  return `${scheme}://${host}:${target.port}${path}`;
}

/** Statuses after which the same request may succeed later (RFC 9110 §15.5.9, §15.6; RFC 6585 §4). */
const RETRYABLE = new Set([408, 425, 429, 500, 502, 503, 504]);

/** POSTs a FHIR transaction Bundle (FHIR R4 http.html#transaction) to the interface URL. */
export async function postFhirBundle(
  target: FhirTarget,
  bundle: unknown,
  options: { timeoutMs: number } = { timeoutMs: 30_000 },
): Promise<HttpOutcome> {
  const headers: Record<string, string> = {
    "content-type": "application/fhir+json",
    accept: "application/fhir+json",
  };
  if (target.secret) headers.authorization = `Bearer ${target.secret}`;
  let response: Response;
  try {
    response = await fetch(fhirUrl(target), {
      method: "POST",
      headers,
      body: JSON.stringify(bundle),
      signal: AbortSignal.timeout(options.timeoutMs),
    });
  } catch (error) {
    const cause = (error as { cause?: { code?: string } }).cause?.code;
    const name = (error as Error).name;
    return {
      outcome: "retry",
      status: null,
      error: name === "TimeoutError" ? "timeout" : `network: ${cause ?? name}`,
    };
  }
  await response.arrayBuffer().catch(() => undefined);
  if (response.ok)
    return { outcome: "accepted", status: response.status, location: response.headers.get("location") };
  return {
    outcome: RETRYABLE.has(response.status) ? "retry" : "reject",
    status: response.status,
    error: `HTTP ${response.status}`,
  };
}
