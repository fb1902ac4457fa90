import { beforeAll, describe, expect, test } from "bun:test";
import type Redis from "ioredis";
import { keyspace } from "../../memory-data/keyspace";
import { createTagStore } from "../store";
import { tagHandlers } from "./tags";
import { linkHandlers } from "./links";
import { privateRedis } from "../../../scripts/stack/redis.fixture";
import { ctxFor, errorOf, newSpace, recordingNotifier, writeMemoryHashForTests } from "./handler.fixture";

const db = privateRedis("tags-links");
let redis: Redis;
let store: ReturnType<typeof createTagStore>;

beforeAll(async () => {
  redis = await db.connect();
  store = createTagStore(redis);
});

const setup = (maxPerMemory?: number) => {
  const space = newSpace();
  const ctx = ctxFor(space);
  const rec = recordingNotifier();
  return {
    space,
    ctx,
    rec,
    ks: keyspace(space),
    tags: tagHandlers({ store, notify: rec.notify }),
    links: linkHandlers({ store, notify: rec.notify, maxPerMemory }),
  };
};

const MEM_404 = { code: "NOT_FOUND", message: "Memory not found", details: undefined };
const TAG_404 = { code: "NOT_FOUND", message: "Tag not found", details: undefined };

describe("attach", () => {
  test("adds, skips already attached, counts duplicates once, lists all attached sorted by name", async () => {
    const { ctx, tags, links, space, ks, rec } = setup();
    const b = await tags.create({ name: "beta", color: "#000000" }, ctx);
    const a = await tags.create({ name: "Alpha" }, ctx);
    const m = await writeMemoryHashForTests(redis, space, { createdAt: 1234 });
    const r1 = await links.attach({ memory_id: m, tag_ids: [b.id, b.id] }, ctx);
    expect(r1).toEqual({ memory_id: m, tags: [{ id: b.id, name: "beta", color: "#000000" }], added: 1, skipped: 0 });
    const r2 = await links.attach({ memory_id: m, tag_ids: [a.id, b.id, a.id] }, ctx);
    expect(r2).toEqual({
      memory_id: m,
      tags: [
        { id: a.id, name: "Alpha", color: null },
        { id: b.id, name: "beta", color: "#000000" },
      ],
      added: 1,
      skipped: 1,
    });
    expect(await redis.zscore(ks.tagMembers(a.id), m)).toBe("1234");
    expect(await redis.hget(ks.memory(m), "v")).toBe("3");
    expect(rec.calls.map((c) => c.memoryIds)).toEqual([[m], [m]]);
    const r3 = await links.attach({ memory_id: m, tag_ids: [a.id] }, ctx);
    expect(r3).toMatchObject({ added: 0, skipped: 1 });
    expect(await redis.hget(ks.memory(m), "v")).toBe("3");
    expect(rec.calls).toHaveLength(2);
  });

  test("an unknown memory or any unknown/malformed tag attaches nothing", async () => {
    const { ctx, tags, links, space, ks, rec } = setup();
    const a = await tags.create({ name: "a" }, ctx);
    const m = await writeMemoryHashForTests(redis, space);
    expect(await errorOf(links.attach({ memory_id: crypto.randomUUID(), tag_ids: [a.id] }, ctx))).toEqual(MEM_404);
    expect(await errorOf(links.attach({ memory_id: "bad", tag_ids: [a.id] }, ctx))).toEqual(MEM_404);
    expect(await errorOf(links.attach({ memory_id: m, tag_ids: [a.id, crypto.randomUUID()] }, ctx))).toEqual(TAG_404);
    expect(await errorOf(links.attach({ memory_id: m, tag_ids: [a.id, "not-a-uuid"] }, ctx))).toEqual(TAG_404);
    expect(await redis.scard(ks.memoryTags(m))).toBe(0);
    expect(await redis.zcard(ks.tagMembers(a.id))).toBe(0);
    expect(rec.calls).toHaveLength(0);
  });

  test("another tenant's tag or memory is unknown", async () => {
    const { ctx, tags, links, space } = setup();
    const other = ctxFor(newSpace());
    const a = await tags.create({ name: "a" }, ctx);
    const m = await writeMemoryHashForTests(redis, space);
    const mine = await tagHandlers({ store, notify: recordingNotifier().notify }).create({ name: "a" }, other);
    expect(await errorOf(links.attach({ memory_id: m, tag_ids: [mine.id] }, ctx))).toEqual(TAG_404);
    expect(await errorOf(links.attach({ memory_id: m, tag_ids: [a.id] }, other))).toEqual(MEM_404);
  });

  test("the per-memory cap refuses the whole call", async () => {
    const { ctx, tags, links, space, ks } = setup(2);
    const ids = [];
    for (const n of ["a", "b", "c"]) ids.push((await tags.create({ name: n }, ctx)).id);
    const m = await writeMemoryHashForTests(redis, space);
    await links.attach({ memory_id: m, tag_ids: [ids[0]!] }, ctx);
    expect(await errorOf(links.attach({ memory_id: m, tag_ids: [ids[1]!, ids[2]!] }, ctx))).toEqual({
      code: "VALIDATION_ERROR",
      message: "A memory can carry at most 2 tags",
      details: { field: "tag_ids", constraint: "max_count", max: 2 },
    });
    expect(await redis.smembers(ks.memoryTags(m))).toEqual([ids[0]!]);
  });
});

