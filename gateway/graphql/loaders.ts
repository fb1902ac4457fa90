import DataLoader from "dataloader";
import { getMemories, memoryAncestors, type Memory } from "../../services/contract/memories";
import { getTags, type Tag } from "../../services/contract/tags";
import { getEntities, type Entity } from "../../services/contract/entities";
// The resolvers' `call` (./context), imported from its source: ./context holds these loaders, so not from there.
import { type CallerContext, callOperation as call } from "../http/exchange/operation-call";

type Ctx = Pick<CallerContext, "deps" | "identity" | "requestId" | "trace">;

/**
 * Per-request batch loaders: every `parent`, `tags` and `entities` of one level of a query becomes
 * one batch operation, whatever the number of memories (no N+1). Caches live for one request only.
 */
export function createLoaders(ctx: Ctx) {
  const memory = new DataLoader<string, Memory | null>(
    async (ids) => (await call(ctx, getMemories, { ids: [...ids] })).items,
    {
      maxBatchSize: 100,
    },
  );
  const tag = new DataLoader<string, Tag | null>(async (ids) => (await call(ctx, getTags, { ids: [...ids] })).items, {
    maxBatchSize: 1000,
  });
  const entity = new DataLoader<string, Entity | null>(
    async (ids) => (await call(ctx, getEntities, { ids: [...ids] })).items,
    {
      maxBatchSize: 1000,
    },
  );
  // No batch form of `memories.ancestors`: one call per memory, cached for the request
  // (and priced by the fan-out limit).
  const ancestors = new DataLoader<string, string[]>((ids) =>
    Promise.all(
      ids.map((id) =>
        call(ctx, memoryAncestors, { id }).then(
          (r) => r.ancestor_ids,
          (err: Error) => err,
        ),
      ),
    ),
  );
  return {
    memory,
    tag,
    entity,
    ancestors,
    /** Memories read by a list or a write: later `parent` lookups in the same request reuse them. */
    primeMemories(items: Memory[]) {
      for (const m of items) memory.clear(m.id).prime(m.id, m);
    },
    /** Subscriptions live long: each event must see current data, not the first event's. */
    clearAll() {
      memory.clearAll();
      tag.clearAll();
      entity.clearAll();
      ancestors.clearAll();
    },
  };
}

export type Loaders = ReturnType<typeof createLoaders>;

/** Values of a loadMany without the ids that no longer exist (deleted between two reads). */
export const present = <T>(values: (T | null | Error)[]): T[] => {
  const out: T[] = [];
  for (const v of values) {
    if (v instanceof Error) throw v;
    if (v !== null) out.push(v);
  }
  return out;
};
