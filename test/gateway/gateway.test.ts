import { describe, expect, test, beforeAll } from "bun:test";
import { testStack } from "../harness";
import { apiClient, newTenant, type ApiClient } from "../api";
import type { Stack } from "../../scripts/stack/launch";
import { expectEnvelopeError } from "../envelope-helpers";

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

describe("envelope and routing", () => {
  test("success envelope: data, meta.request_id, meta.latency_ms, list meta, X-Request-Id", async () => {
    const res = await root.get("/v1/keys?limit=1");
    expect(res.status).toBe(200);
    expect(Array.isArray(res.body.data)).toBe(true);
    expect(res.body.meta.request_id).toBe(res.headers.get("x-request-id")!);
    expect(typeof res.body.meta.latency_ms).toBe("number");
    expect(res.body.meta.limit).toBe(1);
    expect(res.body.meta.offset).toBe(0);
    expect(typeof res.body.meta.total).toBe("number");
    expect(res.body.meta.has_more).toBe(res.body.meta.total > 1);
  });
  test("the API is served under /api/v1 as well", async () => {
    const res = await root.get("/api/v1/keys");
    expect(res.status).toBe(200);
  });
  test("a well-formed client X-Request-Id is echoed", async () => {
    const res = await root.get("/v1/keys", { "X-Request-Id": "trace-abc-12345" });
    expect(res.headers.get("x-request-id")).toBe("trace-abc-12345");
    expect(res.body.meta.request_id).toBe("trace-abc-12345");
  });
  test("unknown route → 404 NOT_FOUND envelope, not HTML", async () => {
    const res = await root.get("/v1/nope");
    expectEnvelopeError(res, 404, "NOT_FOUND");
    expect(res.headers.get("content-type")).toContain("application/json");
  });
  test("malformed id in a path → 404", async () => {
    const res = await root.delete("/v1/keys/not-a-uuid");
    expectEnvelopeError(res, 404, "NOT_FOUND");
    expect(res.body.error.message).toBe("API key not found");
  });
  test("OpenAPI document lists the routes", async () => {
    const res = await apiClient(stack.baseUrl).get("/docs/json");
    expect(res.status).toBe(200);
    expect(Object.keys(res.body.paths)).toContain("/v1/keys");
  });
});

describe("request bodies", () => {
  test("malformed JSON → 400 VALIDATION_ERROR constraint json", async () => {
    const res = await root.post("/v1/keys", "{bad");
    expectEnvelopeError(res, 400, "VALIDATION_ERROR");
    expect(res.body.error.details).toEqual({ field: "body", constraint: "json" });
  });
  test("a JSON array body → 400 constraint type", async () => {
    const res = await root.post("/v1/keys", "[1,2]");
    expectEnvelopeError(res, 400, "VALIDATION_ERROR");
    expect(res.body.error.details).toEqual({ field: "body", constraint: "type" });
  });
  test("a body over 1 MiB → 400 constraint max_bytes (declared length)", async () => {
    const res = await root.post("/v1/keys", JSON.stringify({ name: "x".repeat(1024 * 1024 + 10) }));
    expectEnvelopeError(res, 400, "VALIDATION_ERROR");
    expect(res.body.error.details.constraint).toBe("max_bytes");
  });
  test("a streamed body over 1 MiB → 400 max_bytes before it is buffered whole", async () => {
    const chunk = new TextEncoder().encode("x".repeat(64 * 1024));
    let sent = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent >= 40) return controller.close(); // 2.5 MiB offered
        sent++;
        controller.enqueue(chunk);
      },
    });
    const res = await fetch(`${stack.baseUrl}/v1/keys`, {
      method: "POST",
      headers: { Authorization: `Bearer ${stack.adminKey}`, "Content-Type": "application/json" },
      body,
      duplex: "half",
    } as RequestInit);
    expect(res.status).toBe(400);
    const json = (await res.json()) as any;
    expect(json.error.details.constraint).toBe("max_bytes");
  });
});

