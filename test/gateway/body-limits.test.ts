import { describe, expect, test, beforeAll } from "bun:test";
import { rmSync } from "node:fs";
import { connect } from "node:net";
import { testStack } from "../harness";

/**
 * Bodies over BODY_LIMIT_BYTES (1 MiB here), up to 64 MiB, sent by real clients: Node's fetch (run
 * in a `node` child process: the tests run under Bun, whose fetch behaves differently) and curl.
 * Each must read the 400 `max_bytes` envelope, not EPIPE or a bare 413.
 */
let baseUrl: string;
let adminKey: string;

beforeAll(async () => {
  ({ baseUrl, adminKey } = await testStack());
});

const MIB = 1024 * 1024;

/** Node's fetch POSTs `size` bytes (with a Content-Length, or streamed without one); prints what it got. */
const NODE_CLIENT = `
const [url, key, size, streamed] = process.argv.slice(1);
const bytes = Buffer.alloc(Number(size), 0x20);
const chunks = (c) => {
  for (let i = 0; i < bytes.length; i += 65536) c.enqueue(bytes.subarray(i, i + 65536));
  c.close();
};
const body = streamed === "1" ? new ReadableStream({ start: chunks }) : bytes;
const headers = { "Content-Type": "application/json", Authorization: "Bearer " + key };
try {
  const res = await fetch(url, { method: "POST", body, duplex: "half", headers });
  console.log(JSON.stringify({ status: res.status, body: await res.text() }));
} catch (err) {
  console.log(JSON.stringify({ error: String(err.cause?.code ?? err) }));
}
`;

interface Outcome {
  status?: number;
  body?: string;
  error?: string;
}

async function nodeFetch(path: string, size: number, streamed: boolean): Promise<Outcome> {
  const argv = ["node", "--input-type=module", "-e", NODE_CLIENT, `${baseUrl}${path}`, adminKey, String(size)];
  argv.push(streamed ? "1" : "0");
  const proc = Bun.spawn(argv, { stdout: "pipe", stderr: "inherit" });
  const out = await new Response(proc.stdout).text();
  expect(await proc.exited).toBe(0);
  return JSON.parse(out);
}

/** curl POSTs a file's bytes, declared with Content-Length or sent chunked. */
async function curl(path: string, file: string, chunked: boolean): Promise<Outcome> {
  const args = ["curl", "-s", "-o", "-", "-w", "\n%{http_code}", "-X", "POST", "--data-binary", `@${file}`];
  args.push("-H", `Authorization: Bearer ${adminKey}`, "-H", "Content-Type: application/json");
  if (chunked) args.push("-H", "Transfer-Encoding: chunked");
  const proc = Bun.spawn([...args, `${baseUrl}${path}`], { stdout: "pipe", stderr: "inherit" });
  const out = await new Response(proc.stdout).text();
  await proc.exited;
  const cut = out.lastIndexOf("\n");
  return { status: Number(out.slice(cut + 1)), body: out.slice(0, cut) };
}

const expectMaxBytes = (res: Outcome) => {
  expect(res.error).toBeUndefined();
  expect(res.status).toBe(400);
  const body = JSON.parse(res.body!);
  expect(body.error).toEqual({
    code: "VALIDATION_ERROR",
    message: `Request body exceeds ${MIB} bytes`,
    details: { field: "body", constraint: "max_bytes", max: MIB },
  });
  expect(typeof body.meta.request_id).toBe("string");
};

