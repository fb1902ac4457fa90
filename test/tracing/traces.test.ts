import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync } from "node:fs";
import { join, resolve } from "node:path";
import { startStack, type Stack } from "../../scripts/stack/launch";
import { newTenant, type ApiClient } from "../api";
import { WEBHOOK_TEST_ENV } from "../harness";
import { eventually, receiver, register } from "../webhooks/webhook-helpers";
import { otlpReceiver, type ReceivedSpan } from "./otlp-receiver";
import { descends, KIND, one, traceOf } from "./trace-helpers";

/**
 * Traces across the gateway, NATS, the services and Redis, exported over OTLP/HTTP to a receiver in the test:
 * a stack of its own with tracing on (http/json, spans exported every 100 ms), a second gateway exporting
 * http/protobuf.
 */
const collector = otlpReceiver();
const hooks = receiver();
const SECRET = `the patient's secret ${crypto.randomUUID()}`;
let stack: Stack;
let tenant: Awaited<ReturnType<typeof newTenant>>;
let api: ApiClient;
let memoryId: string;

beforeAll(async () => {
  const root = resolve(process.env.TEST_DATA_ROOT ?? ".data-test");
  stack = await startStack({
    dataDir: mkdtempSync(join(root, "tracing-")),
    env: {
      LOG_LEVEL: "warn",
      RATE_LIMIT_PER_MINUTE: "100000",
      ...WEBHOOK_TEST_ENV,
      OTEL_EXPORTER_OTLP_ENDPOINT: collector.url,
      OTEL_EXPORTER_OTLP_PROTOCOL: "http/json",
      OTEL_BSP_SCHEDULE_DELAY: "100",
    },
  });
  tenant = await newTenant(stack.baseUrl, stack.adminKey);
  api = tenant.api;
  await register(api, hooks.url("/traced"), ["memory.created"]);
}, 120_000);

afterAll(() => stack?.stop(), 60_000);

/** The spans of a trace, once `ready` finds what it waits for among them. */
const spansOnceThere = (traceId: string, ready: (spans: ReceivedSpan[]) => boolean, ms = 20_000) =>
  eventually(
    () => {
      const spans = collector.inTrace(traceId);
      return ready(spans) && spans;
    },
    ms,
    `the spans of trace ${traceId}`,
  );

/** Whether the spans `expectGatewayToRedis` looks at have all arrived (each process exports on its own). */
const gatewayToRedis = (gatewaySpanId: string, subject: string, service: string) => (spans: ReceivedSpan[]) =>
  spans.some((s) => s.spanId === gatewaySpanId) &&
  spans.some((s) => s.name === subject && s.kind === KIND.client) &&
  spans.some((s) => s.name === subject && s.kind === KIND.server) &&
  spans.some((s) => s.service === service && s.name.startsWith("FCALL "));

/** The request's span at the gateway, a call of `subject` under it, its handler in `service`, and a Redis call. */
function expectGatewayToRedis(spans: ReceivedSpan[], gatewaySpanId: string, subject: string, service: string) {
  const request = one(spans, "gateway request span", (s) => s.spanId === gatewaySpanId);
  expect(request).toMatchObject({ service: "memory-gateway", kind: KIND.server });
  const call = one(spans, `client span ${subject}`, (s) => s.name === subject && s.kind === KIND.client);
  expect(call.service).toBe("memory-gateway");
  expect(descends(call, request.spanId, spans)).toBe(true);
  const handler = one(spans, `${service} handler`, (s) => s.name === subject && s.kind === KIND.server);
  expect(handler).toMatchObject({ service, parentSpanId: call.spanId });
  expect(handler.attributes["rpc.method"]).toBe(subject);
  const redis = one(spans, `Redis call in ${service}`, (s) => s.service === service && s.name.startsWith("FCALL "));
  expect(redis.kind).toBe(KIND.client);
  expect(redis.attributes["db.system.name"]).toBe("redis");
  expect(descends(redis, handler.spanId, spans)).toBe(true);
  return { request, call, handler };
}

