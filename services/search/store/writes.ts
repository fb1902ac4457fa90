import type { RedisClient } from "../../kit/redis-functions";
import type { Space } from "../../kit/space";
import { searchKeys } from "./keyspace";
import { B, CONTEXT_WEIGHT, K1 } from "../ranking";
import { DOC } from "./fields";
import type { SearchCall } from "../lua/library";

/** What the index stores of one memory (indexer/document.ts derives it from a snapshot). */
export interface IndexDoc {
  id: string;
  version: number;
  /** The texts given to the embedder, one vector each: the content, or its chunks (embedder/chunks.ts). */
  chunks: string[];
  contentHash: string;
  /** Own term counts (the lexical context of the previous sibling is added by the store). */
  tf: Record<string, number>;
  length: number;
  /** Vector-set attributes (JSON): the filterable fields (fields.ts ATTRS). */
  attrs: string;
  /** Filter-set suffixes this memory belongs to. */
  filterSuffixes: string[];
  parent: string;
  createdMs: number;
  updatedMs: number;
  occurredMs: number;
  /** Its member of its parent's thread order (fields.ts threadOrderMember). */
  threadOrder: string;
  /** When a memory superseded it (its occurred_at), else null. */
  validToMs: number | null;
  expiresMs: number | null;
  /**
   * Written in index layout 2's form (fields.ts WHOLE_INDEX_LAYOUT): one vector and no vector count, as the
   * release before wrote it, so that a rebuild in layout 3 knows to embed it again in chunks.
   */
  whole?: boolean;
}

/** Longer than the EVENTS stream keeps a message (7 days), so no late event outlives its tombstone. */
export const TOMBSTONE_TTL_MS = 8 * 24 * 3600_000;

export interface DocState {
  version: number;
  deleted: boolean;
  model: string;
  contentHash: string;
  updatedMs: number;
}

export interface UpsertItem {
  doc: IndexDoc;
  /** -1 = unknown (a rebuild from the memories store, which does not expose versions). */
  version: number;
  /** One per chunk, in order; null: keep the stored ones. */
  vectors: Float32Array[] | null;
}

/** `revectored`: a rebuild item not newer than the indexed memory: only its vector (new model) was written. */
export type UpsertStatus = "ok" | "stale" | "need_vector" | "revectored";
export type DeleteStatus = "ok" | "absent" | "stale";

/** A memory's vectors as one FP32 blob, chunk after chunk (upsert.lua cuts it into the chunk count's parts). */
const fp32 = (vs: Float32Array[]) => Buffer.concat(vs.map((v) => Buffer.from(v.buffer, v.byteOffset, v.byteLength)));

/** Index writes: each memory is one function call (atomic); calls of a batch are pipelined. */
export function createWriteStore(redis: RedisClient, call: SearchCall) {
  return {
    async states(space: Space, ids: string[]): Promise<Map<string, DocState>> {
      const k = searchKeys(space);
      const rows = await Promise.all(
        ids.map((id) => redis.hmget(k.doc(id), DOC.version, DOC.deleted, DOC.model, DOC.contentHash, DOC.updatedMs)),
      );
      const out = new Map<string, DocState>();
      rows.forEach((r, i) => {
        if (r[0] === null) return;
        out.set(ids[i]!, {
          version: Number(r[0]),
          deleted: r[1] === "1",
          model: r[2] ?? "",
          contentHash: r[3] ?? "",
          updatedMs: Number(r[4] ?? 0),
        });
      });
      return out;
    },

    async upsert(space: Space, model: string, items: UpsertItem[], nowMs = Date.now()): Promise<UpsertStatus[]> {
      const k = searchKeys(space);
      return Promise.all(
        items.map(({ doc, version, vectors }) => {
          const keys = [k.doc(doc.id), k.all, k.stats, k.vectors(model), ...doc.filterSuffixes.map(k.filter)];
          const args = [
            doc.id,
            version,
            model,
            vectors ? fp32(vectors) : "",
            doc.attrs,
            doc.contentHash,
            JSON.stringify(doc.tf),
            JSON.stringify(doc.filterSuffixes),
            doc.createdMs,
            doc.parent,
            doc.updatedMs,
            nowMs,
            K1,
            B,
            CONTEXT_WEIGHT,
            doc.occurredMs,
            doc.threadOrder,
            doc.validToMs ?? "",
            doc.expiresMs ?? "",
            vectors ? vectors.length : 0,
            doc.whole ? "1" : "",
          ];
          return call("upsert", keys, args) as Promise<UpsertStatus>;
        }),
      );
    },

    /** Recomputes lexical postings (current avgdl and siblings) of these memories. */
    async reweight(space: Space, ids: string[]): Promise<void> {
      const k = searchKeys(space);
      if (ids.length > 0) await call("reweight", [k.all, k.stats], [K1, B, CONTEXT_WEIGHT, ...ids]);
    },

    async remove(space: Space, deletes: { id: string; version: number }[]): Promise<DeleteStatus[]> {
      const k = searchKeys(space);
      return Promise.all(
        deletes.map((d) => {
          const args = [d.id, d.version, TOMBSTONE_TTL_MS, K1, B, CONTEXT_WEIGHT];
          return call("delete", [k.doc(d.id), k.all, k.stats], args) as Promise<DeleteStatus>;
        }),
      );
    },
  };
}
