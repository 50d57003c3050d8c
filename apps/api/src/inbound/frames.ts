/**
 * MLLP framing of an inbound connection (HL7 v2.5.1 Appendix C): a frame is the bytes between a start
 * block (0x0B) and an end block (0x1C 0x0D), which may arrive split across any number of packets.
 * Bytes before the start block are not part of the frame.
 *
 * A frame is kept whole up to `maxBytes`. Past that only its first bytes are kept (enough to read its
 * MSH and answer it) and the rest is read and dropped until its end block: the frame is then handed on
 * as over the limit, and the connection stays in step for the next one. A frame still unended after
 * `dropBytes` is handed on as unended: the connection is to be answered and closed.
 */
import { MLLP_START } from "../delivery/mllp.js";

const FS = 0x1c;
const CR = 0x0d;

/** How much of an over-size frame is kept: its MSH is within it. */
export const OVERSIZE_HEAD_BYTES = 64 * 1024;

export type Frame =
  | { kind: "message"; bytes: Buffer }
  /** Over the limit: `head` is its first bytes, `size` all it had (to its end, or so far). */
  | { kind: "oversize"; head: Buffer; size: number; ended: boolean };

export class MllpFrameReader {
  private parts: Buffer[] = [];
  private kept = 0;
  private size = 0;
  /** The previous packet ended with 0x1C: an end block if this one begins with 0x0D. */
  private pendingFs = false;
  private stopped = false;

  constructor(
    private readonly maxBytes: number,
    private readonly dropBytes: number,
  ) {}

  /** Takes one packet; answers the frames it completed, in order. After an unended frame, nothing more. */
  push(packet: Buffer): Frame[] {
    const frames: Frame[] = [];
    let from = 0;
    if (this.pendingFs) {
      this.pendingFs = false;
      if (packet[0] === CR) {
        frames.push(this.end());
        from = 1;
      } else {
        this.append(Buffer.from([FS]));
      }
    }
    while (!this.stopped && from < packet.length) {
      const fs = packet.indexOf(FS, from);
      if (fs === -1) {
        this.append(packet.subarray(from));
        break;
      }
      if (fs === packet.length - 1) {
        this.append(packet.subarray(from, fs));
        this.pendingFs = true;
        break;
      }
      if (packet[fs + 1] === CR) {
        this.append(packet.subarray(from, fs));
        frames.push(this.end());
        from = fs + 2;
      } else {
        // A lone 0x1C is part of the message.
        this.append(packet.subarray(from, fs + 1));
        from = fs + 1;
      }
    }
    if (!this.stopped && this.size > this.dropBytes) {
      this.stopped = true;
      frames.push({ kind: "oversize", head: this.frameBytes(), size: this.size, ended: false });
      this.reset();
    }
    return frames;
  }

  private append(bytes: Buffer): void {
    if (bytes.length === 0) return;
    this.size += bytes.length;
    const room = (this.size > this.maxBytes ? OVERSIZE_HEAD_BYTES : this.maxBytes + 1) - this.kept;
    if (room <= 0) {
      if (this.kept > OVERSIZE_HEAD_BYTES) this.trimToHead();
      return;
    }
    const taken = bytes.length > room ? bytes.subarray(0, room) : bytes;
    // A packet's buffer is not kept: only the bytes of the frame are.
    this.parts.push(Buffer.from(taken));
    this.kept += taken.length;
    if (this.size > this.maxBytes && this.kept > OVERSIZE_HEAD_BYTES) this.trimToHead();
  }

  private trimToHead(): void {
    const head = Buffer.concat(this.parts).subarray(0, OVERSIZE_HEAD_BYTES);
    this.parts = [Buffer.from(head)];
    this.kept = head.length;
  }

  /** The frame's bytes from after its start block (all of them when it has none). */
  private frameBytes(): Buffer {
    const all = this.parts.length === 1 ? this.parts[0]! : Buffer.concat(this.parts);
    const start = all.indexOf(MLLP_START);
    return start === -1 ? all : all.subarray(start + 1);
  }

  private end(): Frame {
    const bytes = this.frameBytes();
    const size = this.size;
    this.reset();
    if (size > this.maxBytes) return { kind: "oversize", head: bytes, size, ended: true };
    return { kind: "message", bytes };
  }

  private reset(): void {
    this.parts = [];
    this.kept = 0;
    this.size = 0;
  }
}
