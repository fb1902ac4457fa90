import { describe, expect, test, beforeAll } from "bun:test";
import { testStack } from "../harness";
import { apiClient, type ApiClient } from "../api";
import type { Stack } from "../../scripts/stack/launch";
import { expectEnvelopeError } from "../envelope-helpers";

/** What every REST call goes through: the envelope, request ids, routes and their prefixes, request bodies. */
let stack: Stack;
let root: ApiClient;

beforeAll(async () => {
  stack = await testStack();
  root = apiClient(stack.baseUrl, stack.adminKey);
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
