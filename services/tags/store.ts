import type Redis from "ioredis";
import type { ChainableCommander } from "ioredis";
import { keyspace, type Space } from "../kit/keyspace";
import type { TagRef } from "../contract/tags";
import type { MemoryRaw } from "./snapshot";

/**
 * The only code of the tags service that touches Redis (key names: kit/keyspace.ts; tag hash fields:
 * name, lname (the unique name key), color?, description?, created_at, updated_at in ms).
 * Every multi-key write is one Lua script in ./lua, so the tag, its name index and both ends of a
 * memory↔tag link never disagree, whatever runs concurrently or crashes.
 */
const lua = async (name: string) => Bun.file(new URL(`./lua/${name}.lua`, import.meta.url)).text();
const SCRIPTS = {
  tagCreate: await lua("create"),
  tagUpdate: await lua("update"),
  tagDelete: await lua("delete"),
  tagAttach: await lua("attach"),
  tagDetach: await lua("detach"),
};

type Reply = [string, ...unknown[]];
/** ioredis adds defined commands at runtime; this is their typed face (numkeys first, then keys, args). */
type Scripts = Record<keyof typeof SCRIPTS, (numKeys: number, ...args: (string | number)[]) => Promise<Reply>>;

/** "0" = null, "1<v>" = value, "-" = not sent: how optional values travel to the scripts. */
const opt = (v: string | null | undefined) => (v === undefined ? "-" : v === null ? "0" : `1${v}`);

/** Splits a key builder into prefix/suffix around the id, so Lua builds keys exactly as keyspace.ts does. */
const template = (build: (id: string) => string) => build("\u0000").split("\u0000") as [string, string];

const pairs = (flat: string[]) => {
  const out: Record<string, string> = {};
  for (let i = 0; i + 1 < flat.length; i += 2) out[flat[i]!] = flat[i + 1]!;
  return out;
};

async function run(m: ChainableCommander): Promise<unknown[]> {
  const res = (await m.exec()) ?? [];
  return res.map(([err, value]) => {
    if (err) throw err;
    return value;
  });
}

// One union member per status, so a handler's `if (status === …) throw` narrows to the OK shape.
type UpdateResult = { status: "NOTFOUND" } | { status: "DUP" } | { status: "OK"; row: TagRow };
type AttachResult = { status: "NO_MEMORY" } | { status: "CAP" } | { status: "NO_TAG"; tagId: string } | { status: "OK"; added: number; version: number; tagIds: string[] };
type DetachResult = { status: "NO_MEMORY" } | { status: "NO_TAG" } | { status: "OK"; removed: boolean; version: number };

export interface TagRow {
  id: string;
  hash: Record<string, string>;
  count: number;
}

