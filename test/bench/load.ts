import { spawnSync } from "node:child_process";
import { writeFileSync, mkdtempSync } from "node:fs";
import { join } from "node:path";
import { tmpdir } from "node:os";

export interface LoadResult {
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  requests: number;
}

export interface LoadSpec {
  url: string;
  method?: "GET" | "POST";
  headers?: Record<string, string>;
  body?: string;
  /** Several bodies to rotate through (e.g. distinct creates). */
  bodies?: string[];
  /**
   * A header whose value differs on every request (`<prefix><thread>-<n>`, e.g. an Idempotency-Key). Compare
   * a run that has one only with another that has one too: formatting each request costs wrk some CPU.
   */
  uniqueHeader?: { name: string; prefix: string };
  connections: number;
  durationS: number;
  /**
   * Each connection waits this long after an answer before its next request: a paced load below saturation
   * (about connections / (delay + latency) requests/s), where latencies are what to compare.
   */
  delayMs?: number;
}

let wrkPath: string | null | undefined;
function findWrk(): string | null {
  if (wrkPath !== undefined) return wrkPath;
  let found = Bun.which("wrk");
  if (!found && process.getuid?.() === 0) {
    // wrk is far lighter than a JS load generator on a 2-core machine; Debian packages it.
    spawnSync("apt-get", ["install", "-y", "wrk"], {
      stdio: "ignore",
      env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" },
    });
    found = Bun.which("wrk");
  }
  wrkPath = found ?? null;
  return wrkPath;
}

const ms = (v: string) => {
  const m = /([\d.]+)(us|ms|s)/.exec(v);
  if (!m) return NaN;
  const n = Number(m[1]);
  return m[2] === "us" ? n / 1000 : m[2] === "s" ? n * 1000 : n;
};

/** One bounded load run with wrk (2 threads), or autocannon when wrk is unavailable. */
export async function runLoad(spec: LoadSpec): Promise<LoadResult> {
  const wrk = findWrk();
  if (wrk) return runWrk(wrk, spec);
  return runAutocannon(spec);
}

function runWrk(wrk: string, spec: LoadSpec): LoadResult {
  const dir = mkdtempSync(join(tmpdir(), "wrk-"));
  const script = join(dir, "s.lua");
  const bodies = spec.bodies ?? (spec.body ? [spec.body] : []);
  const headerLines = Object.entries(spec.headers ?? {}).map(
    ([k, v]) => `wrk.headers[${JSON.stringify(k)}] = ${JSON.stringify(v)}`,
  );
  // No `response` callback: it makes wrk hand every status, header and body to Lua, which cost more
  // than the server's work on 20 KiB list pages (non-2xx are counted by wrk itself). Requests with
  // several bodies are formatted once, in init, and only rotated per request.
  const lines = [`wrk.method = "${spec.method ?? "GET"}"`, ...headerLines];
  if (spec.uniqueHeader) {
    // Unique per run too: a later run reusing an earlier one's values would replay (an Idempotency-Key).
    const { name } = spec.uniqueHeader;
    const prefix = `${spec.uniqueHeader.prefix}${crypto.randomUUID().slice(0, 8)}-`;
    lines.push(
      `local bodies = { ${(bodies.length ? bodies : [""]).map((b) => JSON.stringify(b)).join(", ")} }`,
      `local threads, i, headers = 0, 0, {}`,
      `setup = function(thread) threads = threads + 1; thread:set("tid", threads) end`,
      // wrk.format takes the headers given instead of wrk.headers: a copy of them, with the unique one set.
      `init = function() for k, v in pairs(wrk.headers) do headers[k] = v end end`,
      `request = function()`,
      `  i = i + 1`,
      `  headers[${JSON.stringify(name)}] = ${JSON.stringify(prefix)} .. tid .. "-" .. i`,
      `  return wrk.format(nil, nil, headers, bodies[i % #bodies + 1])`,
      `end`,
    );
  } else if (bodies.length === 1) lines.push(`wrk.body = ${JSON.stringify(bodies[0])}`);
  else if (bodies.length > 1) {
    lines.push(
      `local bodies = { ${bodies.map((b) => JSON.stringify(b)).join(", ")} }`,
      `local requests, i = {}, 0`,
      `init = function() for k, b in ipairs(bodies) do requests[k] = wrk.format(nil, nil, nil, b) end end`,
      `request = function() i = i % #requests + 1; return requests[i] end`,
    );
  }
  if (spec.delayMs) lines.push(`delay = function() return ${spec.delayMs} end`);
  writeFileSync(script, lines.join("\n"));
  const out = spawnSync(
    wrk,
    ["-t2", `-c${spec.connections}`, `-d${spec.durationS}s`, "--latency", "-s", script, spec.url],
    { encoding: "utf8" },
  );
  const text = out.stdout;
  const rps = Number(/Requests\/sec:\s+([\d.]+)/.exec(text)?.[1] ?? 0);
  const p50 = ms(/\s50%\s+(\S+)/.exec(text)?.[1] ?? "");
  const p99 = ms(/\s99%\s+(\S+)/.exec(text)?.[1] ?? "");
  const requests = Number(/(\d+) requests in/.exec(text)?.[1] ?? 0);
  const non2xx = Number(/Non-2xx or 3xx responses:\s+(\d+)/.exec(text)?.[1] ?? 0);
  const socket = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(text);
  const errors = non2xx + (socket ? socket.slice(1).reduce((a, b) => a + Number(b), 0) : 0);
  return { rps, p50, p99, errors, requests };
}