describe("keys", () => {
  test("create returns the secret once with the default scopes; list never shows a secret or hash", async () => {
    const created = await root.post("/v1/keys", { name: "ci key" });
    expect(created.status).toBe(200);
    const k = created.body.data;
    expect(k.key).toMatch(/^svc_live_[A-Za-z0-9_-]{32}$/);
    expect(k.scopes).toEqual(["memories:read", "memories:write", "search:read"]);
    expect(k.message).toContain("securely");
    expect(k.environment).toBe("live");
    const list = await root.get("/v1/keys?limit=100");
    const listed = list.body.data.find((x: any) => x.id === k.id);
    expect(listed.prefix).toBe(k.key.slice(0, 13));
    expect(JSON.stringify(list.body)).not.toContain(k.key);
    expect(listed.key).toBeUndefined();
    expect(listed.hash).toBeUndefined();
  });

  test.each([
    [{}, "name", "required"],
    [{ name: "" }, "name", "required"],
    [{ name: "x".repeat(101) }, "name", "max_length"],
    [{ name: "a", scopes: ["memories:delete"] }, "scopes.0", "enum"],
    [{ name: "a", rate_limit: 0 }, "rate_limit", "minimum"],
    [{ name: "a", rate_limit: 1.5 }, "rate_limit", "type"],
    [{ name: "a", environment: "prod" }, "environment", "enum"],
    [{ name: "a", expires_at: "tomorrow" }, "expires_at", "format"],
    [{ name: "a", expires_at: "2001-01-01T00:00:00Z" }, "expires_at", "future"],
    [{ name: "a", owner: "me" }, "owner", "unknown_field"],
  ])("create %j → 400 %s/%s", async (body, field, constraint) => {
    const res = await root.post("/v1/keys", body);
    expectEnvelopeError(res, 400, "VALIDATION_ERROR");
    expect(res.body.error.details.field).toBe(field);
    expect(res.body.error.details.constraint).toBe(constraint);
  });

  test("missing name has the message 'name is required'", async () => {
    const res = await root.post("/v1/keys", {});
    expect(res.body.error.message).toBe("name is required");
  });

  test("only the root key may set tenant_id", async () => {
    const { api } = await newTenant(stack.baseUrl, stack.adminKey, { scopes: ["admin"] });
    const res = await api.post("/v1/keys", { name: "x", tenant_id: "someone-else" });
    expectEnvelopeError(res, 403, "FORBIDDEN");
  });

  test("a test key cannot mint live keys and sees only test keys", async () => {
    const t = await newTenant(stack.baseUrl, stack.adminKey, { scopes: ["*"] });
    const testKey = await t.api.post("/v1/keys", { name: "sandbox admin", scopes: ["admin"], environment: "test" });
    expect(testKey.body.data.key).toMatch(/^svc_test_/);
    const sandbox = apiClient(stack.baseUrl, testKey.body.data.key);
    expectEnvelopeError(await sandbox.post("/v1/keys", { name: "live one" }), 403, "FORBIDDEN");
    const list = await sandbox.get("/v1/keys");
    expect(list.status).toBe(200);
    expect(list.body.data.every((k: any) => k.environment === "test")).toBe(true);
  });

  test("revoked keys get 401 on the next request (cache evicted by broadcast)", async () => {
    const t = await newTenant(stack.baseUrl, stack.adminKey, { scopes: ["admin"] });
    expect((await t.api.get("/v1/keys")).status).toBe(200); // now cached in the gateway
    const revoked = await root.delete(`/v1/keys/${t.keyId}`);
    expect(revoked.status).toBe(200);
    expect(revoked.body.data).toMatchObject({ id: t.keyId, revoked: true });
    await Bun.sleep(200);
    expectEnvelopeError(await t.api.get("/v1/keys"), 401, "UNAUTHORIZED");
    const sameTenant = await newTenant(stack.baseUrl, stack.adminKey, { scopes: ["admin"], tenant: t.tenant });
    const again = await sameTenant.api.get("/v1/keys?limit=100");
    expect(again.body.data.find((k: any) => k.id === t.keyId).revoked_at).not.toBeNull();
  });

  test("revoking another tenant's key is a 404", async () => {
    const a = await newTenant(stack.baseUrl, stack.adminKey, { scopes: ["admin"] });
    const b = await newTenant(stack.baseUrl, stack.adminKey, { scopes: ["admin"] });
    expectEnvelopeError(await a.api.delete(`/v1/keys/${b.keyId}`), 404, "NOT_FOUND");
  });

  test("an expired key is rejected", async () => {
    const created = await root.post("/v1/keys", {
      name: "short-lived",
      expires_at: new Date(Date.now() + 1500).toISOString(),
    });
    const api = apiClient(stack.baseUrl, created.body.data.key);
    expect((await api.get("/v1/tags")).status).not.toBe(401);
    await Bun.sleep(1700);
    expectEnvelopeError(await api.get("/v1/tags"), 401, "UNAUTHORIZED");
  });
});