export function createTagStore(redis: Redis) {
  for (const [name, script] of Object.entries(SCRIPTS)) redis.defineCommand(name, { lua: script });
  const s = redis as unknown as Scripts;

  /** Tag hashes and member counts of many tags, read in one transaction; missing tags are null. */
  async function rows(space: Space, ids: string[]): Promise<(TagRow | null)[]> {
    if (ids.length === 0) return [];
    const ks = keyspace(space);
    const m = redis.multi();
    for (const id of ids) m.hgetall(ks.tag(id)).zcard(ks.tagMembers(id));
    const res = await run(m);
    return ids.map((id, i) => {
      const hash = res[2 * i] as Record<string, string>;
      return Object.keys(hash).length === 0 ? null : { id, hash, count: res[2 * i + 1] as number };
    });
  }

  return {
    rows,

    async create(space: Space, t: { id: string; name: string; lname: string; color?: string | null; description?: string | null; now: number; cap: number }) {
      const ks = keyspace(space);
      const [status] = await s.tagCreate(3, ks.tag(t.id), ks.tagNames, ks.tagsByCreated, t.id, t.name, t.lname, opt(t.color ?? null), opt(t.description ?? null), t.now, t.cap);
      return status as "OK" | "DUP" | "CAP";
    },

    async update(space: Space, id: string, p: { name?: string; lname: string; color?: string | null; description?: string | null; now: number }): Promise<UpdateResult> {
      const ks = keyspace(space);
      const [status, count, flat] = await s.tagUpdate(3, ks.tag(id), ks.tagNames, ks.tagMembers(id), id, opt(p.name), p.lname, opt(p.color), opt(p.description), p.now);
      if (status !== "OK") return { status: status as "NOTFOUND" | "DUP" } as UpdateResult;
      return { status: "OK", row: { id, hash: pairs(flat as string[]), count: count as number } };
    },

    /** Returns the memories that lost the tag (their versions were bumped). */
    async remove(space: Space, id: string) {
      const ks = keyspace(space);
      const [mPre, mSuf] = template(ks.memory);
      const [tPre, tSuf] = template(ks.memoryTags);
      const [status, touched] = await s.tagDelete(4, ks.tag(id), ks.tagMembers(id), ks.tagNames, ks.tagsByCreated, id, mPre, mSuf, tPre, tSuf);
      return status === "OK" ? { found: true as const, touched: touched as string[] } : { found: false as const, touched: [] };
    },

    /** Every tag's id, name key and creation time: what search, sort and totals work on. */
    async index(space: Space): Promise<{ id: string; lname: string; created: number }[]> {
      const ks = keyspace(space);
      const [names, created] = (await run(redis.multi().hgetall(ks.tagNames).zrange(ks.tagsByCreated, "0", "-1", "WITHSCORES"))) as [Record<string, string>, string[]];
      const createdOf = new Map<string, number>();
      for (let i = 0; i + 1 < created.length; i += 2) createdOf.set(created[i]!, Number(created[i + 1]));
      return Object.entries(names).map(([lname, id]) => ({ id, lname, created: createdOf.get(id) ?? 0 }));
    },

    async counts(space: Space, ids: string[]): Promise<number[]> {
      if (ids.length === 0) return [];
      const ks = keyspace(space);
      const p = redis.pipeline();
      for (const id of ids) p.zcard(ks.tagMembers(id));
      return (await run(p)) as number[];
    },

    async attach(space: Space, memoryId: string, tagIds: string[], cap: number): Promise<AttachResult> {
      const ks = keyspace(space);
      const keys = [ks.memory(memoryId), ks.memoryTags(memoryId), ...tagIds.flatMap((t) => [ks.tag(t), ks.tagMembers(t)])];
      const [status, a, b, c] = await s.tagAttach(keys.length, ...keys, memoryId, cap, ...tagIds);
      if (status === "OK") return { status: "OK", added: a as number, version: b as number, tagIds: c as string[] };
      if (status === "NO_TAG") return { status: "NO_TAG", tagId: a as string };
      return { status: status as "NO_MEMORY" | "CAP" } as AttachResult;
    },

    async detach(space: Space, memoryId: string, tagId: string): Promise<DetachResult> {
      const ks = keyspace(space);
      const [status, removed, version] = await s.tagDetach(4, ks.memory(memoryId), ks.memoryTags(memoryId), ks.tag(tagId), ks.tagMembers(tagId), memoryId, tagId);
      if (status !== "OK") return { status: status as "NO_MEMORY" | "NO_TAG" } as DetachResult;
      return { status: "OK", removed: removed === 1, version: version as number };
    },

    /** Name and colour of tags; deleted ones are left out. */
    async refs(space: Space, ids: string[]): Promise<Map<string, TagRef>> {
      const out = new Map<string, TagRef>();
      if (ids.length === 0) return out;
      const ks = keyspace(space);
      const p = redis.pipeline();
      for (const id of ids) p.hmget(ks.tag(id), "name", "color");
      const res = (await run(p)) as (string | null)[][];
      ids.forEach((id, i) => {
        const [name, color] = res[i]!;
        if (name != null) out.set(id, { id, name, color: color ?? null });
      });
      return out;
    },

    async tagIdsOf(space: Space, memoryIds: string[]): Promise<string[][]> {
      if (memoryIds.length === 0) return [];
      const ks = keyspace(space);
      const p = redis.pipeline();
      for (const id of memoryIds) p.smembers(ks.memoryTags(id));
      return (await run(p)) as string[][];
    },

    /** Each memory's hash and link sets in one transaction (consistent with its `v`); missing ones are left out. */
    async snapshots(space: Space, memoryIds: string[]): Promise<MemoryRaw[]> {
      if (memoryIds.length === 0) return [];
      const ks = keyspace(space);
      const m = redis.multi();
      for (const id of memoryIds) m.hgetall(ks.memory(id)).smembers(ks.memoryTags(id)).smembers(ks.memoryEntities(id));
      const res = await run(m);
      const out: MemoryRaw[] = [];
      memoryIds.forEach((id, i) => {
        const hash = res[3 * i] as Record<string, string>;
        if (Object.keys(hash).length > 0) out.push({ id, hash, tagIds: res[3 * i + 1] as string[], entityIds: res[3 * i + 2] as string[] });
      });
      return out;
    },
  };
}

export type TagStore = ReturnType<typeof createTagStore>;
