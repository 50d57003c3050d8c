import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { validateFhir } from "./standards.js";

/** How the FHIR peer answers: 200 with a transaction-response, a status code, or no answer. */
export type FhirPeerMode = "ok" | 400 | 401 | 500 | 503 | "hang";

export interface FhirPeer {
  port: number;
  mode: FhirPeerMode;
  /** Bodies that passed the FHIR R4 schema, with their Authorization header. */
  received: {
    body: { resourceType: string; entry?: unknown[] };
    authorization: string | undefined;
    path: string;
  }[];
  /** Bodies that failed it, with the schema errors. */
  invalid: string[];
  close: () => Promise<void>;
}

/** A real HTTP FHIR endpoint on 127.0.0.1 that validates each request against the R4 schema. */
export async function startFhirPeer(mode: FhirPeerMode = "ok"): Promise<FhirPeer> {
  const hanging = new Set<ServerResponse>();
  const peer: FhirPeer = {
    port: 0,
    mode,
    received: [],
    invalid: [],
    close: () =>
      new Promise((resolve) => {
        for (const res of hanging) res.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      if (peer.mode === "hang") {
        hanging.add(res);
        return;
      }
      if (peer.mode !== "ok") {
        res.writeHead(peer.mode, { "content-type": "application/fhir+json" }).end(
          JSON.stringify({
            resourceType: "OperationOutcome",
            issue: [{ severity: "error", code: "exception" }],
          }),
        );
        return;
      }
      const body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as FhirPeer["received"][number]["body"];
      const check = validateFhir(body);
      if (!check.valid) {
        peer.invalid.push(check.errors);
        res.writeHead(422).end();
        return;
      }
      peer.received.push({ body, authorization: req.headers.authorization, path: req.url ?? "" });
      res.writeHead(200, { "content-type": "application/fhir+json" }).end(
        JSON.stringify({
          resourceType: "Bundle",
          type: "transaction-response",
          entry: (body.entry ?? []).map(() => ({ response: { status: "200 OK" } })),
        }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  if (address === null || typeof address === "string") throw new Error("FHIR peer has no port");
  peer.port = address.port;
  return peer;
}
