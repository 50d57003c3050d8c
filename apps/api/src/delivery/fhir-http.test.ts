import { afterEach, describe, expect, test } from "vitest";
import { startFhirPeer, type FhirPeer } from "../../test/peers/fhir-peer.js";
import { buildFhirBundle } from "./fhir.js";
import { fhirUrl, postFhirBundle } from "./fhir-http.js";
import { goldenCases } from "./golden.js";

const bundle = buildFhirBundle(goldenCases()[0]!.input);
let peer: FhirPeer | undefined;
afterEach(async () => {
  await peer?.close();
  peer = undefined;
});

describe("fhirUrl", () => {
  test("uses HTTPS off the loopback interface and HTTP on it", () => {
    expect(fhirUrl({ host: "ehr.example.org", port: 443, path: "fhir/r4" })).toBe(
      "https://ehr.example.org:443/fhir/r4",
    );
    expect(fhirUrl({ host: "127.0.0.1", port: 8080 })).toBe("http://127.0.0.1:8080/");
  });
});

describe("postFhirBundle", () => {
  test("posts a schema-valid transaction Bundle with the bearer token", async () => {
    peer = await startFhirPeer("ok");
    const outcome = await postFhirBundle(
      { host: "127.0.0.1", port: peer.port, path: "/fhir", secret: "tok" },
      bundle,
    );
    expect(outcome).toMatchObject({ outcome: "accepted", status: 200 });
    expect(peer.invalid).toEqual([]);
    expect(peer.received).toHaveLength(1);
    expect(peer.received[0]).toMatchObject({
      authorization: "Bearer tok",
      path: "/fhir",
      body: { type: "transaction" },
    });
  });

  test.each([
    [500, "retry"],
    [503, "retry"],
    [400, "reject"],
    [401, "reject"],
  ] as const)("classifies HTTP %s as %s", async (status, outcome) => {
    peer = await startFhirPeer(status);
    await expect(postFhirBundle({ host: "127.0.0.1", port: peer.port }, bundle)).resolves.toMatchObject({
      outcome,
      status,
    });
  });

  test("retries after a timeout and when nothing listens", async () => {
    peer = await startFhirPeer("hang");
    await expect(
      postFhirBundle({ host: "127.0.0.1", port: peer.port }, bundle, { timeoutMs: 300 }),
    ).resolves.toEqual({ outcome: "retry", status: null, error: "timeout" });
    const port = peer.port;
    await peer.close();
    peer = undefined;
    await expect(postFhirBundle({ host: "127.0.0.1", port }, bundle)).resolves.toMatchObject({
      outcome: "retry",
      error: "network: ECONNREFUSED",
    });
  });
});
