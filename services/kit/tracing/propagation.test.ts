import { afterAll, afterEach, beforeAll, describe, expect, test } from "bun:test";
import { AsyncLocalStorage } from "node:async_hooks";
import { Type as T } from "@sinclair/typebox";
import { connect, type NatsConnection } from "nats";
import { testStack } from "../../../test/harness";
import { op } from "../../contract/op";
import { createBus } from "../bus";
import { bind, type HandlerContext } from "../handler";
import type { Logger } from "../log";
import { serveBindings } from "../serve";
import { untracedSpan } from "./trace-context";
import { installTracer, type SpanOptions, type Tracer } from "./tracer";

/** The kit's side of tracing over real NATS: what a call carries, what a handler and its logs see. */
const outer = op({
  subject: `test.trace-outer.${crypto.randomUUID().slice(0, 8)}`,
  input: T.Object({}),
  output: T.Object({ trace: T.Any() }),
  summary: "outer",
});
const inner = op({
  subject: `test.trace-inner.${crypto.randomUUID().slice(0, 8)}`,
  input: T.Object({}),
  output: T.Object({ trace: T.Any() }),
  summary: "inner",
});

/** A logger that keeps the fields of every child it makes. */
function recordingLogger(children: Record<string, unknown>[]): Logger {
  const logger = (fields: Record<string, unknown>): Logger => ({
    debug() {},
    info() {},
    warn() {},
    error() {},
    child(more) {
      const all = { ...fields, ...more };
      children.push(all);
      return logger(all);
    },
  });
  return logger({});
}

/** A tracer that records spans as plain objects: the kit's adapters, without the SDK. */
function recordingTracer(
  spans: ({ name: string; ended: boolean; ids: ReturnType<typeof untracedSpan> } & SpanOptions)[],
) {
  const t: Tracer = {
    start(name, opts) {
      const ids = untracedSpan(opts.parent ?? null);
      const span = { name, ...opts, ids: { ...ids, sampled: true }, ended: false };
      spans.push(span);
      return { ids: span.ids, set() {}, fail() {}, end: () => void (span.ended = true) };
    },
    flush: async () => {},
  };
  return t;
}

let nc: NatsConnection;
beforeAll(async () => {
  nc = await connect({ servers: (await testStack()).natsUrl });
});
afterAll(() => nc.close());
afterEach(() => installTracer(null));

async function serveBoth(logs: Record<string, unknown>[]) {
  const bus = createBus(nc, { timeoutMs: 2000 });
  const seen = (ctx: HandlerContext) => ({ trace: ctx.trace ?? null });
  const served = await serveBindings(
    nc,
    { name: "tracetest", version: "0.0.1", description: "test" },
    [
      bind(outer, async (_input, ctx) => ({
        trace: { mine: ctx.trace, inner: (await bus.call(inner, {}, ctx)).trace },
      })),
      bind(inner, (_input, ctx) => seen(ctx)),
    ],
    recordingLogger(logs),
  );
  return { bus, served };
}

describe("trace context over NATS", () => {
  test("tracing off: the caller's ids reach the handler, and its logs carry trace_id beside request_id", async () => {
    const logs: Record<string, unknown>[] = [];
    const { bus, served } = await serveBoth(logs);
    // A trace a caller of the gateway started (continued there), not one the gateway made up.
    const trace = untracedSpan({ traceId: untracedSpan(null).traceId, spanId: "00f067aa0ba902b7", sampled: false });
    const got = await bus.call(outer, {}, { requestId: "req-1", trace });
    expect(got.trace.mine).toEqual(trace);
    expect(got.trace.inner).toEqual(trace); // a handler's own calls pass its context on
    expect(logs).toContainEqual(expect.objectContaining({ request_id: "req-1", trace_id: trace.traceId }));
    await bus.call(outer, {}, { requestId: "req-2" });
    expect(logs.find((l) => l.request_id === "req-2")).not.toHaveProperty("trace_id");
    // A trace started by the gateway while nothing records it stays there: its calls carry no header.
    const local = await bus.call(outer, {}, { requestId: "req-3", trace: untracedSpan(null) });
    expect(local.trace.mine).toBeNull();
    await served.stop();
  });

  test("tracing on: each call a client span, each handling a server span under it, nested calls below", async () => {
    const spans: Parameters<typeof recordingTracer>[0] = [];
    installTracer(recordingTracer(spans), new AsyncLocalStorage());
    const { bus, served } = await serveBoth([]);
    const request = untracedSpan(null);
    await bus.call(outer, {}, { requestId: "req-4", trace: request });
    const [call1, serve1, call2, serve2] = spans;
    expect(spans.map((s) => [s.name, s.kind])).toEqual([
      [outer.subject, "client"],
      [outer.subject, "server"],
      [inner.subject, "client"],
      [inner.subject, "server"],
    ]);
    expect(call1!.parent).toEqual(request);
    expect(serve1!.parent!.spanId).toBe(call1!.ids.spanId);
    // The nested call finds its parent, the running handler's span, without being handed it.
    expect(call2!.parent!.spanId).toBe(serve1!.ids.spanId);
    expect(serve2!.parent!.spanId).toBe(call2!.ids.spanId);
    expect(new Set(spans.map((s) => s.ids.traceId))).toEqual(new Set([request.traceId]));
    expect(spans.every((s) => s.ended)).toBe(true);
    await served.stop();
  });
});