describe("authentication", () => {
  const altered = () => {
    const k = stack.adminKey;
    return k.slice(0, -1) + (k.endsWith("A") ? "B" : "A");
  };
  const cases: [string, () => Record<string, string>][] = [
    ["missing header", () => ({})],
    ["not Bearer", () => ({ Authorization: `Basic ${stack.adminKey}` })],
    ["no svc_ prefix", () => ({ Authorization: `Bearer key_live_${"a".repeat(32)}` })],
    ["unknown environment", () => ({ Authorization: `Bearer svc_prod_${"a".repeat(32)}` })],
    ["wrong length", () => ({ Authorization: `Bearer svc_live_${"a".repeat(31)}` })],
    ["unknown key", () => ({ Authorization: `Bearer svc_live_${"a".repeat(32)}` })],
    ["altered key", () => ({ Authorization: `Bearer ${altered()}` })],
  ];
  test.each(cases)("%s → 401 UNAUTHORIZED with the same body", async (_name, headers) => {
    const res = await fetch(`${stack.baseUrl}/v1/keys`, { headers: headers() });
    const body = (await res.json()) as any;
    expect(res.status).toBe(401);
    expect(body.error).toEqual({ code: "UNAUTHORIZED", message: "Invalid or missing API key" });
  });

  test("missing scope → 403 naming it", async () => {
    const { api } = await newTenant(stack.baseUrl, stack.adminKey, { scopes: ["memories:read"] });
    const res = await api.get("/v1/keys");
    expectEnvelopeError(res, 403, "FORBIDDEN");
    expect(res.body.error.message).toBe("Missing required scope: admin");
    expect(res.headers.get("x-ratelimit-limit")).not.toBeNull();
  });
});

describe("rate limits through the gateway", () => {
  test("headers on every authenticated response; 429 with Retry-After past the limit", async () => {
    const { api } = await newTenant(stack.baseUrl, stack.adminKey, { scopes: ["admin"], rate_limit: 3 });
    const results = [];
    for (let i = 0; i < 5; i++) results.push(await api.get("/v1/keys"));
    expect(results.map((r) => r.status)).toEqual([200, 200, 200, 429, 429]);
    expect(results.map((r) => r.headers.get("x-ratelimit-remaining"))).toEqual(["2", "1", "0", "0", "0"]);
    for (const r of results) {
      expect(r.headers.get("x-ratelimit-limit")).toBe("3");
      expect(Number(r.headers.get("x-ratelimit-reset"))).toBeGreaterThan(Date.now() / 1000 - 1);
    }
    expectEnvelopeError(results[3]!, 429, "RATE_LIMITED");
    expect(Number(results[3]!.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
  });

  test("50 concurrent requests on a key limited to 20/min: exactly 20 × 200 and 30 × 429", async () => {
    const { api } = await newTenant(stack.baseUrl, stack.adminKey, { scopes: ["admin"], rate_limit: 20 });
    const statuses = (await Promise.all(Array.from({ length: 50 }, () => api.get("/v1/keys")))).map((r) => r.status);
    expect(statuses.filter((s) => s === 200).length).toBe(20);
    expect(statuses.filter((s) => s === 429).length).toBe(30);
  });

  test("requests with invalid keys never touch a real key's budget", async () => {
    const { api, key } = await newTenant(stack.baseUrl, stack.adminKey, { scopes: ["admin"], rate_limit: 5 });
    const forged = key.slice(0, -2) + (key.endsWith("AA") ? "BB" : "AA");
    for (let i = 0; i < 10; i++) await apiClient(stack.baseUrl, forged).get("/v1/keys");
    const res = await api.get("/v1/keys");
    expect(res.status).toBe(200);
    expect(res.headers.get("x-ratelimit-remaining")).toBe("4");
  });
});

describe("usage", () => {
  test("requests are counted per key, endpoint and status class within 2 s", async () => {
    const t = await newTenant(stack.baseUrl, stack.adminKey, { scopes: ["admin"], rate_limit: 4 });
    for (let i = 0; i < 6; i++) await t.api.get("/v1/keys"); // 4 ok, 2 rate-limited
    await t.api.get("/v1/nope-not-counted-route");
    await t.api.post("/v1/keys", {}); // 400? no: rate limited too
    const deadline = Date.now() + 2000;
    let report: any;
    do {
      await Bun.sleep(200);
      const admin = await newTenant(stack.baseUrl, stack.adminKey, { scopes: ["admin"], tenant: t.tenant });
      report = (await admin.api.get(`/v1/usage?key_id=${t.keyId}`)).body.data;
    } while (report.totals.requests < 7 && Date.now() < deadline);
    expect(report.totals).toEqual({ requests: 7, errors: 0, rate_limited: 3 });
    expect(report.by_endpoint.find((e: any) => e.endpoint === "GET /v1/keys")).toMatchObject({
      requests: 6,
      rate_limited: 2,
    });
    expect(report.by_key).toEqual([{ key_id: t.keyId, requests: 7, errors: 0, rate_limited: 3 }]);
    expect(report.by_day.length).toBe(1);
  });

  test("invalid date range → 400", async () => {
    const res = await root.get("/v1/usage?from=2026-02-01&to=2026-01-01");
    expectEnvelopeError(res, 400, "VALIDATION_ERROR");
    expect(res.body.error.details.field).toBe("from");
  });
  test("malformed date → 400 format", async () => {
    const res = await root.get("/v1/usage?from=yesterday");
    expect(res.body.error.details).toMatchObject({ field: "from", constraint: "format" });
  });
});
