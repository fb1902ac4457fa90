import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { keysMatching, stackRedis, testStack } from "../harness";
import { newTenant } from "../api";
import { expectError } from "../envelope-helpers";
import { createLogger } from "../../services/kit/log";
import type { RedisClient } from "../../services/kit/redis-functions";
import { type Claimed, createIdempotency, IDEMPOTENCY_TTL_MS } from "../../gateway/http/idempotency/idempotency";
import { fingerprintOf } from "../../gateway/http/idempotency/key";

/** Idempotency-Key on writes, black-box through the gateway (REST and GraphQL), and what it keeps in Redis. */
let baseUrl: string;
let adminKey: string;
let redis: RedisClient;

beforeAll(async () => {
  const stack = await testStack();
  baseUrl = stack.baseUrl;
  adminKey = stack.adminKey;
  redis = stackRedis(stack);
});
afterAll(() => redis.disconnect());

interface Raw {
  status: number;
  text: string;
  headers: Headers;
  /** Parsed, as the envelope helpers read it. */
  body: any;
}

/** One request, its body kept as the exact text that came. */
async function send(key: string, method: string, path: string, body?: unknown, idem?: string): Promise<Raw> {
  const res = await fetch(baseUrl + path, {
    method,
    headers: {
      Authorization: `Bearer ${key}`,
      ...(body !== undefined ? { "Content-Type": "application/json" } : {}),
      ...(idem !== undefined ? { "Idempotency-Key": idem } : {}),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, text, headers: res.headers, body: JSON.parse(text) };
}

/** How many children `parent` has: how many times a create under it ran. */
async function childCount(key: string, parent: string): Promise<number> {
  const res = await send(key, "GET", `/v1/memories?parent_memory_id=${parent}&limit=1`);
  return res.body.meta.total;
}

async function setup() {
  const t = await newTenant(baseUrl, adminKey);
  const parent = (await send(t.key, "POST", "/v1/memories", { content: "the thread" })).body.data.id as string;
  return { ...t, parent };
}

describe("Idempotency-Key on REST writes", () => {
  test("a replay answers the first response byte for byte, marked replayed, and runs nothing", async () => {
    const { key, parent } = await setup();
    const body = { content: "once only", parent_memory_id: parent };
    const first = await send(key, "POST", "/v1/memories", body, "create-1");
    expect(first.status).toBe(200);
    expect(first.headers.get("idempotent-replayed")).toBeNull();
    const again = await send(key, "POST", "/v1/memories", body, "create-1");
    expect(again.status).toBe(200);
    expect(again.text).toBe(first.text);
    expect(again.headers.get("content-type")).toBe(first.headers.get("content-type"));
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(again.headers.get("original-request")).toBe(first.headers.get("x-request-id"));
    expect(again.headers.get("x-request-id")).not.toBe(first.headers.get("x-request-id"));
    expect(again.headers.get("x-ratelimit-limit")).not.toBeNull();
    expect(await childCount(key, parent)).toBe(1);
  });

  test("an error answer is kept and replayed too", async () => {
    const { key } = await setup();
    const body = { content: "x", parent_memory_id: "00000000-0000-4000-8000-000000000000" };
    const first = await send(key, "POST", "/v1/memories", body, "bad-parent");
    expect(first.status).toBe(400);
    const again = await send(key, "POST", "/v1/memories", body, "bad-parent");
    expect([again.status, again.text, again.headers.get("idempotent-replayed")]).toEqual([400, first.text, "true"]);
  });

  test("PATCH and DELETE replay their first answer, whatever happened since", async () => {
    const { key, parent } = await setup();
    const patched = await send(key, "PATCH", `/v1/memories/${parent}`, { content: "renamed" }, "patch-1");
    await send(key, "PATCH", `/v1/memories/${parent}`, { content: "renamed again" });
    const replayed = await send(key, "PATCH", `/v1/memories/${parent}`, { content: "renamed" }, "patch-1");
    expect([replayed.text, replayed.headers.get("idempotent-replayed")]).toEqual([patched.text, "true"]);

    const deleted = await send(key, "DELETE", `/v1/memories/${parent}`, undefined, "delete-1");
    expect(deleted.status).toBe(200);
    const again = await send(key, "DELETE", `/v1/memories/${parent}`, undefined, "delete-1");
    expect([again.status, again.text]).toEqual([200, deleted.text]);
    expect((await send(key, "DELETE", `/v1/memories/${parent}`)).status).toBe(404);
  });

  test("the same key with another body, path or method is a 422 and runs nothing", async () => {
    const { key, parent } = await setup();
    await send(key, "POST", "/v1/memories", { content: "first", parent_memory_id: parent }, "reused");
    const details = { field: "idempotency-key", constraint: "same_request" };
    const message = "This Idempotency-Key was used with a different request; use a new key for a new request";
    const other = { content: "second", parent_memory_id: parent };
    for (const res of [
      await send(key, "POST", "/v1/memories", other, "reused"),
      await send(key, "POST", "/v1/tags", { name: "t" }, "reused"),
      await send(key, "PATCH", `/v1/memories/${parent}`, { content: "first" }, "reused"),
    ]) {
      expectError(res, 422, "IDEMPOTENCY_KEY_REUSED", message, {
        ...details,
      });
    }
    expect(await childCount(key, parent)).toBe(1);
  });

  test("a duplicate while the first still runs is a 409; once it is released, a retry runs", async () => {
    const { key, parent, tenant, keyId } = await setup();
    const body = { content: "slow", parent_memory_id: parent };
    // The first request, held mid-run: its claim taken as the gateway takes it.
    const held = createIdempotency(redis, createLogger({ service: "test" }, "error"));
    const caller = { tenant, env: "live" as const, keyId, scopes: [] };
    const claim = await held.claim(caller, "slow-1", fingerprintOf("POST /memories", body), "held", {});
    expect("replay" in claim).toBe(false);
    const dup = await send(key, "POST", "/v1/memories", body, "slow-1");
    const message = "A request with this Idempotency-Key is still running; retry once it has answered";
    expectError(dup, 409, "IDEMPOTENCY_IN_FLIGHT", message, {
      field: "idempotency-key",
      constraint: "in_flight",
    });
    expect(await childCount(key, parent)).toBe(0);
    // It ended with an answer that ran nothing (e.g. Redis full): the key is free again.
    if (!("replay" in claim)) await claim.finish(new Response("{}", { status: 507 }), false);
    expect((await send(key, "POST", "/v1/memories", body, "slow-1")).status).toBe(200);
    expect(await childCount(key, parent)).toBe(1);
  });

  test("replays racing the original: exactly one runs; the rest replay it or are told it runs", async () => {
    const { key, parent } = await setup();
    const body = { content: "raced", parent_memory_id: parent };
    const answers = await Promise.all(
      Array.from({ length: 12 }, () => send(key, "POST", "/v1/memories", body, "race-1")),
    );
    expect(answers.every((a) => a.status === 200 || a.status === 409)).toBe(true);
    const ok = answers.filter((a) => a.status === 200);
    expect(ok.length).toBeGreaterThanOrEqual(1);
    expect(new Set(ok.map((a) => a.text)).size).toBe(1);
    expect(ok.filter((a) => a.headers.get("idempotent-replayed") === null)).toHaveLength(1);
    expect(await childCount(key, parent)).toBe(1);
    const after = await send(key, "POST", "/v1/memories", body, "race-1");
    expect([after.status, after.text]).toEqual([200, ok[0]!.text]);
  });

  test("claims and answers of one tenant go to Redis together under load, each keeping its own outcome", async () => {
    const { tenant, keyId } = await setup();
    let calls = 0;
    // The real Redis, with its function calls counted.
    const counted = new Proxy(redis, {
      get(target, prop, receiver) {
        const value = Reflect.get(target, prop, receiver);
        if (prop !== "fcall") return typeof value === "function" ? value.bind(target) : value;
        return (...args: unknown[]) => {
          calls++;
          return (value as (...a: unknown[]) => unknown).apply(target, args);
        };
      },
    }) as RedisClient;
    const idem = createIdempotency(counted, createLogger({ service: "test" }, "error"));
    const caller = { tenant, env: "live" as const, keyId, scopes: [] };
    const fp = (n: number) => fingerprintOf("POST /memories", { content: `n${n}` });
    const keys = Array.from({ length: 40 }, (_, i) => `load-${i}`);
    const first = await Promise.all(keys.map((k, i) => idem.claim(caller, k, fp(i), `r${i}`, {})));
    expect(first.every((c) => !("replay" in c))).toBe(true);
    expect(calls).toBeLessThan(40);
    calls = 0;
    const answers = await Promise.all(
      first.map((c, i) => (c as Claimed).finish(new Response(`{"n":${i}}`, { status: 200 }), true)),
    );
    expect(await Promise.all(answers.map((a) => a.text()))).toEqual(keys.map((_, i) => `{"n":${i}}`));
    expect(calls).toBeLessThan(40);
    // Each key replays its own answer; one sent with another request's input is refused alone.
    const again = await Promise.all(
      keys.map((k, i) => idem.claim(caller, k, fp(i === 7 ? 8 : i), `s${i}`, {}).catch((e: Error) => e)),
    );
    expect((again[7] as { code?: string }).code).toBe("IDEMPOTENCY_KEY_REUSED");
    for (const [i, c] of again.entries()) {
      if (i === 7) continue;
      expect(await (c as { replay: Response }).replay.text()).toBe(`{"n":${i}}`);
    }
  });

  test("keys are per API key: another key of the same tenant with the same Idempotency-Key runs its own", async () => {
    const { key, parent, tenant } = await setup();
    const other = await newTenant(baseUrl, adminKey, { tenant });
    const body = { content: "mine", parent_memory_id: parent };
    const a = await send(key, "POST", "/v1/memories", body, "shared");
    const b = await send(other.key, "POST", "/v1/memories", body, "shared");
    expect([a.status, b.status]).toEqual([200, 200]);
    expect(b.headers.get("idempotent-replayed")).toBeNull();
    expect(b.body.data.id).not.toBe(a.body.data.id);
    expect(await childCount(key, parent)).toBe(2);
  });

  test("an answer is kept 24 hours under the tenant's hash tag; once expired the key runs again", async () => {
    const { key, parent, tenant } = await setup();
    const body = { content: "kept", parent_memory_id: parent };
    const first = await send(key, "POST", "/v1/memories", body, "kept-1");
    const [stored] = await keysMatching(redis, `idem:{${tenant}:live}:*`);
    expect(stored).toBeDefined();
    const ttl = Number(await redis.pttl(stored!));
    expect(ttl).toBeGreaterThan(IDEMPOTENCY_TTL_MS - 60_000);
    expect(ttl).toBeLessThanOrEqual(IDEMPOTENCY_TTL_MS);
    await redis.pexpire(stored!, 1);
    await Bun.sleep(5);
    const again = await send(key, "POST", "/v1/memories", body, "kept-1");
    expect(again.headers.get("idempotent-replayed")).toBeNull();
    expect(again.body.data.id).not.toBe(first.body.data.id);
    expect(await childCount(key, parent)).toBe(2);
  });

  test("a key must be 1 to 255 visible ASCII characters: 400 with details", async () => {
    const { key } = await setup();
    const long = await send(key, "POST", "/v1/memories", { content: "x" }, "k".repeat(256));
    expectError(long, 400, "VALIDATION_ERROR", "Idempotency-Key must be at most 255 characters", {
      field: "idempotency-key",
      constraint: "max_length",
      max: 255,
    });
    const spaced = await send(key, "POST", "/v1/memories", { content: "x" }, "has space");
    expectError(spaced, 400, "VALIDATION_ERROR", "Idempotency-Key must be visible ASCII characters (no spaces)", {
      field: "idempotency-key",
      constraint: "format",
    });
    expect((await send(key, "POST", "/v1/memories", { content: "x" }, "k".repeat(255))).status).toBe(200);
  });

  test("refused where the answer holds a secret (a new key, a webhook secret): it would be kept", async () => {
    const { key } = await setup();
    const res = await send(key, "POST", "/v1/keys", { name: "k", scopes: ["memories:read"] }, "mint-1");
    expectError(
      res,
      400,
      "VALIDATION_ERROR",
      "Idempotency-Key is not accepted here: the answer holds a secret, which is never stored",
      { field: "idempotency-key", constraint: "unsupported" },
    );
    expect((await send(key, "GET", "/v1/keys")).body.meta.total).toBe(1);
  });

  test("GET ignores the header", async () => {
    const { key, parent } = await setup();
    const a = await send(key, "GET", `/v1/memories/${parent}`, undefined, "read-1");
    const b = await send(key, "GET", `/v1/memories/${parent}`, undefined, "read-1");
    expect([a.status, b.status, b.headers.get("idempotent-replayed")]).toEqual([200, 200, null]);
  });
});

describe("Idempotency-Key on GraphQL", () => {
  const gql = (key: string, query: string, variables: Record<string, unknown>, idem?: string) =>
    send(key, "POST", "/graphql", { query, variables }, idem);
  const CREATE = "mutation($input: CreateMemoryInput!) { createMemory(input: $input) { id content } }";

  test("a mutation replays its first answer byte for byte and runs once", async () => {
    const { key, parent } = await setup();
    const input = { content: "via graphql", parentMemoryId: parent };
    const first = await gql(key, CREATE, { input }, "gql-1");
    expect(first.status).toBe(200);
    expect(first.body.data.createMemory.content).toBe("via graphql");
    const again = await gql(key, CREATE, { input }, "gql-1");
    expect([again.text, again.headers.get("idempotent-replayed")]).toEqual([first.text, "true"]);
    expect(await childCount(key, parent)).toBe(1);
    const changed = await gql(key, CREATE, { input: { ...input, content: "other" } }, "gql-1");
    expect(changed.status).toBe(422);
    expect(changed.body.errors[0].extensions.code).toBe("IDEMPOTENCY_KEY_REUSED");
  });

  test("a mutation answering a secret is refused in that field, and runs nothing", async () => {
    const { key } = await setup();
    const mint = 'mutation { createKey(input: { name: "k", scopes: [MEMORIES_READ] }) { key } }';
    const res = await gql(key, mint, {}, "gql-mint");
    expect(res.body.data.createKey).toBeNull();
    expect(res.body.errors[0].extensions).toMatchObject({
      code: "VALIDATION_ERROR",
      details: { field: "idempotency-key", constraint: "unsupported" },
    });
    expect((await send(key, "GET", "/v1/keys")).body.meta.total).toBe(1);
  });

  test("a query ignores the header", async () => {
    const { key, parent } = await setup();
    const query = "query($id: ID!) { memory(id: $id) { id } }";
    await gql(key, query, { id: parent }, "q-1");
    const b = await gql(key, query, { id: parent }, "q-1");
    expect([b.status, b.headers.get("idempotent-replayed")]).toEqual([200, null]);
  });
});
