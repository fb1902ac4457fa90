import { describe, expect, test } from "bun:test";
import type { Bus } from "../../../services/kit/bus";
import type { Identity } from "../auth/identity";
import { createOriginPolicy } from "./cors";

/** A bus that answers the two questions the policy asks, and counts them. */
function fakeBus(known: string[], tenantList: string[]) {
  const asked: string[] = [];
  const bus = {
    call: async (op: { subject: string }, input: { origin?: string }) => {
      asked.push(op.subject);
      if (op.subject === "tenant.origins.known") return { known: known.includes(input.origin!) };
      return { origins: tenantList };
    },
  } as unknown as Bus;
  return { bus, asked };
}

const identity = (token?: { origins: string[] }): Identity => ({
  caller: { tenant: "t", env: "live", keyId: "k", scopes: ["memories:read"] },
  label: { name: "n", prefix: "p" },
  limits: { perMinute: 10, perDay: 0 },
  expiresAt: null,
  hash: "h",
  ...(token ? { token: { id: "j", perMinute: null, origins: token.origins } } : {}),
});

const request = (headers: Record<string, string>, method = "GET", path = "/v1/memories") =>
  new Request(`http://api.test${path}`, { method, headers: { host: "api.test", ...headers } });

describe("origin policy", () => {
  test("no Origin, or the gateway's own, is not cross-origin", () => {
    const { bus } = fakeBus([], []);
    const policy = createOriginPolicy(bus);
    expect(policy.crossOrigin(request({}))).toBeNull();
    expect(policy.crossOrigin(request({ origin: "http://api.test" }))).toBeNull();
    expect(policy.crossOrigin(request({ origin: "https://app.test" }))).toBe("https://app.test");
    expect(policy.crossOrigin(request({ origin: "null" }))).toBe("null");
    const proxied = request({ origin: "https://memory.example", "x-forwarded-host": "memory.example" });
    expect(policy.crossOrigin(proxied)).toBe("https://memory.example");
    expect(createOriginPolicy(bus, { trustProxy: true }).crossOrigin(proxied)).toBeNull();
  });

  test("a key is refused; a token follows its origins, else the tenant's list (reused, not asked again)", async () => {
    const { bus, asked } = fakeBus([], ["https://listed.test"]);
    const policy = createOriginPolicy(bus);
    await expect(policy.admit(identity(), "https://app.test", "r")).rejects.toMatchObject({ code: "FORBIDDEN" });
    const own = await policy.admit(identity({ origins: ["https://app.test"] }), "https://app.test", "r");
    expect(own["Access-Control-Allow-Origin"]).toBe("https://app.test");
    await expect(
      policy.admit(identity({ origins: ["https://app.test"] }), "https://listed.test", "r"),
    ).rejects.toMatchObject({ code: "FORBIDDEN", details: { field: "origin" } });
    const listed = await policy.admit(identity({ origins: [] }), "https://listed.test", "r");
    expect(listed.Vary).toBe("Origin");
    await policy.admit(identity({ origins: [] }), "https://listed.test", "r");
    expect(asked).toEqual(["tenant.origins"]);
  });

  test("a preflight of an API path from any other origin is answered here, without asking anyone", async () => {
    const { bus, asked } = fakeBus(["https://app.test"], []);
    const policy = createOriginPolicy(bus);
    const preflight = (origin: string, path = "/v1/memories") =>
      policy.preflight(request({ origin, "access-control-request-method": "POST" }, "OPTIONS", path));
    expect(policy.preflight(request({ origin: "https://app.test" }))).toBeUndefined(); // not OPTIONS
    const res = preflight("https://app.test")!;
    expect(res.status).toBe(204);
    expect(res.headers.get("access-control-allow-headers")).toContain("Idempotency-Key");
    expect(res.headers.get("access-control-max-age")).toBe("600");
    expect(preflight("https://other.test")?.headers.get("access-control-allow-origin")).toBe("https://other.test");
    expect(preflight("https://app.test", "/graphql")).toBeInstanceOf(Response);
    expect(preflight("https://app.test", "/dashboard")).toBeUndefined();
    expect(preflight("http://api.test")).toBeUndefined(); // the gateway's own origin
    expect(asked).toEqual([]);
  });
});
