import type Redis from "ioredis";

/** Rewrites Redis's AOF now and waits for it (or for one already running); resolves the seconds it took. */
export async function rewriteAof(redis: Redis, timeoutMs = 300_000): Promise<number> {
  const started = performance.now();
  await redis.bgrewriteaof().catch(() => undefined); // already running: wait for that one
  await Bun.sleep(200);
  for (;;) {
    const info = await redis.info("persistence");
    if (/aof_rewrite_in_progress:0/.test(info) && /aof_rewrite_scheduled:0/.test(info))
      return (performance.now() - started) / 1000;
    if (performance.now() - started > timeoutMs) throw new Error("the AOF rewrite did not finish");
    await Bun.sleep(200);
  }
}
