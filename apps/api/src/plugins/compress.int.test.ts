import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { BUILTIN_SURVEYS } from "@core-care/survey-engine";
import { createTestApp, errorFields, login, type TestApp } from "../../test/helpers.js";
import { COMPRESS_THRESHOLD_BYTES } from "./compress.js";

function decode(encoding: string | undefined, body: Buffer): Buffer {
  switch (encoding) {
    case "br":
      return brotliDecompressSync(body);
    case "gzip":
      return gunzipSync(body);
    case undefined:
      return body;
    default:
      throw new Error(`unexpected content-encoding ${encoding}`);
  }
}

describe("compression", () => {
  let t: TestApp;
  let webDist: string;
  const script = `export const rows = ${JSON.stringify(Array.from({ length: 400 }, (_, i) => ({ row: i, text: "Å – ü" })))};\n`;
  const page = `<!doctype html><html><head><title>Core Care</title>${"<meta name=x>".repeat(150)}</head><body></body></html>`;
  beforeAll(async () => {
    webDist = mkdtempSync(join(tmpdir(), "core-care-web-"));
    mkdirSync(join(webDist, "assets"));
    writeFileSync(join(webDist, "index.html"), page);
    // As the build leaves them: each file with its brotli and gzip copies beside it.
    writeFileSync(join(webDist, "assets", "app-1.js"), script);
    writeFileSync(join(webDist, "assets", "app-1.js.br"), brotliCompressSync(script));
    writeFileSync(join(webDist, "assets", "app-1.js.gz"), gzipSync(script));
    // A build file without copies (an image) is sent as it is.
    writeFileSync(join(webDist, "assets", "logo-1.png"), Buffer.alloc(4000, 7));
    t = await createTestApp({ config: { webDist } });
  });
  afterAll(async () => {
    await t.close();
    rmSync(webDist, { recursive: true, force: true });
  });

  test.each([
    ["br", "br", ".br"],
    ["gzip", "gzip", ".gz"],
    ["gzip, deflate, br", "br", ".br"],
    ["br;q=0, gzip", "gzip", ".gz"],
  ])("sends the build's precompressed copy to a client accepting %s", async (accept, encoding, suffix) => {
    const res = await t.app.inject({
      method: "GET",
      url: "/assets/app-1.js",
      headers: { "accept-encoding": accept },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-encoding"]).toBe(encoding);
    expect(res.headers["content-type"]).toContain("javascript");
    expect(res.headers.vary).toContain("accept-encoding");
    expect(res.headers["cache-control"]).toContain("immutable");
    // The very bytes written at build time, which decompress to the file itself.
    expect(res.rawPayload).toEqual(readFileSync(join(webDist, "assets", `app-1.js${suffix}`)));
    expect(decode(encoding, res.rawPayload).toString("utf8")).toBe(script);
  });

  test("sends the file as it is to a client accepting no compression", async () => {
    for (const headers of [{}, { "accept-encoding": "identity" }]) {
      const res = await t.app.inject({ method: "GET", url: "/assets/app-1.js", headers });
      expect(res.headers["content-encoding"]).toBeUndefined();
      expect(res.body).toBe(script);
    }
  });

  test("sends a file that has no compressed copy unchanged", async () => {
    const res = await t.app.inject({
      method: "GET",
      url: "/assets/logo-1.png",
      headers: { "accept-encoding": "br, gzip" },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-encoding"]).toBeUndefined();
    expect(res.rawPayload).toEqual(Buffer.alloc(4000, 7));
  });

  test.each(["br", "gzip"])("compresses a large JSON answer with %s, the same content", async (encoding) => {
    const u = await t.createTestTenant();
    const s = await login(t.app, u.email);
    const id = BUILTIN_SURVEYS[0]?.id ?? "";
    const plain = await s.inject({ method: "GET", url: `/api/surveys/${id}` });
    expect(plain.statusCode).toBe(200);
    expect(plain.headers["content-encoding"]).toBeUndefined();
    expect(plain.rawPayload.length).toBeGreaterThan(COMPRESS_THRESHOLD_BYTES);

    const res = await s.inject({
      method: "GET",
      url: `/api/surveys/${id}`,
      headers: { "accept-encoding": encoding },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-encoding"]).toBe(encoding);
    expect(res.headers["content-type"]).toContain("application/json");
    expect(res.headers["cache-control"]).toBe("no-store");
    expect(res.rawPayload.length).toBeLessThan(plain.rawPayload.length / 3);
    expect(JSON.parse(decode(encoding, res.rawPayload).toString("utf8"))).toEqual(plain.json());
  });

  test("compresses the pages, which carry the signed-in user", async () => {
    const u = await t.createTestTenant();
    const s = await login(t.app, u.email);
    const res = await s.inject({ method: "GET", url: "/patients", headers: { "accept-encoding": "br" } });
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-encoding"]).toBe("br");
    expect(res.headers["cache-control"]).toBe("no-store");
    const html = decode("br", res.rawPayload).toString("utf8");
    expect(html).toContain("<title>Core Care</title>");
    expect(html).toContain(`data-user="`);
  });

  test("sends answers under the threshold as they are", async () => {
    const res = await t.app.inject({
      method: "GET",
      url: "/api/config",
      headers: { "accept-encoding": "br, gzip" },
    });
    expect(res.statusCode).toBe(200);
    expect(res.rawPayload.length).toBeLessThan(COMPRESS_THRESHOLD_BYTES);
    expect(res.headers["content-encoding"]).toBeUndefined();
  });

  test("refuses a compressed request body rather than inflating it", async () => {
    const u = await t.createTestTenant();
    const s = await login(t.app, u.email);
    const res = await s.inject({
      method: "PUT",
      url: "/api/users/me",
      headers: { "content-type": "application/json", "content-encoding": "gzip" },
      payload: gzipSync(JSON.stringify({ firstName: "A", lastName: "B", currentPassword: u.password })),
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toHaveProperty("responseStatus");
  });

  test.each(["gzip", "br", "deflate", "identity, gzip"])(
    "refuses a plain body declared as Content-Encoding: %s, which it does not inflate",
    async (encoding) => {
      const u = await t.createTestTenant();
      const res = await t.app.inject({
        method: "POST",
        url: "/api/auth/sessions",
        headers: {
          "content-type": "application/json",
          "content-encoding": encoding,
          "x-requested-with": "XMLHttpRequest",
        },
        payload: JSON.stringify({ email: u.email, password: u.password }),
      });
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json<{ responseStatus: { status: number } }>().responseStatus.status).toBe(400);
      expect(errorFields(res)).toEqual(["content-encoding"]);
      expect(res.headers["set-cookie"]).toBeUndefined();
    },
  );

  test("takes a body declared as Content-Encoding: identity, which is no coding", async () => {
    const u = await t.createTestTenant();
    const res = await t.app.inject({
      method: "POST",
      url: "/api/auth/sessions",
      headers: {
        "content-type": "application/json",
        "content-encoding": "identity",
        "x-requested-with": "XMLHttpRequest",
      },
      payload: JSON.stringify({ email: u.email, password: u.password }),
    });
    expect(res.statusCode, res.body).toBe(200);
  });

  describe("over a connection (Node's HTTP parser reads the transfer codings)", () => {
    let port = 0;
    beforeAll(async () => {
      await t.app.listen({ port: 0, host: "127.0.0.1" });
      const address = t.app.server.address();
      port = typeof address === "object" && address !== null ? address.port : 0;
    });

    /** A sign-in sent with the transfer codings given, its body in two chunks; the status and body answered. */
    const signInChunked = async (transferEncoding: string) => {
      const u = await t.createTestTenant();
      const body = JSON.stringify({ email: u.email, password: u.password });
      const half = Math.floor(body.length / 2);
      const chunk = (text: string) => `${Buffer.byteLength(text).toString(16)}\r\n${text}\r\n`;
      const answer = await new Promise<string>((resolve, reject) => {
        const socket = connect(port, "127.0.0.1");
        let text = "";
        socket.on("data", (data: Buffer) => {
          text += data.toString("utf8");
        });
        socket.on("error", reject);
        socket.on("close", () => resolve(text));
        // Written without ending the connection: the server closes it after its answer (Connection: close).
        socket.write(
          "POST /api/auth/sessions HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n" +
            "Content-Type: application/json\r\nX-Requested-With: XMLHttpRequest\r\n" +
            `Transfer-Encoding: ${transferEncoding}\r\n\r\n` +
            chunk(body.slice(0, half)) +
            chunk(body.slice(half)) +
            "0\r\n\r\n",
        );
      });
      const [head = "", ...rest] = answer.split("\r\n\r\n");
      return { status: Number(head.split(" ")[1]), head, body: rest.join("\r\n\r\n") };
    };

    test("takes a chunked body", async () => {
      expect((await signInChunked("chunked")).status).toBe(200);
    });

    test.each(["gzip, chunked", "deflate,chunked", "x-gzip, chunked"])(
      "refuses a plain body sent as Transfer-Encoding: %s, as it refuses compressed bodies",
      async (codings) => {
        const answer = await signInChunked(codings);
        expect(answer.status, answer.body).toBe(400);
        expect(answer.head.toLowerCase()).not.toContain("set-cookie");
        // Chunked as the body was: the JSON is the last chunk's text before the terminating one.
        const json = answer.body.includes("{")
          ? answer.body.slice(answer.body.indexOf("{"), answer.body.lastIndexOf("}") + 1)
          : "";
        expect(JSON.parse(json)).toMatchObject({
          responseStatus: { status: 400, errors: [{ field: "transfer-encoding" }] },
        });
      },
    );
  });
});
