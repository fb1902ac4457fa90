import { afterAll, describe, expect, test } from "bun:test";
import { stackRedis, testStack } from "../harness";
import { newTenant } from "../api";
import { createLogger } from "../../services/kit/log";
import type { RedisClient } from "../../services/kit/redis-functions";
import { primariesOf } from "../../services/kit/redis-scan";
import { type Claimed, createIdempotency } from "../../gateway/http/idempotency/idempotency";
import { fingerprintOf } from "../../gateway/http/idempotency/key";

/**
 * A write that claims its Idempotency-Key in its own step (Operation.claimsIdempotencyKey, `POST /v1/memories`):
 * what reaches Redis, and the gateway's look at the key once such a write has refused or failed.
 */
const stack = await testStack();
const { baseUrl, adminKey } = stack;
const redis: RedisClient = stackRedis(stack);
afterAll(() => redis.disconnect());

/** The function calls (FCALL) Redis runs while `act` runs, on every primary, as MONITOR shows them. */
async function functionCalls(act: () => Promise<void>): Promise<string[][]> {
  const seen: string[][] = [];
  const monitors = await Promise.all((await primariesOf(redis)).map((node) => node.monitor()));
  for (const m of monitors) {
    m.on("monitor", (_time: string, args: string[]) => {
      if (args[0]?.toLowerCase() === "fcall") seen.push(args);
    });
  }
  try {
    await act();
    // MONITOR's stream trails the replies a little.
    await Bun.sleep(100);
  } finally {
    for (const m of monitors) m.disconnect();
  }
  return seen;
}

describe("a write that claims its Idempotency-Key itself", () => {
  test("a keyed create is the create claiming the key, then the answer kept: no claim before it", async () => {
    const t = await newTenant(baseUrl, adminKey);
    const send = (key = "own-1") =>
      fetch(`${baseUrl}/v1/memories`, {
        method: "POST",
        headers: { Authorization: `Bearer ${t.key}`, "Content-Type": "application/json", "Idempotency-Key": key },
        body: JSON.stringify({ content: "claimed in its own step" }),
      });
    // The function libraries loaded first: a library's first call on a Redis that lacks it goes twice.
    expect((await send("warm-up")).status).toBe(200);
    let first = "";
    const calls = await functionCalls(async () => {
      const res = await send();
      expect(res.status).toBe(200);
      first = await res.text();
    });
    const ours = calls.filter((args) => args.some((a) => a.startsWith(`idem:{${t.tenant}:live}:`)));
    expect(ours.length).toBeGreaterThan(0);
    expect(ours.map((args) => args[1]!.replace(/_[0-9a-f]{12}$/, ""))).toEqual([
      "memories_create",
      "idempotency_batch",
    ]);
    expect(ours[1]).toContain("keep");
    expect(ours[1]).not.toContain("claim");
    const again = await send();
    expect([again.status, await again.text(), again.headers.get("idempotent-replayed")]).toEqual([200, first, "true"]);
  });

  test("a write that failed after claiming the key: the gateway finds its own claim and keeps the error", async () => {
    const idem = createIdempotency(redis, createLogger({ service: "test" }, "error"));
    const caller = { tenant: `own${crypto.randomUUID().slice(0, 8)}`, env: "live" as const, keyId: "k", scopes: [] };
    const fingerprint = fingerprintOf("POST /memories", { content: "x" });
    const prepared = idem.prepare(caller, "failed-late", fingerprint, "req-1", {});
    // The write's own step claimed it, then the write failed (e.g. its event was not published).
    await redis.set(prepared.keyClaim.key, prepared.keyClaim.value, "PX", prepared.keyClaim.leaseMs);
    const own = await prepared.afterRefusal();
    expect("replay" in own).toBe(false);
    await (own as Claimed).finish(new Response('{"error":{"code":"SERVICE_UNAVAILABLE"}}', { status: 503 }), true);
    const replay = await idem.claim(caller, "failed-late", fingerprint, "req-2", {});
    expect("replay" in replay && [replay.replay.status, await replay.replay.text()]).toEqual([
      503,
      '{"error":{"code":"SERVICE_UNAVAILABLE"}}',
    ]);
  });

  test("an answer is kept when the write did not claim its key (a service replica older than the claim)", async () => {
    const idem = createIdempotency(redis, createLogger({ service: "test" }, "error"));
    const caller = { tenant: `own${crypto.randomUUID().slice(0, 8)}`, env: "live" as const, keyId: "k", scopes: [] };
    const fingerprint = fingerprintOf("POST /memories", { content: "z" });
    const prepared = idem.prepare(caller, "unclaimed", fingerprint, "req-1", {});
    await prepared.claimed.finish(new Response('{"data":{"id":"m1"}}', { status: 200 }), true);
    // The keep goes out behind the answer; a claim through the same gateway queues after it.
    const replay = await idem.claim(caller, "unclaimed", fingerprint, "req-2", {});
    expect("replay" in replay && (await replay.replay.text())).toBe('{"data":{"id":"m1"}}');
  });

  test("a write refused before claiming: the gateway claims the key then; a second claim is a 409", async () => {
    const idem = createIdempotency(redis, createLogger({ service: "test" }, "error"));
    const caller = { tenant: `own${crypto.randomUUID().slice(0, 8)}`, env: "live" as const, keyId: "k", scopes: [] };
    const fingerprint = fingerprintOf("POST /memories", { content: "y" });
    const refused = idem.prepare(caller, "refused", fingerprint, "req-1", {});
    const claimed = await refused.afterRefusal();
    expect("replay" in claimed).toBe(false);
    expect(await redis.get(refused.keyClaim.key)).toBe(refused.keyClaim.value);
    const other = idem.prepare(caller, "refused", fingerprint, "req-2", {});
    const code = await other.afterRefusal().then(
      () => null,
      (err: { code: string }) => err.code,
    );
    expect(code).toBe("IDEMPOTENCY_IN_FLIGHT");
  });
});
