import type { Space } from "../../kit/space";
import type { MemorySnapshot } from "../../contract/events";
import type { Embedders } from "../embedder";
import { toIndexDoc } from "./document";
import type { IndexDoc, SearchStore, UpsertItem } from "../store";

export interface Changes {
  upserts: MemorySnapshot[];
  deletes: { id: string; version: number }[];
}

export interface ApplyOptions {
  /** Versions are unknown (a rebuild from the memories store): never overrides a known version. */
  unversioned?: boolean;
  /** Whose embeddings: a waiting write (default) or background work. */
  lane?: "write" | "background";
}

/**
 * Applies memory changes to one tenant's index, idempotently: per memory the highest version wins
 * (a delete at or above an upsert's version wins), stale versions are dropped by the store's scripts,
 * and the model runs only for memories whose content (or the model) changed.
 */
export function createApplier(
  store: SearchStore,
  embedders: Pick<Embedders, "write" | "background">,
  modelId: string,
  /** Whether to write a long memory's vectors per chunk (data layout 3 on), or whole (document.ts). */
  chunked: () => boolean = () => true,
) {
  async function embedInto(
    lane: "write" | "background",
    items: UpsertItem[],
    need: (item: UpsertItem) => boolean,
  ): Promise<void> {
    const todo = items.filter(need);
    if (todo.length === 0) return;
    // Every chunk of every memory in one call, so the batcher fills the model's batches across memories.
    const vectors = await embedders[lane].embed(todo.flatMap((i) => i.doc.chunks));
    let at = 0;
    for (const item of todo) {
      item.vectors = vectors.slice(at, at + item.doc.chunks.length);
      at += item.doc.chunks.length;
    }
  }

  return async function apply(
    space: Space,
    changes: Changes,
    opts: ApplyOptions = {},
  ): Promise<{ indexed: number; removed: number }> {
    const deleteAt = new Map<string, number>();
    for (const d of changes.deletes) deleteAt.set(d.id, Math.max(d.version, deleteAt.get(d.id) ?? -Infinity));
    const latest = new Map<string, MemorySnapshot>();
    for (const s of changes.upserts) {
      const del = deleteAt.get(s.id);
      if (del !== undefined && del >= s.version) continue;
      const prev = latest.get(s.id);
      if (!prev || s.version > prev.version) latest.set(s.id, s);
    }

    let indexed = 0;
    if (latest.size > 0) {
      const snapshots = [...latest.values()];
      const states = await store.writes.states(
        space,
        snapshots.map((s) => s.id),
      );
      const items: UpsertItem[] = [];
      const inChunks = chunked();
      for (const s of snapshots) {
        const state = states.get(s.id);
        // Cheap early drop; the script checks again atomically.
        if (!opts.unversioned && state && state.version >= s.version && (state.deleted || state.model === modelId))
          continue;
        const doc: IndexDoc = toIndexDoc(s, embedders.write.maxTokens, inChunks);
        items.push({ doc, version: opts.unversioned ? -1 : s.version, vectors: null });
      }
      const fresh = (item: UpsertItem) => {
        const state = states.get(item.doc.id);
        return !state || state.deleted || state.model !== modelId || state.contentHash !== item.doc.contentHash;
      };
      const lane = opts.lane ?? "write";
      await embedInto(lane, items, fresh);
      let statuses = await store.writes.upsert(space, modelId, items);
      // The vector we meant to keep is gone (e.g. the vector set was lost): embed and write again.
      const retry = items.filter((_, i) => statuses[i] === "need_vector");
      if (retry.length > 0) {
        await embedInto(lane, retry, () => true);
        const again = await store.writes.upsert(space, modelId, retry);
        statuses = statuses.map((s) => (s === "need_vector" ? again.shift()! : s));
      }
      indexed = statuses.filter((s) => s === "ok" || s === "revectored").length;
    }

    let removed = 0;
    if (deleteAt.size > 0) {
      const statuses = await store.writes.remove(
        space,
        [...deleteAt].map(([id, version]) => ({ id, version })),
      );
      removed = statuses.filter((s) => s === "ok").length;
    }
    return { indexed, removed };
  };
}

export type Apply = ReturnType<typeof createApplier>;
