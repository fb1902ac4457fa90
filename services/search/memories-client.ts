import type { Caller } from "../contract/op";
import type { Bus, CallContext } from "../kit/bus";
import { getMemories, listMemories, type Memory } from "../contract/memories";
import { memoryThreads, THREADS_MAX } from "../contract/threads";
import { snapshotOfMemory, type MemorySnapshot } from "../contract/events";
import { chunksOf } from "../kit/chunks";

/** The kit's call context with the caller required: the caller's tenant decides what the memories service shows. */
type CallContextWithCaller = CallContext & { caller: Caller };

const GET_MANY_MAX = 100;
const PAGE = 100;

/** A memory's thread as context shows it: ancestor ids (parent first, root last), siblings around it. */
export interface Thread {
  ancestors: string[];
  before: Memory[];
  after: Memory[];
}

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

    /**
     * The thread of each memory, in one call per 100: its ancestor ids (parent first, root last) and up to `n`
     * siblings just before it and just after it (thread order). A root shown without a parent has no siblings
     * read; a memory deleted meanwhile has no thread.
     */
    async threads(on: CallContextWithCaller, memories: Memory[], n: number): Promise<Thread[]> {
      const items = memories.map((m) => ({ id: m.id, siblings: m.parent_memory_id ? Math.max(0, n) : 0 }));
      const pages = await Promise.all(
        chunksOf(items, THREADS_MAX).map((chunk) => bus.call(memoryThreads, { items: chunk }, on)),
      );
      return pages
        .flatMap((page) => page.items)
        .map((t) => ({
          ancestors: t?.ancestor_ids ?? [],
          before: t?.before ?? [],
          after: t?.after ?? [],
        }));
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
