import { describe, expect, test, beforeAll } from "bun:test";
import { testStack } from "../harness";
import { newTenant } from "../api";
import type { Stack } from "../../scripts/stack/launch";
import { callTool, httpClient } from "../mcp/mcp-client";

/**
 * Every surface of the gateway passes the same request frame: a request over REST, GraphQL, MCP, export or import
 * counts in `http_requests_total` (the internal port's /metrics) and in its key's usage (GET /v1/usage).
 */
let stack: Stack;

beforeAll(async () => {
  stack = await testStack();
});

/** The `http_requests_total` count of one series, 0 when it has none yet. */
async function requestsCounted(method: string, route: string, status: number): Promise<number> {
  const text = await (await fetch(stack.metricsUrl)).text();
  const series = `http_requests_total{method="${method}",route="${route}",status="${status}"}`;
  const line = text.split("\n").find((l) => l.startsWith(`${series} `));
  return line ? Number(line.slice(series.length + 1)) : 0;
}

const SERIES: [method: string, route: string][] = [
  ["GET", "/v1/memories"],
  ["POST", "/graphql"],
  ["GET", "/graphql"],
  ["POST", "/mcp"],
  ["GET", "/v1/export"],
  ["POST", "/v1/import"],
];

describe("every surface counts", () => {
  test("REST, GraphQL, MCP, export and import: http_requests_total and usage", async () => {
    const t = await newTenant(stack.baseUrl, stack.adminKey);
    const before = await Promise.all(SERIES.map(([method, route]) => requestsCounted(method, route, 200)));

    expect((await t.api.get("/v1/memories")).status).toBe(200);
    expect((await t.api.post("/graphql", { query: "{ memories { total } }" })).status).toBe(200);
    expect((await t.api.get(`/graphql?query=${encodeURIComponent("{ memories { total } }")}`)).status).toBe(200);
    const mcp = await httpClient(stack.baseUrl, t.key);
    try {
      expect((await callTool(mcp, "list_memories", {})).isError).toBe(false);
    } finally {
      await mcp.close();
    }
    expect((await t.api.get("/v1/export")).status).toBe(200);
    const line = `${JSON.stringify({ type: "tag", name: "counted" })}\n`;
    expect((await t.api.raw("POST", "/v1/import", line, { "Content-Type": "application/x-ndjson" })).status).toBe(200);

    const after = await Promise.all(SERIES.map(([method, route]) => requestsCounted(method, route, 200)));
    const grown = Object.fromEntries(SERIES.map(([m, r], i) => [`${m} ${r}`, after[i]! > before[i]!]));
    expect(grown).toEqual(Object.fromEntries(SERIES.map(([m, r]) => [`${m} ${r}`, true])));

    const endpoints = ["GET /v1/memories", "POST /graphql", "GET /graphql", "MCP list_memories"];
    endpoints.push("GET /v1/export", "POST /v1/import");
    const deadline = Date.now() + 3000;
    let seen: string[] = [];
    do {
      await Bun.sleep(200);
      const report = (await t.api.get(`/v1/usage?key_id=${t.keyId}`)).body.data;
      seen = report.by_endpoint.map((e: { endpoint: string }) => e.endpoint);
    } while (!endpoints.every((e) => seen.includes(e)) && Date.now() < deadline);
    expect(endpoints.filter((e) => !seen.includes(e))).toEqual([]);
  });
});
