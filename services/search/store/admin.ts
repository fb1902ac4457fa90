import type { RedisClient } from "../../kit/redis-functions";
import { globLiteral, scanKeys, unlinkMatching } from "../../kit/redis-scan";
import type { Space } from "../../kit/space";
import { DOC, META, STATS } from "./fields";
import { META_KEY_PATTERN, searchKeys, spaceOfMetaKey } from "./keyspace";
import type { SearchCall } from "../lua/library";

export interface IndexMeta {
  model: string;
  dims: number;
  state: "ready" | "building";
  builtAt: number;
  /** The layout it was built with (fields.ts INDEX_LAYOUT); "" when none is recorded. */
  layout: string;
}

/** Index bookkeeping: meta (which model, built or not), the rebuild lock, and walking a tenant's index. */
export function createAdminStore(redis: RedisClient, call: SearchCall) {
  return {
    async meta(space: Space): Promise<IndexMeta | null> {
      const h = await redis.hgetall(searchKeys(space).meta);
      const model = h[META.model];
      if (!model) return null;
      return {
        model,
        dims: Number(h[META.dimensions]),
        state: h[META.state] === "building" ? "building" : "ready",
        builtAt: Number(h[META.builtAt] ?? 0),
        layout: h[META.layout] ?? "",
      };
    },

    async setMeta(space: Space, meta: IndexMeta): Promise<void> {
      await redis.hset(searchKeys(space).meta, {
        [META.model]: meta.model,
        [META.dimensions]: meta.dims,
        [META.state]: meta.state,
        [META.builtAt]: meta.builtAt,
        [META.layout]: meta.layout,
      });
    },

    async lock(space: Space, owner: string, ttlMs: number): Promise<boolean> {
      return (await redis.set(searchKeys(space).lock, owner, "PX", ttlMs, "NX")) === "OK";
    },
    async refreshLock(space: Space, owner: string, ttlMs: number): Promise<boolean> {
      return Number(await call("lock-refresh", [searchKeys(space).lock], [owner, ttlMs])) === 1;
    },
    async unlock(space: Space, owner: string): Promise<void> {
      await call("lock-release", [searchKeys(space).lock], [owner]);
    },

    /** Every id in the index with the time it was last written (ms), in pages. */
    async *indexed(space: Space, page = 500): AsyncGenerator<{ id: string; at: number }[]> {
      const k = searchKeys(space);
      let cursor = "0";
      do {
        const [next, flat] = await redis.zscan(k.all, cursor, "COUNT", page);
        cursor = next;
        const ids = flat.filter((_, i) => i % 2 === 0);
        if (ids.length === 0) continue;
        const ats = await Promise.all(ids.map((id) => redis.hget(k.doc(id), DOC.indexedMs)));
        yield ids.map((id, i) => ({ id, at: Number(ats[i] ?? 0) }));
      } while (cursor !== "0");
    },

    /**
     * One bounded step of erasing the space's whole index: documents, postings, filter sets, vector sets, meta
     * and stats (contract/erase.ts).
     */
    async erase(space: Space, budget: number): Promise<{ deleted: number; done: boolean }> {
      return unlinkMatching(redis, [`${globLiteral(searchKeys(space).prefix)}*`], budget);
    },

    async size(space: Space): Promise<number> {
      return redis.zcard(searchKeys(space).all);
    },

    /**
     * Memories with vectors of one model in the space (0 when its vector set does not exist): the set's
     * elements less the chunk vectors past each memory's first.
     */
    async vectorCount(space: Space, modelId: string): Promise<number> {
      const k = searchKeys(space);
      const [elements, extra] = await Promise.all([
        redis.call("VCARD", k.vectors(modelId)),
        redis.hget(k.stats, STATS.extraVectors),
      ]);
      return Number(elements) - Number(extra ?? 0);
    },

    /** Vector sets of models other than `keep` (left over from a model change). */
    async dropOtherVectorSets(space: Space, keep: string): Promise<number> {
      const k = searchKeys(space);
      let dropped = 0;
      for await (const keys of scanKeys(redis, `${k.prefix.replace(/([*?[\]\\])/g, "\\$1")}v:*`, 200)) {
        for (const key of keys) if (key !== k.vectors(keep)) dropped += await redis.del(key);
      }
      return dropped;
    },

    /** Tenant spaces that have a search index (the meta key), for `reindex` without `--tenant`. */
    async spaces(): Promise<Space[]> {
      const out: Space[] = [];
      for await (const keys of scanKeys(redis, META_KEY_PATTERN.replace(/[{}]/g, "\\$&"))) {
        for (const key of keys) {
          const s = spaceOfMetaKey(key);
          if (s) out.push(s);
        }
      }
      return out;
    },
  };
}

export type AdminStore = ReturnType<typeof createAdminStore>;
