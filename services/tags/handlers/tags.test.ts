import { beforeAll, describe, expect, test } from "bun:test";
import type Redis from "ioredis";
import { keyspace } from "../../memory-data/keyspace";
import { createTagStore } from "../store";
import { tagHandlers } from "./tags";
import { linkHandlers } from "./links";
import { privateRedis } from "../../../scripts/stack/redis.fixture";
import { ctxFor, errorOf, newSpace, recordingNotifier, writeMemoryHashForTests } from "./handler.fixture";

const db = privateRedis("tags-handlers");
let redis: Redis;
let store: ReturnType<typeof createTagStore>;

beforeAll(async () => {
  redis = await db.connect();
  store = createTagStore(redis);
});

const setup = (opts: { maxTags?: number; now?: () => number } = {}) => {
  const space = newSpace();
  const ctx = ctxFor(space);
  const rec = recordingNotifier();
  const tags = tagHandlers({ store, notify: rec.notify, ...opts });
  const links = linkHandlers({ store, notify: rec.notify });
  return { space, ctx, rec, tags, links };
};

/** The refusal of a taken name; it names the tag that holds the name. */
const DUP = (existingId: string) => ({
  code: "VALIDATION_ERROR",
  message: "A tag with this name already exists",
  details: { field: "name", constraint: "unique", existing_id: existingId },
});
const TAG_404 = { code: "NOT_FOUND", message: "Tag not found", details: undefined };

describe("create / get", () => {
  test("a new tag: count 0, updated_at equals created_at, null color and description", async () => {
    const { ctx, tags } = setup({ now: () => 1_700_000_000_123 });
    const t = await tags.create({ name: "Work" }, ctx);
    expect(t).toEqual({
      id: t.id,
      name: "Work",
      color: null,
      description: null,
      memory_count: 0,
      created_at: "2023-11-14T22:13:20.123Z",
      updated_at: "2023-11-14T22:13:20.123Z",
    });
    expect(await tags.get({ id: t.id }, ctx)).toEqual(t);
  });

  test("names are unique case-insensitively and after NFC normalisation", async () => {
    const { ctx, tags } = setup();
    const cafe = await tags.create({ name: "Café" }, ctx);
    expect(await errorOf(tags.create({ name: "CAFÉ" }, ctx))).toEqual(DUP(cafe.id));
    expect(await errorOf(tags.create({ name: "cafe\u0301" }, ctx))).toEqual(DUP(cafe.id));
  });

  test("ten concurrent creates of one name: exactly one succeeds", async () => {
    const { ctx, tags, space } = setup();
    const results = await Promise.allSettled(
      Array.from({ length: 10 }, (_, i) => tags.create({ name: i % 2 ? "race" : "RACE" }, ctx)),
    );
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    expect(await redis.hlen(keyspace(space).tagNames)).toBe(1);
  });

  test("the per-tenant cap refuses one more tag", async () => {
    const { ctx, tags } = setup({ maxTags: 2 });
    await tags.create({ name: "a" }, ctx);
    await tags.create({ name: "b" }, ctx);
    expect(await errorOf(tags.create({ name: "c" }, ctx))).toEqual({
      code: "VALIDATION_ERROR",
      message: "At most 2 tags per tenant and environment",
      details: { field: "tags", constraint: "max_count", max: 2 },
    });
  });

  test("unknown and malformed ids are 404; another tenant or environment cannot see the tag", async () => {
    const { ctx, tags, space } = setup();
    const t = await tags.create({ name: "x" }, ctx);
    expect(await errorOf(tags.get({ id: crypto.randomUUID() }, ctx))).toEqual(TAG_404);
    expect(await errorOf(tags.get({ id: "nope" }, ctx))).toEqual(TAG_404);
    expect(await errorOf(tags.get({ id: t.id }, ctxFor(newSpace())))).toEqual(TAG_404);
    expect(await errorOf(tags.get({ id: t.id }, ctxFor({ ...space, env: "test" })))).toEqual(TAG_404);
  });

  test("getMany answers aligned with the ids, null where unknown", async () => {
    const { ctx, tags } = setup();
    const a = await tags.create({ name: "a" }, ctx);
    const res = await tags.getMany({ ids: [crypto.randomUUID(), a.id, "bad", a.id] }, ctx);
    expect(res.items).toEqual([null, a, null, a]);
  });
});

