/**
 * Another client's requests while one client sends bodies built to be costly to parse, as fast as the
 * rate limit lets one client (RATE_LIMIT_PER_MINUTE, 1,200 a minute by default: 20 a second): the API
 * runs as production runs it (bench/api-process.ts), and a second client's `GET /api/config` is timed
 * alone and beside each attack, in turns, in the same run. The bodies: the two of the report that
 * froze the server (100,000 keys in 1.5 MB; 60,000 small nested arrays in 1.3 MB), one a million levels
 * deep, and the heaviest body the limits let through to the schema (19 objects of 1,000 keys). The
 * ratio of p99 with the attack to p99 alone is the figure (target: within 2x).
 *
 *   pnpm --filter @core-care/api exec tsx --conditions=source bench/wide-body.ts   # PGlite, and PostgreSQL with DATABASE_URL
 *
 * BENCH_WIDE_SECONDS per case (default 15), BENCH_DATABASES=pglite or postgres for one of them.
 */
import { Agent, request } from "node:http";
import { loadavg } from "node:os";
import { performance } from "node:perf_hooks";
import autocannon from "autocannon";
import { benchDatabase, cpuSecondsOf, ensureBuilt, startApi, type ApiProcess } from "./api-process.js";

const SECONDS = Number(process.env.BENCH_WIDE_SECONDS ?? 15);
const RATE_LIMIT_PER_MINUTE = 1200;
const ATTACK_RATE = RATE_LIMIT_PER_MINUTE / 60;
/** The other client: this many requests a second, over this many kept-alive connections. */
const VICTIM_RATE = 50;
const VICTIM_CONNECTIONS = 4;
/**
 * The other client's addresses (the server trusts X-Forwarded-For here, as behind its proxy), taken in
 * turn so that its own requests stay within the per-address limit; the attacker has one of its own.
 */
const VICTIM_ADDRESSES = Array.from({ length: 16 }, (_, i) => `10.1.0.${i + 1}`);
const ATTACKER_ADDRESS = "10.2.0.1";

const key = (i: number) => `"key_${String(i).padStart(6, "0")}"`;
const ATTACKS: { name: string; body: string }[] = [
  {
    name: "100,000 keys",
    body: `{${Array.from({ length: 100_000 }, (_, i) => `${key(i)}:1`).join(",")}}`,
  },
  {
    name: "60,000 small nested arrays",
    body: `{"a":[${Array.from({ length: 60_000 }, () => "[[10,11],[12,[13,14]]]").join(",")}]}`,
  },
  { name: "1,000,000 levels deep", body: `{"a":${"[".repeat(1_000_000)}${"]".repeat(1_000_000)}}` },
  {
    name: "19 objects of 1,000 keys (admitted)",
    body: `{"a":[${Array.from({ length: 19 }, (_, o) => `{${Array.from({ length: 1_000 }, (_, i) => `${key(o * 1000 + i)}:1`).join(",")}}`).join(",")}]}`,
  },
];