describe("a body over the limit, up to 64 MiB: every client reads the 400 max_bytes envelope", () => {
  test.each([
    ["5 MiB", 5 * MIB],
    ["64 MiB", 64 * MIB],
  ])("Node's fetch, %s POST /v1/memories, with a Content-Length and streamed", async (_label, size) => {
    expectMaxBytes(await nodeFetch("/v1/memories", size, false));
    expectMaxBytes(await nodeFetch("/v1/memories", size, true));
  });

  test("Node's fetch, 5 MiB to /graphql: the same limit, in a GraphQL error", async () => {
    const res = await nodeFetch("/graphql", 5 * MIB, false);
    expect(res.status).toBe(400);
    const { details } = JSON.parse(res.body!).errors[0].extensions;
    expect(details).toEqual({ field: "body", constraint: "max_bytes", max: MIB });
  });

  test("curl, 5 and 64 MiB, with a Content-Length and chunked", async () => {
    for (const size of [5 * MIB, 64 * MIB]) {
      const file = `${process.env.TEST_DATA_ROOT ?? "/tmp"}/body-${size}.bin`;
      await Bun.write(file, new Uint8Array(size).fill(0x20));
      try {
        expectMaxBytes(await curl("/v1/memories", file, false));
        expectMaxBytes(await curl("/v1/memories", file, true));
      } finally {
        rmSync(file, { force: true });
      }
    }
  });
});

/**
 * Sends a request whose chunked body never ends: one chunk, then (with `answerFirst`) a pause until
 * the answer is read, then chunks as fast as the server takes them, for up to `forMs`. Resolves with
 * the answer read and whether the server closed the connection meanwhile.
 */
function endlessChunked(head: string, opts: { answerFirst: boolean; forMs: number }) {
  const { hostname, port } = new URL(baseUrl);
  return new Promise<{ response: string; closed: boolean; sent: number }>((resolve) => {
    const socket = connect(Number(port), hostname);
    const chunk = Buffer.concat([Buffer.from("10000\r\n"), Buffer.alloc(0x10000, 0x20), Buffer.from("\r\n")]);
    let response = "";
    let sent = 0;
    let pumping = false;
    let finished = false;
    const finish = (closed: boolean) => {
      if (finished) return;
      finished = true;
      clearTimeout(timer);
      socket.destroy();
      resolve({ response, closed, sent });
    };
    const timer = setTimeout(() => finish(false), opts.forMs);
    const pump = () => {
      pumping = true;
      // Every chunk handed to the socket counts, the one that fills its buffer too.
      for (let more = true; !finished && more; sent += chunk.length) more = socket.write(chunk);
      if (!finished) socket.once("drain", pump);
    };
    socket.on("connect", () => {
      socket.write(`${head}\r\nHost: ${hostname}\r\nTransfer-Encoding: chunked\r\n\r\n`);
      socket.write(chunk);
      sent += chunk.length;
      if (!opts.answerFirst) pump();
    });
    socket.on("data", (d) => {
      response += d.toString("latin1");
      if (!pumping && response.includes("\r\n\r\n")) setTimeout(pump, 50);
    });
    socket.on("close", () => finish(true));
    socket.on("error", () => finish(true));
  });
}

describe("a chunked body that never ends is not drained for ever: the connection closes", () => {
  test.each([
    ["to a route that reads no body", "GET /v1/tags HTTP/1.1\r\nAuthorization: Bearer {key}", "200"],
    ["refused before it is read (401)", "POST /v1/memories HTTP/1.1", "401"],
    ["to no route (404)", "POST /v1/nope HTTP/1.1", "404"],
    ["with a method the path does not serve (405)", "PUT /v1/tags HTTP/1.1", "405"],
  ])("%s: answered with Connection: close, then closed", async (_label, head, status) => {
    const request = head.replace("{key}", adminKey);
    const { response, closed } = await endlessChunked(request, { answerFirst: true, forMs: 5000 });
    expect(response).toStartWith(`HTTP/1.1 ${status} `);
    expect(response.toLowerCase()).toContain("connection: close");
    expect(closed).toBe(true);
  });

  test("over the limit: read and dropped up to 64 MiB, then closed (the answer may be lost to the reset)", async () => {
    const head = `POST /v1/memories HTTP/1.1\r\nAuthorization: Bearer ${adminKey}`;
    const { closed, sent } = await endlessChunked(head, { answerFirst: false, forMs: 8000 });
    expect(closed).toBe(true);
    expect(sent).toBeGreaterThan(64 * MIB);
    expect(sent).toBeLessThan(256 * MIB);
  });
});
