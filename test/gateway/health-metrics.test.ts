import { describe, expect, test, beforeAll } from "bun:test";
import { testStack } from "../harness";
import { apiClient, type ApiClient } from "../api";
import type { Stack } from "../../scripts/stack/launch";
import { expectEnvelopeError } from "../envelope-helpers";

/** The gateway's operational endpoints: health and readiness on the API port, metrics on the internal one. */
let stack: Stack;
let root: ApiClient;

beforeAll(async () => {
  stack = await testStack();
  root = apiClient(stack.baseUrl, stack.adminKey);
});

describe("health", () => {
  test("GET /healthz answers without a key", async () => {
    const res = await apiClient(stack.baseUrl).get("/healthz");
    expect(res.status).toBe(200);
    expect(res.body.status).toBe("ok");
  });
  test("GET /readyz is 200 with every dependency and service ok", async () => {
    const res = await apiClient(stack.baseUrl).get("/readyz");
    expect(res.status).toBe(200);
    expect(res.body.checks.redis).toBe("ok");
    expect(res.body.checks.nats).toBe("ok");
    expect(res.body.checks["service:keys"]).toBe("ok");
  });
});

describe("metrics", () => {
  test("/metrics is not served on the API port, with or without a key", async () => {
    for (const path of ["/metrics", "/v1/metrics", "/api/v1/metrics"]) {
      expectEnvelopeError(await apiClient(stack.baseUrl).get(path), 404, "NOT_FOUND");
      expectEnvelopeError(await root.get(path), 404, "NOT_FOUND");
    }
  });

  test("the internal port's /metrics: counts/latency by route and status, refusals, NATS latency", async () => {
    await root.get("/v1/keys");
    expect((await fetch(stack.metricsUrl.replace(/\/metrics$/, "/v1/keys"))).status).toBe(404); // nothing else there
    const res = await fetch(stack.metricsUrl);
    const text = await res.text();
    expect(res.status).toBe(200);
    expect(text).toMatch(/http_requests_total\{method="GET",route="\/v1\/keys",status="200"\} \d+/);
    expect(text).toContain("http_request_duration_seconds_bucket");
    expect(text).toContain("rate_limit_refusals_total");
    expect(text).toMatch(/nats_request_duration_seconds_count\{subject="keys.list",outcome="ok"\} \d+/);
  });
});
