import type { Caller } from "../contract/op";
import type { Bus, CallContext } from "../kit/bus";
import { getMemories, listMemories, memoryAncestors, memorySiblings, type Memory } from "../contract/memories";
import { ServiceError } from "../contract/errors";
import { snapshotOfMemory, type MemorySnapshot } from "../contract/events";
import { chunksOf } from "../kit/chunks";

/** The kit's call context with the caller required: the caller's tenant decides what the memories service shows. */
type CallContextWithCaller = CallContext & { caller: Caller };

const GET_MANY_MAX = 100;
const PAGE = 100;

/**
 * Reads of the memories service (the source of truth) over NATS, through its contract only: full
 * memories for results, ancestors and thread neighbours for context, every memory for a rebuild.
 */
export function createMemoryReader(bus: Bus) {
  async function getMany(on: CallContextWithCaller, ids: string[]): Promise<Map<string, Memory>> {
    const out = new Map<string, Memory>();
    const unique = [...new Set(ids)];
    const pages = await Promise.all(
      chunksOf(unique, GET_MANY_MAX).map((chunk) => bus.call(getMemories, { ids: chunk }, on)),
    );
    for (const page of pages) for (const m of page.items) if (m) out.set(m.id, m);
    return out;
  }

  return {
    getMany,

    /** Parent first, root last. A memory deleted meanwhile has none. */
    async ancestors(on: CallContextWithCaller, id: string): Promise<string[]> {
      try {
        return (await bus.call(memoryAncestors, { id }, on)).ancestor_ids;
      } catch (err) {
        if (err instanceof ServiceError && err.code === "NOT_FOUND") return [];
        throw err;
      }
    },

    /** Up to `n` siblings of `m` just before it in its thread, and up to `n` just after (both in thread order). */
    async neighbors(on: CallContextWithCaller, m: Memory, n: number): Promise<{ before: Memory[]; after: Memory[] }> {
      if (n <= 0 || !m.parent_memory_id) return { before: [], after: [] };
      return bus.call(memorySiblings, { id: m.id, count: n }, on);
    },

    /** How many memories the caller's tenant has. */
    async count(on: CallContextWithCaller): Promise<number> {
      return (await bus.call(listMemories, { limit: 1 }, on)).total;
    },

    /**
     * Every memory of the caller's tenant as index snapshots, page by page (oldest first). The
     * memories service does not expose versions, so a rebuild writes these as "version unknown".
     */
    async *all(on: CallContextWithCaller): AsyncGenerator<{ snapshots: MemorySnapshot[]; total: number }> {
      for (let offset = 0; ; offset += PAGE) {
        const page = await bus.call(listMemories, { limit: PAGE, offset, sort: "created_at", order: "asc" }, on);
        if (page.items.length === 0) return;
        yield { snapshots: page.items.map((m) => snapshotOfMemory(m, -1)), total: page.total };
        if (offset + page.items.length >= page.total) return;
      }
    },
  };
}

export type MemoryReader = ReturnType<typeof createMemoryReader>;
