import { globLiteral, unlinkMatching } from "../../kit/redis-scan";
import type { RedisClient } from "../../kit/redis-client";
import { execBatch } from "../../kit/slot-moves";
import { keyspace } from "../../memory-data/keyspace";
import { hashTag, type Space } from "../../kit/space";
import { tagsLibrary } from "../lua/library";
import { hashOfPairs } from "../../kit/redis-replies";
import type { TagRef } from "../../contract/tags";
import { createMemoryDataReads, queueTagCount } from "../../memory-data/reads";

/**
 * The only code of the tags service that touches Redis (key names: memory-data/keyspace.ts; tag hash fields:
 * name, lname (the unique name key), color?, description?, created_at, updated_at in ms).
 * Every multi-key write is one Redis function (lua/library.ts), so the tag, its name index and
 * both ends of a memory↔tag link never disagree, whatever runs concurrently or crashes. A refusal
 * (unknown tag or memory, taken name, a cap) rejects with the contract's error.
 * The tags service owns the `t:` tag hashes and the `ti:` indexes: the links, a memory's version and its hash
 * are memory-data's, changed only through its Lua (links.lua) and read through its reads.ts.
 */

export interface NewTag {
  id: string;
  name: string;
  lname: string;
  color?: string | null;
  description?: string | null;
  now: number;
  cap: number;
}

/** The fields of a tag to change: a new name comes with its name key (lname). */
export type TagPatch = { name?: string; lname?: string; color?: string | null; description?: string | null };

/** Tags added (0 when all were attached already), the memory's version after, every tag now attached. */
export interface Attached {
  added: number;
  version: number;
  tagIds: string[];
}

export interface TagRow {
  id: string;
  hash: Record<string, string>;
  count: number;
}

export function createTagStore(redis: RedisClient) {
  const call = tagsLibrary.on(redis);
  const memoryData = createMemoryDataReads(redis);

  /** Tag hashes and member counts of many tags, read in one transaction; missing tags are null. */
  async function rows(space: Space, ids: string[]): Promise<(TagRow | null)[]> {
    if (ids.length === 0) return [];
    const ks = keyspace(space);
    const res = await execBatch(() => {
      const m = redis.multi();
      for (const id of ids) queueTagCount(m.hgetall(ks.tag(id)), space, id);
      return m;
    });
    return ids.map((id, i) => {
      const hash = res[2 * i] as Record<string, string>;
      return Object.keys(hash).length === 0 ? null : { id, hash, count: res[2 * i + 1] as number };
    });
  }

  return {
    rows,

    /** One bounded step of erasing the space's tags and their indexes (contract/erase.ts). */
    async erase(space: Space, budget: number): Promise<{ deleted: number; done: boolean }> {
      const tag = globLiteral(hashTag(space));
      return unlinkMatching(redis, [`t:${tag}:*`, `ti:${tag}:*`], budget);
    },

    async create(space: Space, t: NewTag): Promise<void> {
      const ks = keyspace(space);
      const optional = JSON.stringify({ color: t.color ?? null, description: t.description ?? null });
      await call(
        "create",
        [ks.tag(t.id), ks.tagNames, ks.tagsByCreated],
        [t.id, t.name, t.lname, t.now, t.cap, optional],
      );
    },

    /** `patch` holds only the fields to change; null color/description removes them. */
    async update(space: Space, id: string, patch: TagPatch, now: number): Promise<TagRow> {
      const ks = keyspace(space);
      const keys = [ks.tag(id), ks.tagNames, ks.tagMembers(id)];
      const [count, flat] = (await call("update", keys, [id, now, JSON.stringify(patch)])) as [number, string[]];
      return { id, hash: hashOfPairs(flat), count };
    },

    /** Returns the memories that lost the tag (their versions were bumped). */
    async remove(space: Space, id: string): Promise<string[]> {
      const ks = keyspace(space);
      return (await call("delete", [ks.tag(id), ks.tagMembers(id), ks.tagNames, ks.tagsByCreated], [id])) as string[];
    },

    /** Every tag's id, name key and creation time: what search, sort and totals work on. */
    async index(space: Space): Promise<{ id: string; lname: string; created: number }[]> {
      const ks = keyspace(space);
      const [names, created] = (await execBatch(() =>
        redis.multi().hgetall(ks.tagNames).zrange(ks.tagsByCreated, "0", "-1", "WITHSCORES"),
      )) as [Record<string, string>, string[]];
      const createdOf = hashOfPairs(created);
      return Object.entries(names).map(([lname, id]) => ({ id, lname, created: Number(createdOf[id] ?? 0) }));
    },

    /** Each tag's memory_count. */
    counts: memoryData.tagCounts,

    async attach(space: Space, memoryId: string, tagIds: string[], cap: number): Promise<Attached> {
      const ks = keyspace(space);
      const tagKeys = tagIds.flatMap((t) => [ks.tag(t), ks.tagMembers(t)]);
      const keys = [ks.memory(memoryId), ks.memoryTags(memoryId), ...tagKeys];
      const [added, version, now] = (await call("attach", keys, [memoryId, cap, ...tagIds])) as [
        number,
        number,
        string[],
      ];
      return { added, version, tagIds: now };
    },

    async detach(space: Space, memoryId: string, tagId: string): Promise<{ removed: boolean; version: number }> {
      const ks = keyspace(space);
      const keys = [ks.memory(memoryId), ks.memoryTags(memoryId), ks.tag(tagId), ks.tagMembers(tagId)];
      const [removed, version] = (await call("detach", keys, [memoryId, tagId])) as [number, number];
      return { removed: removed === 1, version };
    },

    /** Name and colour of tags; deleted ones are left out. */
    async refs(space: Space, ids: string[]): Promise<Map<string, TagRef>> {
      const out = new Map<string, TagRef>();
      if (ids.length === 0) return out;
      const ks = keyspace(space);
      const res = (await execBatch(() => {
        const p = redis.pipeline();
        for (const id of ids) p.hmget(ks.tag(id), "name", "color");
        return p;
      })) as (string | null)[][];
      ids.forEach((id, i) => {
        const [name, color] = res[i]!;
        if (name != null) out.set(id, { id, name, color: color ?? null });
      });
      return out;
    },

    /** The tag ids of each memory. */
    tagIdsOf: memoryData.tagIdsOf,

    /** Each memory's snapshot, read with its link sets in one transaction; missing ones are left out. */
    snapshots: memoryData.snapshots,
  };
}

export type TagStore = ReturnType<typeof createTagStore>;