async function runAutocannon(spec: LoadSpec): Promise<LoadResult> {
  // @ts-ignore autocannon ships no types; only the fallback path uses it
  const autocannon = (await import("autocannon")).default;
  const result = await autocannon({
    url: spec.url,
    method: spec.method ?? "GET",
    headers: spec.headers,
    body: spec.body,
    connections: spec.connections,
    duration: spec.durationS,
  });
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.non2xx + result.errors,
    requests: result.requests.total,
  };
}

/** Runs `count` calls with at most `concurrency` in flight. */
export async function pool(count: number, concurrency: number, task: (i: number) => Promise<void>) {
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < count) await task(next++);
    }),
  );
}

export const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};

/** The p-th percentile (nearest rank) of a sample. */
export const percentile = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? Number.NaN;
};

/** Runs a spec `runs` times and reports the median of each figure. */
/** `beforeEach` runs before every run (e.g. to let background work finish outside the measured time). */
export async function medianOf(
  runs: number,
  spec: LoadSpec,
  beforeEach: () => Promise<unknown> = async () => undefined,
): Promise<LoadResult> {
  const results: LoadResult[] = [];
  for (let i = 0; i < runs; i++) {
    await beforeEach();
    results.push(await runLoad(spec));
  }
  return medianResult(results);
}

/** Runs specs in turn, `runs` rounds (a noisy machine's drift then weighs on each alike); the median of each. */
export async function interleavedMedians(
  runs: number,
  specs: LoadSpec[],
  beforeEach: () => Promise<unknown> = async () => undefined,
): Promise<LoadResult[]> {
  const results: LoadResult[][] = specs.map(() => []);
  for (let i = 0; i < runs; i++)
    for (const [j, spec] of specs.entries()) {
      await beforeEach();
      results[j]!.push(await runLoad(spec));
    }
  return results.map(medianResult);
}

/** The median of each figure of several runs; errors and requests summed. */
export const medianResult = (results: LoadResult[]): LoadResult => ({
  rps: median(results.map((r) => r.rps)),
  p50: median(results.map((r) => r.p50)),
  p99: median(results.map((r) => r.p99)),
  errors: results.reduce((a, r) => a + r.errors, 0),
  requests: results.reduce((a, r) => a + r.requests, 0),
});

export const fmt = (r: LoadResult) =>
  `${r.rps.toFixed(0).padStart(7)} req/s   p50 ${r.p50.toFixed(2).padStart(6)} ms   ` +
  `p99 ${r.p99.toFixed(2).padStart(6)} ms   errors ${r.errors}`;