describe("detach", () => {
  test("removes once, then answers removed: false; unknown memory or tag is 404", async () => {
    const { ctx, tags, links, space, ks, rec } = setup();
    const a = await tags.create({ name: "a" }, ctx);
    const m = await writeMemoryHashForTests(redis, space);
    await links.attach({ memory_id: m, tag_ids: [a.id] }, ctx);
    expect(await links.detach({ memory_id: m, tag_id: a.id }, ctx)).toEqual({
      memory_id: m,
      tag_id: a.id,
      removed: true,
    });
    expect(await links.detach({ memory_id: m, tag_id: a.id }, ctx)).toEqual({
      memory_id: m,
      tag_id: a.id,
      removed: false,
    });
    expect(await redis.zcard(ks.tagMembers(a.id))).toBe(0);
    expect(await redis.hget(ks.memory(m), "v")).toBe("3");
    expect(rec.calls).toHaveLength(2);
    expect(await errorOf(links.detach({ memory_id: crypto.randomUUID(), tag_id: a.id }, ctx))).toEqual(MEM_404);
    expect(await errorOf(links.detach({ memory_id: m, tag_id: crypto.randomUUID() }, ctx))).toEqual(TAG_404);
    expect(await errorOf(links.detach({ memory_id: m, tag_id: "x" }, ctx))).toEqual(TAG_404);
  });
});

describe("memory_count stays exact under concurrency", () => {
  test("25 concurrent attaches, 25 repeated attaches, 10 concurrent detaches leave 15", async () => {
    const { ctx, tags, links, space } = setup();
    const t = await tags.create({ name: "hot" }, ctx);
    const ms = await Promise.all(Array.from({ length: 25 }, () => writeMemoryHashForTests(redis, space)));
    await Promise.all(ms.map((m) => links.attach({ memory_id: m, tag_ids: [t.id] }, ctx)));
    const again = await Promise.all(ms.map((m) => links.attach({ memory_id: m, tag_ids: [t.id] }, ctx)));
    expect(again.every((r) => r.added === 0 && r.skipped === 1)).toBe(true);
    await Promise.all(ms.slice(0, 10).map((m) => links.detach({ memory_id: m, tag_id: t.id }, ctx)));
    expect((await tags.get({ id: t.id }, ctx)).memory_count).toBe(15);
  });
});

describe("ofMemories", () => {
  test("each memory's tags sorted by name, aligned with the ids, [] where unknown", async () => {
    const { ctx, tags, links, space } = setup();
    const z = await tags.create({ name: "z" }, ctx);
    const y = await tags.create({ name: "Y", color: "#123456" }, ctx);
    const m1 = await writeMemoryHashForTests(redis, space);
    const m2 = await writeMemoryHashForTests(redis, space);
    await links.attach({ memory_id: m1, tag_ids: [z.id, y.id] }, ctx);
    const res = await links.ofMemories({ memory_ids: [m1, m2, "bad", crypto.randomUUID()] }, ctx);
    expect(res.items).toEqual([
      [
        { id: y.id, name: "Y", color: "#123456" },
        { id: z.id, name: "z", color: null },
      ],
      [],
      [],
      [],
    ]);
  });
});
