import { describe, expect, test, beforeAll } from "bun:test";
import { testStack } from "../harness";

/**
 * Answers that come without reading a large body (a 401, an unknown path's 404, a declared length over
 * BODY_LIMIT_BYTES) must reach a client that is still sending it, whatever the concurrency: Node's
 * fetch (in a `node` child process, as real clients run) sends 8 at a time, ~1 MB each, with a
 * Content-Length, and every one must read its answer, never EPIPE or a reset.
 */
let baseUrl: string;
let adminKey: string;

beforeAll(async () => {
  ({ baseUrl, adminKey } = await testStack());
});

/** Sends `total` POSTs, `parallel` at a time, cycling over the targets; prints the outcomes per target. */
const NODE_CLIENT = `
const [base, key, total, parallel, streamedArg] = process.argv.slice(1);
const targets = [
  { path: "/v1/memories", auth: false },
  { path: "/v1/no-such-route", auth: false },
  { path: "/v1/no-such-route", auth: true },
  { path: "/v1/memories", auth: true, over: true },
  { path: "/v1/memories", auth: "unknown" },
];
const outcomes = {};
let next = 0;
async function one(i) {
  const t = targets[i % targets.length];
  // 0.9-1.2 MB; over the 1 MiB limit for the over-limit target.
  const size = t.over ? 1_100_000 + (i % 7) * 15_000 : 900_000 + (i % 13) * 23_000;
  const headers = { "Content-Type": "application/json" };
  const unknown = "svc_live_" + "A".repeat(31) + (i % 10);
  if (t.auth) headers.Authorization = "Bearer " + (t.auth === "unknown" ? unknown : key);
  const who = t.auth === "unknown" ? "unknown key " : t.auth ? "key " : "no key ";
  const label = who + t.path + (t.over ? " over" : "");
  let outcome;
  try {
    const bytes = Buffer.alloc(size, 0x20);
    const chunks = (c) => {
      for (let at = 0; at < bytes.length; at += 65536) c.enqueue(bytes.subarray(at, at + 65536));
      c.close();
    };
    const body = streamedArg === "1" ? new ReadableStream({ start: chunks }) : bytes;
    const res = await fetch(base + t.path, { method: "POST", body, headers, duplex: "half" });
    const answer = await res.json();
    outcome = String(res.status) + " " + (answer.error?.code ?? "no envelope");
  } catch (err) {
    outcome = "error " + String(err.cause?.code ?? err);
  }
  outcomes[label] ??= {};
  outcomes[label][outcome] = (outcomes[label][outcome] ?? 0) + 1;
}
async function lane() {
  while (next < Number(total)) await one(next++);
}
await Promise.all(Array.from({ length: Number(parallel) }, lane));
console.log(JSON.stringify(outcomes));
`;

async function send(total: number, parallel: number, streamed: boolean) {
  const argv = ["node", "--input-type=module", "-e", NODE_CLIENT, baseUrl, adminKey, String(total), String(parallel)];
  argv.push(streamed ? "1" : "0");
  const proc = Bun.spawn(argv, { stdout: "pipe", stderr: "inherit" });
  const out = await new Response(proc.stdout).text();
  expect(await proc.exited).toBe(0);
  return JSON.parse(out) as Record<string, Record<string, number>>;
}

describe("answers to large bodies they do not read, 8 at a time: every one arrives", () => {
  test.each([
    ["with a Content-Length", false],
    ["streamed (chunked)", true],
  ])(
    "%s, 500 requests of ~1 MB",
    async (label, streamed) => {
      const started = performance.now();
      const outcomes = await send(500, 8, streamed);
      console.log(`${label}: ${JSON.stringify(outcomes)} in ${Math.round(performance.now() - started)} ms`);
      expect(outcomes).toEqual({
        "no key /v1/memories": { "401 UNAUTHORIZED": 100 },
        "unknown key /v1/memories": { "401 UNAUTHORIZED": 100 },
        "no key /v1/no-such-route": { "404 NOT_FOUND": 100 },
        "key /v1/no-such-route": { "404 NOT_FOUND": 100 },
        "key /v1/memories over": { "400 VALIDATION_ERROR": 100 },
      });
    },
    120_000,
  );
});
