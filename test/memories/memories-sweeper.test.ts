import { afterAll, describe, expect, test } from "bun:test";
import { stackRedis, testStack } from "../harness";
import type { Child } from "../../scripts/stack/launch";
import { EXPIRY_REGISTRY } from "../../services/memory-data/keyspace";
import { eventually } from "../search/search-helpers";
import { tenant } from "./memory-helpers";
import { inMs, make, read, watchEvents } from "./lifecycle-helpers";

/**
 * The expiry sweeper runs in every memories replica: spaces are claimed with a lease, so replicas share
 * the work and each expired memory is purged once; a space whose registration was lost is found by the
 * walk over the keyspace each replica makes as it starts.
 */
let extra: Child | null = null;
afterAll(async () => {
  await extra?.stop();
});

describe("the expiry sweeper", () => {
  // On the cluster stack the first replicas' own start-up walk can still be under way when this runs, and find the
  // space before the added replica does: the test's premise (nobody walks until the new replica starts) fails.
  const onCluster = process.env.TEST_CLUSTER === "1";
  test.skipIf(onCluster)(
    "a space whose registration is lost waits, until a starting replica's walk finds it",
    async () => {
      const stack = await testStack();
      const { api, tenant: t } = await tenant();
      const events = await watchEvents(t);
      const redis = stackRedis(stack);
      try {
        const m = await make(api, { expires_at: inMs(400) });
        // What a replica killed between the write and its registration leaves behind.
        await redis.zrem(EXPIRY_REGISTRY.due, `{${t}:live}`);
        await eventually(async () => expect(await read(api, m.id)).toBeNull(), 5000, 20);
        await Bun.sleep(2000);
        expect(events.of("deleted", m.id)).toEqual([]);

        // Its walk reads 1,000 keys a tick; by this test the shared stack holds tens of thousands of keys, so it
        // ticks every 100 ms instead of every second, or the walk would outlast the wait.
        extra = stack.addReplica("memories", { EXPIRY_SWEEP_INTERVAL_MS: "100" });
        await eventually(async () => expect(events.of("deleted", m.id).length).toBe(1), 30_000, 100);
        expect(events.of("deleted", m.id)[0]!.reason).toBe("expired");
      } finally {
        redis.disconnect();
        await events.close();
      }
    },
    60_000,
  );

  test("two replicas purge every expired memory of many spaces, each once", async () => {
    extra ??= (await testStack()).addReplica("memories");
    const spaces = await Promise.all(Array.from({ length: 30 }, () => tenant()));
    const watched = await Promise.all(spaces.map((s) => watchEvents(s.tenant)));
    try {
      // Far enough ahead that 240 creates on a busy machine all land before it.
      const expiresAt = inMs(8000);
      const made = await Promise.all(
        spaces.map(async (s) => {
          const out = [];
          for (let i = 0; i < 8; i++) out.push(await make(s.api, { content: `m${i}`, expires_at: expiresAt }));
          return out;
        }),
      );
      const total = made.flat().length;
      const deletes = () => watched.flatMap((w) => w.seen.filter((e) => e.type === "deleted"));
      await eventually(async () => expect(deletes().length).toBe(total), 40_000, 100);
      await Bun.sleep(1000);
      expect(deletes().length).toBe(total);
      expect(new Set(deletes().map((e) => e.memory_id)).size).toBe(total);
      expect(deletes().every((e) => e.reason === "expired")).toBe(true);
      for (const s of spaces) expect((await s.api.get("/v1/memories")).body.meta.total).toBe(0);
    } finally {
      await Promise.all(watched.map((w) => w.close()));
    }
  }, 90_000);
});