describe("update", () => {
  test("only sent fields change; null removes; updated_at strictly later even in the same ms", async () => {
    const { ctx, tags } = setup({ now: () => 1_000 });
    const t = await tags.create({ name: "n", color: "#AABBCC", description: "d" }, ctx);
    const u1 = await tags.update({ id: t.id, description: null }, ctx);
    expect(u1).toEqual({ ...t, description: null, updated_at: new Date(1_001).toISOString() });
    const u2 = await tags.update({ id: t.id, color: null }, ctx);
    expect(u2).toEqual({ ...t, description: null, color: null, updated_at: new Date(1_002).toISOString() });
    const u3 = await tags.update({ id: t.id }, ctx);
    expect(u3.updated_at).toBe(new Date(1_003).toISOString());
  });

  test("renaming to its own name in another case is fine and frees nothing else", async () => {
    const { ctx, tags } = setup();
    const t = await tags.create({ name: "Home" }, ctx);
    const u = await tags.update({ id: t.id, name: "HOME" }, ctx);
    expect(u.name).toBe("HOME");
    expect(await errorOf(tags.create({ name: "home" }, ctx))).toEqual(DUP(t.id));
  });

  test("renaming to another tag's name is a duplicate; a rename frees the old name", async () => {
    const { ctx, tags } = setup();
    const a = await tags.create({ name: "a" }, ctx);
    const b = await tags.create({ name: "b" }, ctx);
    expect(await errorOf(tags.update({ id: a.id, name: "B" }, ctx))).toEqual(DUP(b.id));
    await tags.update({ id: a.id, name: "c" }, ctx);
    expect((await tags.create({ name: "A" }, ctx)).name).toBe("A");
  });

  test("unknown tag is 404", async () => {
    const { ctx, tags } = setup();
    expect(await errorOf(tags.update({ id: crypto.randomUUID(), name: "x" }, ctx))).toEqual(TAG_404);
  });
});

describe("list", () => {
  test("search, sort, order, pagination and exact totals", async () => {
    let clock = 10_000;
    const { ctx, tags, links, space } = setup({ now: () => clock++ });
    const made = [];
    for (const name of ["beta", "Alpha", "gamma", "alphabet", "Delta"]) made.push(await tags.create({ name }, ctx));
    const m = await writeMemoryHashForTests(redis, space);
    const m2 = await writeMemoryHashForTests(redis, space);
    await links.attach({ memory_id: m, tag_ids: [made[2]!.id, made[4]!.id] }, ctx);
    await links.attach({ memory_id: m2, tag_ids: [made[2]!.id] }, ctx);

    const names = async (q: Parameters<typeof tags.list>[0]) => (await tags.list(q, ctx)).items.map((t) => t.name);
    expect(await names({})).toEqual(["Alpha", "alphabet", "beta", "Delta", "gamma"]);
    expect(await names({ order: "desc" })).toEqual(["gamma", "Delta", "beta", "alphabet", "Alpha"]);
    expect(await names({ sort: "created_at" })).toEqual(["beta", "Alpha", "gamma", "alphabet", "Delta"]);
    expect(await names({ sort: "memory_count", order: "desc" })).toEqual([
      "gamma",
      "Delta",
      "Alpha",
      "alphabet",
      "beta",
    ]);
    expect(await names({ search: "ALPH" })).toEqual(["Alpha", "alphabet"]);
    const page = await tags.list({ limit: 2, offset: 3 }, ctx);
    expect(page).toMatchObject({ total: 5, limit: 2, offset: 3 });
    expect(page.items.map((t) => t.name)).toEqual(["Delta", "gamma"]);
    expect(page.items[1]!.memory_count).toBe(2);
    expect(await tags.list({ search: "zzz" }, ctx)).toEqual({ items: [], total: 0, limit: 50, offset: 0 });
  });
});

describe("delete", () => {
  test("removes the tag from every memory, bumps their versions, keeps the memories", async () => {
    const { ctx, tags, links, rec, space } = setup();
    const ks = keyspace(space);
    const t = await tags.create({ name: "gone" }, ctx);
    const keep = await tags.create({ name: "keep" }, ctx);
    const m1 = await writeMemoryHashForTests(redis, space);
    const m2 = await writeMemoryHashForTests(redis, space);
    await links.attach({ memory_id: m1, tag_ids: [t.id, keep.id] }, ctx);
    await links.attach({ memory_id: m2, tag_ids: [t.id] }, ctx);
    rec.calls.length = 0;
    expect(await tags.remove({ id: t.id }, ctx)).toEqual({ id: t.id, deleted: true });
    expect(await redis.smembers(ks.memoryTags(m1))).toEqual([keep.id]);
    expect(await redis.smembers(ks.memoryTags(m2))).toEqual([]);
    expect(await redis.hget(ks.memory(m1), "v")).toBe("3");
    expect(await redis.exists(ks.tag(t.id), ks.tagMembers(t.id))).toBe(0);
    expect(await redis.hget(ks.tagNames, "gone")).toBeNull();
    expect(await redis.zscore(ks.tagsByCreated, t.id)).toBeNull();
    expect(rec.calls).toEqual([{ tenant: space.tenant, env: space.env, memoryIds: expect.arrayContaining([m1, m2]) }]);
    expect(await errorOf(tags.remove({ id: t.id }, ctx))).toEqual(TAG_404);
    expect((await tags.create({ name: "GONE" }, ctx)).memory_count).toBe(0);
  });
});
