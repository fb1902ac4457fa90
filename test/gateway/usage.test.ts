import { describe, expect, test, beforeAll } from "bun:test";
import { testStack } from "../harness";
import { apiClient, newTenant, type ApiClient } from "../api";
import type { Stack } from "../../scripts/stack/launch";
import { expectEnvelopeError } from "../envelope-helpers";

/** GET /v1/usage: requests counted per key, endpoint and status class; its date range. */
let stack: Stack;
let root: ApiClient;

beforeAll(async () => {
  stack = await testStack();
  root = apiClient(stack.baseUrl, stack.adminKey);
});

describe("usage", () => {
  test("requests are counted per key, endpoint and status class within 2 s", async () => {
    const t = await newTenant(stack.baseUrl, stack.adminKey, { scopes: ["admin"], rate_limit: 4 });
    for (let i = 0; i < 6; i++) await t.api.get("/v1/keys"); // 4 ok, 2 rate-limited
    await t.api.get("/v1/no-such-route"); // no route: counted like any request of the key (429 here)
    await t.api.post("/v1/keys", {}); // 400? no: rate limited too
    const deadline = Date.now() + 2000;
    let report: any;
    do {
      await Bun.sleep(200);
      const admin = await newTenant(stack.baseUrl, stack.adminKey, { scopes: ["admin"], tenant: t.tenant });
      report = (await admin.api.get(`/v1/usage?key_id=${t.keyId}`)).body.data;
    } while (report.totals.requests < 8 && Date.now() < deadline);
    expect(report.totals).toEqual({ requests: 8, errors: 0, rate_limited: 4 });
    expect(report.by_endpoint.find((e: any) => e.endpoint === "GET /v1/keys")).toMatchObject({
      requests: 6,
      rate_limited: 2,
    });
    expect(report.by_endpoint.find((e: any) => e.endpoint === "(no route)")).toMatchObject({
      requests: 1,
      rate_limited: 1,
    });
    expect(report.by_key).toEqual([{ key_id: t.keyId, requests: 8, errors: 0, rate_limited: 4 }]);
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
