/**
 * Reads a V8 CPU profile (`node --cpu-prof`): where the process's time went between two moments, by
 * function and by the package or part of the API that holds it, as self time (the time a function was
 * on top of the stack, not counting what it called).
 */
import { readFileSync } from "node:fs";

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
}

interface Profile {
  nodes: ProfileNode[];
  /** Microseconds on the monotonic clock (CLOCK_MONOTONIC on Linux, as `process.hrtime`). */
  startTime: number;
  samples: number[];
  /** Microseconds from the sample before (the first: from startTime). */
  timeDeltas: number[];
}

export interface SelfTime {
  name: string;
  microseconds: number;
}

export interface ProfileWindow {
  /** Sampled time in the window that was not idle, in microseconds. */
  busy: number;
  byFunction: SelfTime[];
  byArea: SelfTime[];
}

const IDLE = "(idle)";

/** Where a script lives, in a few words: its package, a part of the API, or Node itself. */
function areaOf(url: string, functionName: string): string {
  if (url === "") return functionName.startsWith("(") ? functionName : "(native)";
  if (url.startsWith("node:")) return "node";
  const pnpm = /node_modules\/\.pnpm\/[^/]+\/node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(url);
  if (pnpm?.[1] !== undefined) return pnpm[1];
  const module = /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(url);
  if (module?.[1] !== undefined) return module[1];
  const ours = /(apps\/api\/dist|packages\/[^/]+\/dist)\/(.+?)(?:\.js)?$/.exec(url);
  if (ours?.[1] !== undefined) {
    const part = ours[2]?.split("/")[0] ?? "";
    return ours[1] === "apps/api/dist" ? `api ${part}` : `@core-care/${ours[1].split("/")[1]}`;
  }
  return url.replace(/^file:\/\//, "");
}

/** A function named with its file and line, the file shortened to its package or the API's path. */
function functionOf(node: ProfileNode): string {
  const { functionName, url, lineNumber } = node.callFrame;
  if (url === "") return functionName || "(anonymous)";
  const file =
    /node_modules\/\.pnpm\/[^/]+\/node_modules\/(.+)$/.exec(url)?.[1] ??
    /(?:apps\/api|packages\/[^/]+)\/(dist\/.+)$/.exec(url)?.[1] ??
    url.replace(/^file:\/\//, "");
  return `${functionName || "(anonymous)"} ${file}:${lineNumber + 1}`;
}

/**
 * The self time of each function and area over the samples taken between `from` and `to`
 * (microseconds on the monotonic clock), highest first; a sample counts for the time until the next.
 */
export function profileWindow(path: string, from: number, to: number): ProfileWindow {
  const profile = JSON.parse(readFileSync(path, "utf8")) as Profile;
  const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
  const byFunction = new Map<string, number>();
  const byArea = new Map<string, number>();
  let busy = 0;
  let at = profile.startTime;
  for (let k = 0; k < profile.samples.length; k++) {
    at += profile.timeDeltas[k] ?? 0;
    const spent = profile.timeDeltas[k + 1] ?? 0;
    if (at < from || at >= to) continue;
    const node = nodes.get(profile.samples[k] ?? -1);
    if (node === undefined || node.callFrame.functionName === IDLE) continue;
    busy += spent;
    const name = functionOf(node);
    byFunction.set(name, (byFunction.get(name) ?? 0) + spent);
    const area = areaOf(node.callFrame.url, node.callFrame.functionName);
    byArea.set(area, (byArea.get(area) ?? 0) + spent);
  }
  const sorted = (map: Map<string, number>) =>
    [...map.entries()]
      .map(([name, microseconds]) => ({ name, microseconds }))
      .sort((a, b) => b.microseconds - a.microseconds);
  return { busy, byFunction: sorted(byFunction), byArea: sorted(byArea) };
}