describe("with tracing on", () => {
  test("a REST create is one trace: gateway, memories, Redis, then the indexer and the webhooks", async () => {
    const res = await api.post("/v1/memories", { content: SECRET });
    expect(res.status).toBe(200);
    memoryId = res.body.data.id;
    const trace = traceOf(res.headers);
    expect(trace.sampled).toBe(true);
    const has = (service: string, name: string) => (spans: ReceivedSpan[]) =>
      spans.some((s) => s.service === service && s.name === name);
    // The indexer waits for its grace period (the write indexed itself) before it takes the event.
    const spans = await spansOnceThere(
      trace.traceId,
      (s) =>
        has("memory-search", "process search-indexer")(s) &&
        has("memory-webhooks", "process webhooks-dispatcher")(s) &&
        has("memory-webhooks", "POST webhook")(s) &&
        gatewayToRedis(trace.spanId, "memories.create", "memory-memories")(s) &&
        s.some((x) => x.kind === KIND.producer),
      30_000,
    );
    const { request, handler } = expectGatewayToRedis(spans, trace.spanId, "memories.create", "memory-memories");
    expect(request.name).toBe("POST /v1/memories");
    expect(request.attributes).toMatchObject({ "http.route": "/v1/memories", "http.response.status_code": 200 });
    const published = one(spans, "event publish", (s) => s.kind === KIND.producer);
    expect(descends(published, handler.spanId, spans)).toBe(true);
    for (const consumer of ["process search-indexer", "process webhooks-dispatcher"]) {
      const span = one(spans, consumer, (s) => s.name === consumer);
      expect(span.kind).toBe(KIND.consumer);
      expect(span.links).toContainEqual({ traceId: trace.traceId, spanId: published.spanId });
    }
    const dispatcher = one(spans, "dispatcher", (s) => s.name === "process webhooks-dispatcher");
    const post = one(spans, "webhook POST", (s) => s.name === "POST webhook");
    expect(post).toMatchObject({ parentSpanId: dispatcher.spanId, kind: KIND.client });
    expect(post.attributes["http.response.status_code"]).toBe(200);
    expect(hooks.at("/traced").length).toBeGreaterThan(0);
  }, 60_000);

  test("a GraphQL query is one trace down to Redis", async () => {
    const query = "query($id: ID!) { memory(id: $id) { id content } }";
    const res = await api.post("/graphql", { query, variables: { id: memoryId } });
    expect(res.status).toBe(200);
    expect(res.body.data.memory.id).toBe(memoryId);
    const trace = traceOf(res.headers);
    const ready = gatewayToRedis(trace.spanId, "memories.get", "memory-memories");
    const spans = await spansOnceThere(trace.traceId, ready);
    const { request } = expectGatewayToRedis(spans, trace.spanId, "memories.get", "memory-memories");
    expect(request.name).toBe("POST /graphql");
  });

  test("a search is one trace down to Redis", async () => {
    const res = await api.post("/v1/search", { query: "the patient's secret", limit: 3 });
    expect(res.status).toBe(200);
    const trace = traceOf(res.headers);
    const spans = await spansOnceThere(trace.traceId, gatewayToRedis(trace.spanId, "search.query", "memory-search"));
    const { request } = expectGatewayToRedis(spans, trace.spanId, "search.query", "memory-search");
    expect(request.name).toBe("POST /v1/search");
  });

  test("a caller's traceparent is continued: same trace, the gateway's span its child", async () => {
    const [traceId, parent] = [randomHex(16), randomHex(8)];
    const res = await api.get(`/v1/memories/${memoryId}`, { traceparent: `00-${traceId}-${parent}-01` });
    expect(res.status).toBe(200);
    const trace = traceOf(res.headers);
    expect(trace.traceId).toBe(traceId);
    const spans = await spansOnceThere(traceId, gatewayToRedis(trace.spanId, "memories.get", "memory-memories"));
    const request = one(spans, "gateway request span", (s) => s.spanId === trace.spanId);
    expect(request).toMatchObject({ name: "GET /v1/memories/:id", parentSpanId: parent });
    expectGatewayToRedis(spans, trace.spanId, "memories.get", "memory-memories");
  });

  test("no span holds a memory's content, a key or a tenant id", async () => {
    await Bun.sleep(500); // the last batches
    expect(collector.spans.length).toBeGreaterThan(10);
    const exported = collector.text();
    for (const secret of [SECRET, tenant.key, stack.adminKey, tenant.tenant, tenant.keyId])
      expect(exported).not.toContain(secret);
  });

  test("a process set to http/protobuf exports protobuf", async () => {
    const proto = otlpReceiver();
    const gateway = await stack.addGateway({
      OTEL_EXPORTER_OTLP_PROTOCOL: "http/protobuf",
      OTEL_EXPORTER_OTLP_ENDPOINT: proto.url,
    });
    const res = await fetch(`${gateway.baseUrl}/v1/memories/${memoryId}`, {
      headers: { Authorization: `Bearer ${tenant.key}` },
    });
    expect(res.status).toBe(200);
    const { traceId } = traceOf(res.headers);
    const got = await eventually(
      () => proto.requests.find((r) => containsBytes(r.body, traceId)),
      10_000,
      "a protobuf export",
    );
    expect(got.contentType).toBe("application/x-protobuf");
    await gateway.child.stop();
  });
});

const randomHex = (bytes: number) => Buffer.from(crypto.getRandomValues(new Uint8Array(bytes))).toString("hex");

/** Whether a protobuf body holds the trace id's 16 bytes (OTLP/protobuf carries ids as raw bytes). */
const containsBytes = (body: Uint8Array, hex: string) => Buffer.from(body).includes(Buffer.from(hex, "hex"));
