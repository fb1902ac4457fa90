import { refusalOf } from "../../kit/redis-functions";
import type { ServiceError } from "../../contract/errors";
import { keyspace } from "../../memory-data/keyspace";
import type { KeyClaim } from "../../kit/wire";
import type { Space } from "../../kit/space";
import { SUPERSESSION_WALK_MAX, type ListMemoriesInput } from "../../contract/memories";
import { NO_LIMITS, type StorageLimits } from "../storage/quota";
import type { MemoriesCaller } from "../store/call";
import {
  parseMemories,
  parseMemory,
  parseRemoval,
  type CreatedReply,
  type MemoryFields,
  type MemoryRow,
  type ReadMemoryReply,
  type Removal,
  type RemovalReply,
} from "../store/record";
import { createArgs, createdRow, msOf, type Created, type MemoryDraft, type NewLife } from "./create-args";

export type MemoryFilter = Omit<ListMemoriesInput, "limit" | "offset" | "sort" | "order"> & {
  limit: number;
  offset: number;
  sort: "created_at" | "updated_at" | "occurred_at";
  order: "asc" | "desc";
};

/** The fields of a patch: a memory's own, and the times of its life (ISO 8601; expires_at null = never). */
export type MemoryPatch = Partial<MemoryFields> & { occurred_at?: string; expires_at?: string | null };

/**
 * The memories' own Redis calls: creates, reads, updates, deletes, the thread and supersession walks, and the
 * list. Every write is one function (lua/*.lua) that checks first, then updates the record and every index and
 * link together; a refusal (unknown memory, taken external_id...) rejects with the contract's error.
 */
