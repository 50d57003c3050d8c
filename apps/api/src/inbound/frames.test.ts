import { describe, expect, test } from "vitest";
import { frameMllp } from "../delivery/mllp.js";
import { MllpFrameReader, OVERSIZE_HEAD_BYTES, type Frame } from "./frames.js";

const text = (frames: Frame[]) =>
  frames.map((f) => (f.kind === "message" ? f.bytes.toString("utf8") : `oversize ${f.size} ${f.ended}`));

/** Feeds the bytes in packets of the given sizes (the last one taking what is left). */
function feed(reader: MllpFrameReader, bytes: Buffer, sizes: number[]): Frame[] {
  const frames: Frame[] = [];
  let at = 0;
  for (const size of sizes) {
    frames.push(...reader.push(bytes.subarray(at, at + size)));
    at += size;
  }
  if (at < bytes.length) frames.push(...reader.push(bytes.subarray(at)));
  return frames;
}

describe("MLLP frames", () => {
  test("a frame split into packets anywhere, the end block across two of them, is read whole", () => {
    const bytes = Buffer.concat([frameMllp("MSH|one"), frameMllp("MSH|two\u001cx")]);
    for (let cut = 1; cut < bytes.length; cut++) {
      expect(text(feed(new MllpFrameReader(100, 800), bytes, [cut]))).toEqual(["MSH|one", "MSH|two\u001cx"]);
    }
    // One byte at a time.
    const reader = new MllpFrameReader(100, 800);
    expect(
      text(
        feed(
          reader,
          bytes,
          Array.from({ length: bytes.length }, () => 1),
        ),
      ),
    ).toEqual(["MSH|one", "MSH|two\u001cx"]);
  });

  test("bytes before the start block are not part of the frame; a frame without one is read as sent", () => {
    const reader = new MllpFrameReader(100, 800);
    expect(text(reader.push(Buffer.from("\r\nnoise\u000bMSH|a\u001c\r\u001c\r")))).toEqual(["MSH|a", ""]);
  });

  test("a frame over the limit is read to its end and handed on with its head only", () => {
    const reader = new MllpFrameReader(1000, 8000);
    const big = frameMllp(`MSH|^~\\&|A|B|C|D|||ADT^A04|BIG1|P|2.5.1\r${"x".repeat(5000)}`);
    const frames = feed(reader, Buffer.concat([big, frameMllp("MSH|next")]), [700, 700, 700]);
    expect(text(frames)).toEqual([`oversize ${big.length - 2} true`, "MSH|next"]);
    const head = frames[0]!.kind === "oversize" ? frames[0]!.head : Buffer.alloc(0);
    expect(head.toString("latin1")).toMatch(/^MSH\|\^~\\&\|A\|B\|C\|D\|\|\|ADT\^A04\|BIG1\|/);
  });

  test("what is kept of an over-size frame stays bounded however long it runs", () => {
    const reader = new MllpFrameReader(OVERSIZE_HEAD_BYTES * 2, OVERSIZE_HEAD_BYTES * 64);
    const packet = Buffer.alloc(60_000, "y");
    reader.push(Buffer.from("\u000bMSH|"));
    for (let i = 0; i < 40; i++) reader.push(packet);
    const kept = (reader as unknown as { kept: number }).kept;
    expect(kept).toBeLessThanOrEqual(OVERSIZE_HEAD_BYTES);
  });

  test("a frame still unended past the drop limit is handed on unended, and nothing after it", () => {
    const reader = new MllpFrameReader(100, 800);
    const frames = feed(reader, Buffer.concat([Buffer.from("\u000bMSH|"), Buffer.alloc(900, "z")]), [300]);
    expect(text(frames)).toEqual(["oversize 905 false"]);
    expect(reader.push(frameMllp("MSH|later"))).toEqual([]);
  });
});
