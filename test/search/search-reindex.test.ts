import { describe, expect, test } from "bun:test";
import { resolve } from "node:path";
import { keysMatching, stackRedis, testStack } from "../harness";
import { runProcess } from "../process-helpers";
import { createMemory, ok, tenant, type MemoryOut } from "../memories/memory-helpers";
import { search, searchIds, word } from "./search-helpers";
import { INDEX_WAIT_MS } from "../../services/contract/search-index";

const sorted = (xs: string[]) => [...xs].sort();

describe("bun run reindex", () => {
  test("repairs a damaged index from the memories store, with a progress report", async () => {
    const stack = await testStack();
    const { api, tenant: name } = await tenant();
    const made: MemoryOut[] = [];
    for (let i = 0; i < 5; i++)
      made.push(await createMemory(api, { content: `repair ${word()}`, tier: i % 2 ? "long" : "short" }));
    await ok(api.delete(`/v1/memories/${made[4]!.id}`));
    const alive = made.slice(0, 4);

    // The first search of a tenant builds its meta (the mark of a complete index); the event indexer
    // sees the writes after INDEX_WAIT_MS + 0.5 s. Both would repair the damage below by themselves.
    expect((await searchIds(api, { query: "*" })).length).toBe(4);
    await Bun.sleep(INDEX_WAIT_MS + 1500);
    // Damage: every index key but the meta (so the service does not notice by itself), plus a stray entry.
    const redis = stackRedis(stack);
    try {
      const keys = (await keysMatching(redis, `s:{${name}:live}:*`)).filter((k) => !k.endsWith(":meta"));
      await redis.del(...keys);
      await redis.zadd(`s:{${name}:live}:all`, 1, "00000000-0000-4000-8000-000000000000");
    } finally {
      redis.disconnect();
    }
    expect(await searchIds(api, { query: "*", tier: "long" })).toEqual([]);

    const { code, err } = await runProcess(
      [process.execPath, resolve("services/search/cli/reindex.ts"), "--tenant", name, "--env", "live"],
      { env: { ...process.env, REDIS_URL: stack.redisUrl, NATS_URL: stack.natsUrl, LOG_LEVEL: "warn" } },
    );
    expect(code).toBe(0);
    expect(err).toContain(`${name} (live) [##############################] 4/4`);
    expect(err).toContain(`${name} (live) 4 memories, 4 (re)indexed, 1 removed`);

    expect(sorted(await searchIds(api, { query: "*" }))).toEqual(sorted(alive.map((m) => m.id)));
    expect(sorted(await searchIds(api, { query: "*", tier: "long" }))).toEqual(sorted([made[1]!.id, made[3]!.id]));
    expect((await search(api, { query: alive[2]!.content.split(" ")[1]! }))[0]!.id).toBe(alive[2]!.id);
  }, 60_000);

  test("rejects a bad --env", async () => {
    const { code, err } = await runProcess([
      process.execPath,
      resolve("services/search/cli/reindex.ts"),
      "--env",
      "prod",
    ]);
    expect(code).toBe(2);
    expect(err).toContain("usage: bun run reindex");
  });
});
