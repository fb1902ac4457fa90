import { describe, expect, test } from "bun:test";
import type { Static } from "@sinclair/typebox";
import type { CreateKeyInput } from "../contract/keys";
import { resolveGrant, type Issuer } from "./grant";

/** The minting rule as a pure function: what a new key gets, and what is refused with a 403. */
const settings = { defaultPlan: "self_hosted" as const, selfHosted: { perMinute: 1000, perDay: 0 } };
const issuer = (over: Partial<Issuer> = {}): Issuer => ({
  tenant_id: "acme",
  scopes: ["admin", "memories:read"],
  rate_limit: null,
  plan: "free",
  environment: "live",
  expires_at: null,
  root: false,
  ...over,
});
type Input = Partial<Static<typeof CreateKeyInput>>;
const grant = (by: Issuer, input: Input = {}) => resolveGrant(by, { name: "n", ...input }, settings);
/** The 403 of a refused grant. */
const refusal = (by: Issuer, input: Input = {}) => {
  try {
    grant(by, input);
  } catch (err) {
    return err as { code: string; message: string; details: Record<string, unknown> };
  }
  throw new Error("not refused");
};
const star = issuer({ scopes: ["*"] });

describe("resolveGrant", () => {
  test("scopes: a subset of the issuer's; `*` only from `*`; defaults are checked too", () => {
    expect(grant(issuer(), { scopes: ["memories:read"] }).scopes).toEqual(["memories:read"]);
    expect(refusal(issuer(), { scopes: ["*"] })).toMatchObject({
      code: "FORBIDDEN",
      details: { field: "scopes", refused: { scopes: ["*"] }, allowed: { scopes: ["admin", "memories:read"] } },
    });
    expect(refusal(issuer()).details.refused).toEqual({ scopes: ["memories:write", "search:read"] });
    expect(grant(star, { scopes: ["*"] }).scopes).toEqual(["*"]);
  });

  test("rate_limit: at most the issuer's effective per-minute limit; the plan's limit is inherited capped", () => {
    expect(grant(star, { rate_limit: 100 }).rate_limit).toBe(100);
    expect(refusal(star, { rate_limit: 101 }).details).toEqual({
      field: "rate_limit",
      refused: { rate_limit: 101 },
      allowed: { rate_limit: 100 },
    });
    const capped = issuer({ scopes: ["*"], plan: "pro", rate_limit: 50 });
    expect(refusal(capped, { rate_limit: 51 }).details.allowed).toEqual({ rate_limit: 50 });
    expect(grant(capped).rate_limit).toBe(50); // not pro's 1,000
    expect(grant(star).rate_limit).toBeNull(); // free's 100 is the issuer's own
    const raised = issuer({ scopes: ["*"], plan: "free", rate_limit: 5000 });
    expect(grant(raised, { rate_limit: 5000 }).rate_limit).toBe(5000);
  });

  test("plan: only the root key sets it; other keys mint on their own plan", () => {
    expect(refusal(star, { plan: "enterprise" }).details).toEqual({
      field: "plan",
      refused: { plan: "enterprise" },
      allowed: { plan: "free" },
    });
    expect(grant(star, { plan: "free" }).plan).toBe("free");
    expect(grant(issuer({ scopes: ["*"], plan: "pro" })).plan).toBe("pro");
  });

  test("every refused field is named at once, in one 403", () => {
    const err = refusal(issuer({ scopes: ["admin"] }), { scopes: ["*"], plan: "enterprise", rate_limit: 10_000_000 });
    expect(err.message).toBe("A key cannot grant more than it holds: scopes, plan, rate_limit");
    expect(err.details).toEqual({
      field: "scopes",
      refused: { scopes: ["*"], plan: "enterprise", rate_limit: 10_000_000 },
      allowed: { scopes: ["admin"], plan: "free", rate_limit: 100 },
    });
  });

  test("tenant and environment: the issuer's tenant; a test key mints test keys only", () => {
    expect(refusal(star, { tenant_id: "other" }).details.refused).toEqual({ tenant_id: "other" });
    expect(grant(star, { tenant_id: "acme" }).tenant_id).toBe("acme");
    const sandbox = issuer({ scopes: ["*"], environment: "test" });
    expect(refusal(sandbox).details.refused).toEqual({ environment: "live" });
    expect(grant(sandbox, { environment: "test" }).environment).toBe("test");
    expect(grant(star, { environment: "test" }).environment).toBe("test");
  });

  test("expiry: a minted key expires no later than its issuer, and by default with it", () => {
    const until = "2099-01-01T00:00:00.000Z";
    const mortal = issuer({ scopes: ["*"], expires_at: until });
    expect(grant(mortal).expires_at).toBe(until);
    expect(grant(mortal, { expires_at: "2098-01-01T00:00:00Z" }).expires_at).toBe("2098-01-01T00:00:00Z");
    expect(refusal(mortal, { expires_at: "2099-01-01T00:00:01Z" }).details).toEqual({
      field: "expires_at",
      refused: { expires_at: "2099-01-01T00:00:01Z" },
      allowed: { expires_at: until },
    });
    expect(grant(star).expires_at).toBeNull();
  });

  test("the root key is bound by none of it", () => {
    const root = issuer({ scopes: ["*"], root: true });
    expect(grant(root, { scopes: ["*"], plan: "enterprise", rate_limit: 10_000_000, tenant_id: "t2" })).toEqual({
      tenant_id: "t2",
      scopes: ["*"],
      rate_limit: 10_000_000,
      plan: "enterprise",
      environment: "live",
      expires_at: null,
    });
    expect(grant(root).plan).toBe("self_hosted");
  });
});
