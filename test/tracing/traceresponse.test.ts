import { beforeAll, describe, expect, test } from "bun:test";
import { testStack } from "../harness";
import { newTenant, type ApiClient } from "../api";
import { traceOf } from "./trace-helpers";

/**
 * With tracing off (the test stack exports nothing), every API answer still names its trace: `traceresponse`
 * with the caller's trace continued, or a new one, at no more cost than a few random bytes.
 */
let api: ApiClient;
let baseUrl: string;
let key: string;

beforeAll(async () => {
  const stack = await testStack();
  const t = await newTenant(stack.baseUrl, stack.adminKey);
  [api, baseUrl, key] = [t.api, stack.baseUrl, t.key];
});

const TRACE = "4bf92f3577b34da6a3ce929d0e0e4736";
const PARENT = "00f067aa0ba902b7";

describe("traceresponse, tracing off", () => {
  test("REST answers carry a new trace each, not sampled; a refusal too", async () => {
    const a = traceOf((await api.get("/v1/memories?limit=1")).headers);
    const b = traceOf((await api.get("/v1/memories?limit=1")).headers);
    expect(a.traceId).not.toBe(b.traceId);
    expect(a.sampled).toBe(false);
    const refused = await fetch(`${baseUrl}/v1/memories`, { headers: { Authorization: "Bearer nope" } });
    expect(refused.status).toBe(401);
    traceOf(refused.headers);
  });

  test("a caller's traceparent is continued, with a span of the gateway's own", async () => {
    const res = await api.get("/v1/memories?limit=1", { traceparent: `00-${TRACE}-${PARENT}-01` });
    const trace = traceOf(res.headers);
    expect(trace).toMatchObject({ traceId: TRACE, sampled: true });
    expect(trace.spanId).not.toBe(PARENT);
    const malformed = traceOf((await api.get("/v1/memories?limit=1", { traceparent: `00-${TRACE}-xyz-01` })).headers);
    expect(malformed.traceId).not.toBe(TRACE);
  });

  test("GraphQL and MCP answers carry it too", async () => {
    const gql = await api.post(
      "/graphql",
      { query: "{ memories(limit: 1) { total } }" },
      { traceparent: `00-${TRACE}-${PARENT}-00` },
    );
    expect(gql.status).toBe(200);
    expect(traceOf(gql.headers).traceId).toBe(TRACE);
    const mcp = await fetch(`${baseUrl}/mcp`, {
      method: "POST",
      headers: {
        Authorization: `Bearer ${key}`,
        "Content-Type": "application/json",
        Accept: "application/json, text/event-stream",
      },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
    });
    await mcp.arrayBuffer();
    traceOf(mcp.headers);
  });

  test("answers outside the request frame name their trace: 404, 405, MCP's 405, a bad body", async () => {
    const traceparent = `00-${TRACE}-${PARENT}-01`;
    const missing = await api.get("/v1/no-such-route", { traceparent });
    expect(missing.status).toBe(404);
    expect(traceOf(missing.headers).traceId).toBe(TRACE);
    const wrongMethod = await fetch(`${baseUrl}/v1/memories`, { method: "PUT", headers: { traceparent } });
    await wrongMethod.arrayBuffer();
    expect(wrongMethod.status).toBe(405);
    expect(traceOf(wrongMethod.headers).traceId).toBe(TRACE);
    const mcpGet = await fetch(`${baseUrl}/mcp`, { headers: { Authorization: `Bearer ${key}`, traceparent } });
    await mcpGet.arrayBuffer();
    expect(mcpGet.status).toBe(405);
    expect(traceOf(mcpGet.headers).traceId).toBe(TRACE);
    const unparsed = await fetch(`${baseUrl}/v1/memories`, {
      method: "POST",
      headers: { Authorization: `Bearer ${key}`, "Content-Type": "application/json" },
      body: "{not json",
    });
    await unparsed.arrayBuffer();
    expect(unparsed.status).toBe(400);
    traceOf(unparsed.headers);
  });
});