export function memoryStore(call: MemoriesCaller) {
  const run = call.space;
  return {
    /**
     * The new memory; `superseded`: the memory it replaced (now marked so), if any. `limits`: the plan's,
     * unless the tenant's settings override them (lua/quota.lua); past them the create is QUOTA_EXCEEDED.
     * `keyClaim`: the request's Idempotency-Key, claimed in the same step (IDEMPOTENCY_IN_FLIGHT if held).
     */
    async createMemory(
      space: Space,
      id: string,
      f: MemoryFields,
      maxDepth: number,
      life: NewLife = {},
      limits: StorageLimits = NO_LIMITS,
      keyClaim?: KeyClaim,
    ): Promise<Created> {
      const args = [
        maxDepth,
        SUPERSESSION_WALK_MAX,
        limits.memories,
        limits.bytes,
        ...createArgs({ id, fields: f, life }),
      ];
      if (keyClaim) args.push(keyClaim.value, keyClaim.leaseMs);
      const reply = await run<CreatedReply>("create", space, args, keyClaim ? [keyClaim.key] : []);
      return createdRow({ id, fields: f, life }, reply);
    },

    /**
     * Memories created in order, in one step (create-batch.lua), each as createMemory creates one: aligned with
     * `items`, each the new memory or the refusal of that item alone. An item's parent may be an earlier item.
     */
    async createMemories(
      space: Space,
      items: MemoryDraft[],
      maxDepth: number,
      limits: StorageLimits = NO_LIMITS,
    ): Promise<(Created | ServiceError)[]> {
      if (items.length === 0) return [];
      const args: (string | number)[] = [maxDepth, SUPERSESSION_WALK_MAX, limits.memories, limits.bytes];
      for (const item of items) args.push(...createArgs(item));
      const replies = await run<([1, CreatedReply] | [0, string])[]>("create-batch", space, args);
      return replies.map((r, i) => {
        if (r[0] === 1) return createdRow(items[i]!, r[1]);
        const refusal = refusalOf(new Error(r[1]));
        if (!refusal) throw new Error(`create-batch: not a refusal: ${r[1]}`);
        return refusal;
      });
    },

    async getMemories(space: Space, ids: string[]): Promise<(MemoryRow | null)[]> {
      if (ids.length === 0) return [];
      return (await run<ReadMemoryReply[]>("get", space, ids)).map(parseMemory);
    },

    /**
     * `patch` holds only the fields to set; null parent/external_id/expires_at clears them. Also answers the
     * memory it superseded when its valid_to followed a new occurred_at. Content or metadata that grow past
     * the bytes quota (`limits`, as on create) are QUOTA_EXCEEDED.
     */
    async updateMemory(
      space: Space,
      id: string,
      patch: MemoryPatch,
      maxDepth: number,
      limits: StorageLimits = NO_LIMITS,
    ): Promise<{ row: MemoryRow; changed: string[]; superseded: MemoryRow | null }> {
      const fields: Record<string, string | null> = {};
      for (const [field, value] of Object.entries(patch)) {
        if (value === undefined) continue;
        if (field === "metadata") fields[field] = JSON.stringify(value);
        else if (field === "occurred_at" || field === "expires_at")
          fields[field] = value === null ? null : msOf(value as string);
        else fields[field] = value as string | null;
      }
      const args = [id, maxDepth, JSON.stringify(fields), limits.memories, limits.bytes];
      const r = await run<[ReadMemoryReply, string[], ReadMemoryReply]>("update", space, args);
      return { row: parseMemory(r[0])!, changed: r[1], superseded: parseMemory(r[2]) };
    },

    async deleteMemory(space: Space, id: string, cascade: boolean): Promise<Removal> {
      return parseRemoval(await run<RemovalReply>("delete", space, [id, cascade ? "1" : "0"]));
    },

    /** The siblings around a memory in its thread (siblings.lua). */
    async siblings(space: Space, id: string, count: number): Promise<{ before: MemoryRow[]; after: MemoryRow[] }> {
      const [before, after] = await run<[ReadMemoryReply[], ReadMemoryReply[]]>("siblings", space, [id, count]);
      return { before: parseMemories(before), after: parseMemories(after) };
    },

    /**
     * The latest memory of the chain a create naming `id` in `supersedes` would replace (chain-head.lua); null
     * when `id` is unknown or expired. A chain longer than the walk allows is its create's refusal.
     */
    async supersessionHead(space: Space, id: string): Promise<string | null> {
      const r = await run<string | false>("chain-head", space, [id, SUPERSESSION_WALK_MAX]);
      return r === false ? null : r;
    },

    /** The memories a delete of `id` would change but not delete (removal-touches.lua); null when unknown. */
    async removalTouches(space: Space, id: string, cascade: boolean): Promise<string[] | null> {
      const r = await run<string[] | false>("removal-touches", space, [id, cascade ? "1" : "0"]);
      return r === false ? null : r;
    },

    async ancestors(space: Space, id: string, maxDepth: number): Promise<string[] | null> {
      const r = await run<string[] | false>("ancestors", space, [id, maxDepth]);
      return r === false ? null : r;
    },

    async listMemories(space: Space, q: MemoryFilter): Promise<{ total: number; rows: MemoryRow[] }> {
      const ks = keyspace(space);
      const sets = new Set<string>();
      if (q.parent_memory_id) sets.add(ks.memoryKids(q.parent_memory_id));
      if (q.root === true) sets.add(ks.roots);
      if (q.tier) sets.add(ks.byField("tier", q.tier));
      if (q.content_type) sets.add(ks.byField("content_type", q.content_type));
      if (q.memory_nature) sets.add(ks.byField("memory_nature", q.memory_nature));
      for (const tagId of q.tag_id ?? []) sets.add(ks.tagMembers(tagId));
      if (q.entity_id) sets.add(ks.entityMembers(q.entity_id));
      const ms = (iso: string | undefined) => (iso === undefined ? "" : msOf(iso));
      const args = [
        q.sort === "updated_at" ? "updated" : q.sort === "occurred_at" ? "occurred" : "created",
        q.order,
        q.offset,
        q.limit,
        ms(q.created_after),
        ms(q.created_before),
        ms(q.occurred_after),
        ms(q.occurred_before),
        q.root === false ? "1" : "0",
        q.external_id ?? "",
        q.parent_memory_id ? "1" : "0",
      ];
      const [total, raws] = await run<[number, ReadMemoryReply[]]>("list", space, args, [...sets]);
      return { total: Number(total), rows: parseMemories(raws) };
    },
  };
}