interface Timing {
  p50: number;
  p99: number;
  max: number;
  count: number;
  failed: number;
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;

/**
 * The other client: GET /api/config at VICTIM_RATE a second for `seconds`, each request's time taken
 * from when it was due (a request held up by the server delays those after it, and that counts).
 */
async function victim(base: string, seconds: number): Promise<Timing> {
  const agent = new Agent({ keepAlive: true, maxSockets: VICTIM_CONNECTIONS });
  const times: number[] = [];
  let failed = 0;
  const start = performance.now();
  const total = Math.round(VICTIM_RATE * seconds);
  const one = (due: number, n: number) =>
    new Promise<void>((resolve) => {
      const req = request(
        `${base}/api/config`,
        { agent, headers: { "x-forwarded-for": VICTIM_ADDRESSES[n % VICTIM_ADDRESSES.length]! } },
        (res) => {
          res.resume();
          res.on("end", () => {
            if (res.statusCode === 200) times.push(performance.now() - due);
            else failed++;
            resolve();
          });
        },
      );
      req.on("error", () => {
        failed++;
        resolve();
      });
      req.end();
    });
  const pending: Promise<void>[] = [];
  for (let n = 0; n < total; n++) {
    const due = start + (n * 1000) / VICTIM_RATE;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    pending.push(one(due, n));
  }
  await Promise.all(pending);
  agent.destroy();
  times.sort((a, b) => a - b);
  return {
    p50: percentile(times, 50),
    p99: percentile(times, 99),
    max: times.at(-1) ?? 0,
    count: times.length,
    failed,
  };
}

/** The attacker: the body to the anonymous sign-in at the rate limit's pace, in a worker thread. */
function attack(base: string, body: string, seconds: number) {
  return autocannon({
    url: `${base}/api/auth/sessions`,
    connections: 4,
    overallRate: ATTACK_RATE,
    duration: seconds,
    workers: 1,
    method: "POST",
    headers: {
      "content-type": "application/json",
      "x-requested-with": "XMLHttpRequest",
      "x-forwarded-for": ATTACKER_ADDRESS,
    },
    body,
  });
}

interface Row {
  database: string;
  attack: string;
  bodyMB: number;
  "p50 alone": number;
  "p99 alone": number;
  "p50 attacked": number;
  "p99 attacked": number;
  "max attacked": number;
  "p99 ratio": number;
  "attacks answered": string;
  "API CPU %": number;
  load: string;
}

const round = (n: number, digits = 2) => Number(n.toFixed(digits));

async function measure(kind: "pglite" | "postgres", api: ApiProcess): Promise<Row[]> {
  const rows: Row[] = [];
  // Warm: the routes compiled and the connections open before anything is timed.
  await victim(api.base, 2);
  await attack(api.base, ATTACKS[0]!.body, 2);
  for (const { name, body } of ATTACKS) {
    const alone = await victim(api.base, SECONDS);
    const cpuBefore = cpuSecondsOf(api.pid);
    const clock = performance.now();
    const [attacked, sent] = await Promise.all([victim(api.base, SECONDS), attack(api.base, body, SECONDS)]);
    const cpu = (cpuSecondsOf(api.pid) - cpuBefore) / ((performance.now() - clock) / 1000);
    const codes = Object.entries(sent.statusCodeStats ?? {})
      .map(([code, { count }]) => `${count} x ${code}`)
      .join(", ");
    rows.push({
      database: kind,
      attack: name,
      bodyMB: round(Buffer.byteLength(body) / 1e6),
      "p50 alone": round(alone.p50),
      "p99 alone": round(alone.p99),
      "p50 attacked": round(attacked.p50),
      "p99 attacked": round(attacked.p99),
      "max attacked": round(attacked.max),
      "p99 ratio": round(attacked.p99 / Math.max(alone.p99, 0.001)),
      "attacks answered":
        codes + (sent.errors + sent.timeouts > 0 ? `, ${sent.errors + sent.timeouts} errors` : ""),
      "API CPU %": Math.round(cpu * 100),
      load: loadavg()
        .map((l) => l.toFixed(2))
        .join(" "),
    });
    if (alone.failed + attacked.failed > 0) {
      console.log(`${kind} ${name}: the other client had ${alone.failed + attacked.failed} requests fail`);
    }
  }
  return rows;
}

ensureBuilt();
const kinds: ("pglite" | "postgres")[] = process.env.DATABASE_URL ? ["pglite", "postgres"] : ["pglite"];
const only = process.env.BENCH_DATABASES;
if (only !== undefined && only !== "")
  kinds.splice(0, kinds.length, ...kinds.filter((k) => only.includes(k)));
const rows: Row[] = [];
for (const kind of kinds) {
  const database = await benchDatabase(kind);
  try {
    const api = await startApi({ database, env: { RATE_LIMIT_PER_MINUTE: String(RATE_LIMIT_PER_MINUTE) } });
    try {
      rows.push(...(await measure(kind, api)));
    } finally {
      await api.stop();
    }
  } finally {
    await database.drop();
  }
}

console.log(
  `\nGET /api/config of another client (${VICTIM_RATE}/s, ${VICTIM_CONNECTIONS} connections) alone and while one ` +
    `client posts each body to the anonymous sign-in at ${ATTACK_RATE}/s (its rate limit), ${SECONDS} s each; ` +
    `times in ms, from when each request was due\n`,
);
console.table(rows);
for (const row of rows) {
  console.log(
    `${row.database} ${row.attack}: p99 ${row["p99 attacked"]} ms attacked against ${row["p99 alone"]} ms alone, ` +
      `${row["p99 ratio"]}x (target: within 2x), load ${row.load}`,
  );
}
