import type Redis from "ioredis";
import type { RedisClient } from "../../../services/kit/redis-functions";
import { primariesOf } from "../../../services/kit/redis-scan";
import { Gauge, type Registry } from "prom-client";

/** INFO memory is read at most once per this many ms, however many gauges a scrape collects. */
const FRESH_MS = 1000;
/** A scrape does not wait longer than this on Redis; the gauges then keep their last values. */
const TIMEOUT_MS = 500;

/**
 * Redis memory against its ceiling, read at scrape time: `redis_used_memory_bytes` and
 * `redis_maxmemory_bytes` (0 = no ceiling). At maxmemory, writes answer 507 STORAGE_FULL; operators
 * alert on the ratio (docs/operations.md). On a Redis Cluster both come from the fullest primary: a
 * tenant's writes are refused when its own shard is full.
 */
export function registerRedisMemory(registry: Registry, redis: RedisClient) {
  let last: { at: number; info: Promise<Record<string, number>> } | null = null;
  const read = () => {
    if (!last || Date.now() - last.at > FRESH_MS) last = { at: Date.now(), info: memoryInfo(redis) };
    return last.info;
  };
  const gauge = (name: string, help: string, field: string) =>
    new Gauge({
      name,
      help,
      registers: [registry],
      async collect() {
        const info: Record<string, number> = await read().catch(() => ({}));
        const value = info[field];
        if (value !== undefined) this.set(value);
      },
    });
  gauge("redis_used_memory_bytes", "Memory Redis uses (INFO memory used_memory)", "used_memory");
  gauge("redis_maxmemory_bytes", "Redis's memory ceiling (maxmemory); 0 = none", "maxmemory");
}

async function memoryInfo(redis: RedisClient): Promise<Record<string, number>> {
  const infos = await Promise.all((await primariesOf(redis)).map(nodeMemoryInfo));
  const fill = (i: Record<string, number>) => (i.maxmemory ? (i.used_memory ?? 0) / i.maxmemory : 0);
  const used = (i: Record<string, number>) => i.used_memory ?? 0;
  const fuller = (a: Record<string, number>, b: Record<string, number>) =>
    fill(b) > fill(a) || (fill(b) === fill(a) && used(b) > used(a)) ? b : a;
  return infos.reduce(fuller);
}

async function nodeMemoryInfo(redis: Redis): Promise<Record<string, number>> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error("INFO memory timed out")), TIMEOUT_MS);
  });
  try {
    const text = await Promise.race([redis.info("memory"), late]);
    const out: Record<string, number> = {};
    for (const line of text.split("\r\n")) {
      const [key, value] = line.split(":");
      if (key && value !== undefined && /^\d+$/.test(value)) out[key] = Number(value);
    }
    return out;
  } finally {
    clearTimeout(timer);
  }
}
