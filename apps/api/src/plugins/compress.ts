import { brotliCompressSync, constants, gzipSync } from "node:zlib";
import fp from "fastify-plugin";
import fastifyCompress from "@fastify/compress";
import type { FastifyReply, FastifyRequest } from "fastify";
import type { IncomingHttpHeaders } from "node:http";
import { fieldError } from "../errors.js";

/** Answers smaller than this go as they are: compressing them saves less than it costs. */
export const COMPRESS_THRESHOLD_BYTES = 1024;

/** Brotli's quality for answers made per request: its best (11) costs ten times the CPU for a few percent. */
const BROTLI_QUALITY = 4;

/** Text, JSON (and newline-delimited JSON streams) and XML compress; build files come precompressed. */
const COMPRESSIBLE_TYPES = /^text\/(?!event-stream)|(?:\+|\/)(?:x-nd)?json(?:;|$)|(?:\+|\/)xml(?:;|$)/u;

/**
 * Compresses answers (brotli, else gzip) for clients that accept it: JSON answers, the pages and the
 * streamed report data. The build's files are already compressed at build time (web.ts sends those
 * copies), so the server never compresses them per request. Compressed request bodies are refused
 * before they are read: inflating them here would let a small upload grow past the body limit.
 */
export default fp(
  async (app) => {
    app.addHook("preParsing", async (request, _reply, payload) => {
      const refused = compressedBodyRefusal(request.headers);
      if (refused !== undefined) throw refused;
      return payload;
    });
    await app.register(fastifyCompress, {
      global: true,
      globalDecompression: false,
      encodings: ["br", "gzip"],
      threshold: COMPRESS_THRESHOLD_BYTES,
      customTypes: COMPRESSIBLE_TYPES,
      brotliOptions: { params: { [constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY } },
    });
  },
  { name: "compress" },
);

/** The encoding to answer a request with: brotli, else gzip, else none, by its Accept-Encoding (RFC 9110 12.5.3). */
export function acceptedEncoding(header: string | undefined): "br" | "gzip" | null {
  const weights = new Map<string, number>();
  for (const part of (header ?? "").toLowerCase().split(",")) {
    const [name = "", ...params] = part.split(";").map((item) => item.trim());
    const q = params.find((param) => param.startsWith("q="));
    weights.set(name, q === undefined ? 1 : Number(q.slice(2)) || 0);
  }
  const weight = (name: string) => weights.get(name) ?? weights.get("*") ?? 0;
  if (weight("br") > 0) return "br";
  if (weight("gzip") > 0) return "gzip";
  return null;
}

/**
 * Sends `body` compressed as the client accepts, for answers the route hook does not reach (the pages
 * come from the not-found handler).
 */
export function sendCompressed(request: FastifyRequest, reply: FastifyReply, body: string): FastifyReply {
  const bytes = Buffer.from(body, "utf8");
  const encoding =
    bytes.length < COMPRESS_THRESHOLD_BYTES ? null : acceptedEncoding(request.headers["accept-encoding"]);
  reply.header("Vary", "accept-encoding");
  switch (encoding) {
    case null:
      return reply.send(bytes);
    case "br":
      return reply
        .header("Content-Encoding", "br")
        .send(brotliCompressSync(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY } }));
    case "gzip":
      return reply.header("Content-Encoding", "gzip").send(gzipSync(bytes));
  }
}

/** The codings a header lists, lower case, in order ("gzip, chunked" as ["gzip", "chunked"]). */
const codings = (header: string | string[] | undefined) =>
  (Array.isArray(header) ? header.join(",") : (header ?? ""))
    .split(",")
    .map((coding) => coding.trim().toLowerCase())
    .filter((coding) => coding !== "");

/**
 * Why a request's body is refused for its codings, if it is: any content coding but `identity`
 * (RFC 9110 8.4), or any transfer coding but `chunked` (RFC 9112 6.1). Node's HTTP parser takes the
 * chunks of `Transfer-Encoding: gzip, chunked` off and hands on the rest as it came, so the body would
 * be read as if it were not compressed at all.
 */
export function compressedBodyRefusal(headers: IncomingHttpHeaders) {
  const content = headers["content-encoding"];
  const transfer = headers["transfer-encoding"];
  // Most requests carry neither, or plain chunks: nothing to split.
  if (content === undefined && (transfer === undefined || transfer === "chunked")) return undefined;
  if (codings(headers["content-encoding"]).some((coding) => coding !== "identity")) {
    return fieldError(
      "content-encoding",
      "Compressed request bodies are not accepted: send the body as it is.",
    );
  }
  if (codings(headers["transfer-encoding"]).some((coding) => coding !== "chunked")) {
    return fieldError(
      "transfer-encoding",
      "Compressed request bodies are not accepted: send the body as it is, or chunked.",
    );
  }
  return undefined;
}
