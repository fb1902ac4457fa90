import { beforeAll, describe, expect, test } from "bun:test";
import Redis from "ioredis";
import fc from "fast-check";
import { privateRedis } from "../../scripts/stack/redis.fixture";
import { keyspace } from "../memory-data/keyspace";
import type { Space } from "../kit/space";
import { ServiceError, type ErrorBody } from "../contract/errors";
import { createMemoryStore, emptyTablesAsLists, type MemoryFilter, type MemoryStore } from "./store";
import type { MemoryRow } from "./record";

/**
 * The store against a real, private Redis: the parts the tags service writes (tag hashes and link
 * sets) are seeded here directly, and every list path of lua/list.lua is checked against brute force.
 */
const db = privateRedis("memories-store");
let redis: Redis;
let store: MemoryStore;

beforeAll(async () => {
  redis = await db.connect();
  store = createMemoryStore(redis);
});

let n = 0;
const space = (): Space => ({ tenant: `store${++n}`, env: "live" });
const fields = (over: Record<string, unknown> = {}) => ({
  content: "c",
  content_type: "text",
  tier: "medium",
  memory_nature: "episodic",
  parent: null,
  external_id: null,
  metadata: {},
  ...over,
});
const create = async (s: Space, over: Record<string, unknown> = {}) => {
  return store.createMemory(s, crypto.randomUUID(), fields(over), 64);
};

/** What the tags service's attach script does: both link ends, scored by the memory's created_at. */
async function attach(s: Space, memory: MemoryRow, tagId: string) {
  const ks = keyspace(s);
  await redis
    .multi()
    .sadd(ks.memoryTags(memory.memory.id), tagId)
    .zadd(ks.tagMembers(tagId), Date.parse(memory.memory.created_at), memory.memory.id)
    .exec();
}

describe("the scripts' function library", () => {
  test("is loaded by the first calls (concurrent ones all succeed) and again when Redis has lost it", async () => {
    await redis.call("FUNCTION", "FLUSH");
    const s = space();
    const fresh = createMemoryStore(redis);
    const made = await Promise.all(
      Array.from({ length: 10 }, () => fresh.createMemory(s, crypto.randomUUID(), fields(), 64)),
    );
    expect(made.every((r) => r.version === 1)).toBe(true);
    const libraries = (await redis.call("FUNCTION", "LIST")) as unknown[][];
    expect(libraries.length).toBe(1);
    await redis.call("FUNCTION", "FLUSH"); // e.g. a Redis restarted without its data
    const { total } = await fresh.listMemories(s, { limit: 50, offset: 0, sort: "created_at", order: "desc" });
    expect(total).toBe(10);
  });

  test("answers are lists: cjson's {} for an empty table reads as [], any other object fails loudly", async () => {
    expect(emptyTablesAsLists(["id", {}, [{}, ["x", {}]], false, 3])).toEqual(["id", [], [[], ["x", []]], false, 3]);
    expect(() => emptyTablesAsLists(["id", { tier: "short" }])).toThrow(/answer lists only/);
    // A stored memory without tags or entities answers them as empty lists, through the real functions.
    const s = space();
    const row = await store.createMemory(s, crypto.randomUUID(), fields(), 64);
    const [read] = await store.getMemories(s, [row.memory.id]);
    expect(read!.memory).toMatchObject({ tags: [], entity_ids: [] });
  });

  test("a script error that is not a missing library is not retried", async () => {
    const s = space();
    await redis.set(keyspace(s).byCreated, "not a sorted set");
    await expect(store.listMemories(s, { limit: 50, offset: 0, sort: "created_at", order: "desc" })).rejects.toThrow(
      /WRONGTYPE/,
    );
  });
});

describe("create", () => {
  test("answers exactly the row a read of the memory gives back (every field, times, version)", async () => {
    const s = space();
    const parent = await create(s, { metadata: { nested: { list: [1, 2.5, "x"], empty: [] } } });
    const child = await create(s, {
      content: "héllo 👋",
      content_type: "fact",
      tier: "long",
      memory_nature: "semantic",
      parent: parent.memory.id,
      external_id: "ext-1",
      metadata: { a: null },
    });
    for (const made of [parent, child]) {
      const [read] = await store.getMemories(s, [made.memory.id]);
      expect(made).toEqual(read!);
    }
  });
});

describe("tags on memory reads", () => {
  test("sorted by name, colour null when absent, tags whose hash is gone skipped", async () => {
    const s = space();
    const ks = keyspace(s);
    const m = await create(s);
    await redis.hset(ks.tag("t-b"), { name: "beta" });
    await redis.hset(ks.tag("t-a"), { name: "Alpha", color: "#112233" });
    for (const t of ["t-b", "t-a", "t-gone"]) await attach(s, m, t);
    const [row] = await store.getMemories(s, [m.memory.id]);
    expect(row!.memory.tags).toEqual([
      { id: "t-a", name: "Alpha", color: "#112233" },
      { id: "t-b", name: "beta", color: null },
    ]);
  });

  test("delete removes both link ends of tags and entities; the tags stay", async () => {
    const s = space();
    const ks = keyspace(s);
    const parent = await create(s);
    const child = await create(s, { parent: parent.memory.id });
    await redis.hset(ks.tag("t1"), { name: "one" });
    for (const m of [parent, child]) await attach(s, m, "t1");
    await store.createEntity(s, "e1", { name: "E", type: "person", description: null, metadata: {} }, [
      parent.memory.id,
      child.memory.id,
    ]);
    expect(await redis.zcard(ks.tagMembers("t1"))).toBe(2);

    const r = await store.deleteMemory(s, parent.memory.id, true);
    expect(r.deleted.map((d) => d.id).sort()).toEqual([parent.memory.id, child.memory.id].sort());
    expect(await redis.zcard(ks.tagMembers("t1"))).toBe(0);
    expect(await redis.zcard(ks.entityMembers("e1"))).toBe(0);
    expect(
      await redis.exists(
        ks.memoryTags(parent.memory.id),
        ks.memoryEntities(child.memory.id),
        ks.memory(child.memory.id),
      ),
    ).toBe(0);
    expect(await redis.hget(ks.tag("t1"), "name")).toBe("one");
    // Nothing of the tenant's memory indexes is left behind.
    const left = await redis.keys(`mi:${"{"}${s.tenant}:live}:*`);
    expect(left).toEqual([]);
  });

  test("refusals reject with the contract's errors, and write nothing", async () => {
    const s = space();
    const root = await create(s, { external_id: "taken" });
    const kid = await create(s, { parent: root.memory.id });
    const entity = { name: "E", type: "person", description: null, metadata: {} };
    await store.createEntity(s, "e1", entity, []);
    await store.createEntity(s, "e2", { ...entity, name: "F" }, []);
    const invalid = (field: string, constraint: string, message: string, extra = {}) => ({
      code: "VALIDATION_ERROR",
      message,
      details: { field, constraint, ...extra },
    });
    const memoryNotFound = { code: "NOT_FOUND", message: "Memory not found" };
    const entityNotFound = { code: "NOT_FOUND", message: "Entity not found" };
    const parentMissing = invalid("parent_memory_id", "exists", "parent_memory_id must name an existing memory");
    const tooDeep = invalid("parent_memory_id", "max_depth", "A memory hierarchy may be at most 2 levels deep", {
      max: 2,
    });
    const extTaken = invalid("external_id", "unique", "A memory with this external_id already exists");
    const nameTaken = invalid("name", "unique", "An entity with this name and type already exists", {
      existing_id: "e1",
    });
    const cases: [() => Promise<unknown>, ErrorBody | object][] = [
      [() => store.deleteMemory(s, "missing", false), memoryNotFound],
      [() => store.updateMemory(s, "missing", { tier: "long" }, 64), memoryNotFound],
      [() => store.createMemory(s, "x", fields({ parent: "missing" }), 64), parentMissing],
      [() => store.createMemory(s, "x", fields({ parent: kid.memory.id }), 2), tooDeep],
      [() => store.createMemory(s, "x", fields({ external_id: "taken" }), 64), extTaken],
      [() => store.updateMemory(s, kid.memory.id, { external_id: "taken" }, 64), extTaken],
      [() => store.updateMemory(s, kid.memory.id, { parent: "missing" }, 64), parentMissing],
      [
        () => store.updateMemory(s, root.memory.id, { parent: root.memory.id }, 64),
        invalid("parent_memory_id", "acyclic", "A memory cannot be its own parent"),
      ],
      [
        () => store.updateMemory(s, root.memory.id, { parent: kid.memory.id }, 64),
        invalid(
          "parent_memory_id",
          "acyclic",
          "parent_memory_id would create a cycle (it is a descendant of this memory)",
        ),
      ],
      [async () => store.updateMemory(s, (await create(s)).memory.id, { parent: kid.memory.id }, 2), tooDeep],
      [
        () => store.createEntity(s, "e3", { ...entity, name: "G" }, [root.memory.id, "a"]),
        invalid("memory_ids", "exists", "memory_ids must name existing memories", { missing: ["a"] }),
      ],
      [() => store.createEntity(s, "e3", entity, []), nameTaken],
      [() => store.updateEntity(s, "e2", { name: "e" }), nameTaken],
      [() => store.updateEntity(s, "nope", { name: "X" }), entityNotFound],
      [() => store.deleteEntity(s, "nope"), entityNotFound],
      [() => store.linkEntity(s, "nope", ["a"]), entityNotFound],
      [
        () => store.linkEntity(s, "e1", [root.memory.id, "a", "b"]),
        { ...memoryNotFound, details: { missing: ["a", "b"] } },
      ],
      [() => store.unlinkEntity(s, "nope", root.memory.id), entityNotFound],
      [() => store.unlinkEntity(s, "e1", "a"), { ...memoryNotFound, details: { missing: ["a"] } }],
    ];
    for (const [call, body] of cases) {
      const err = await call().then(
        () => null,
        (e) => e,
      );
      expect(err).toBeInstanceOf(ServiceError);
      expect((err as ServiceError).toBody()).toEqual(body as ErrorBody);
    }
    const [r, k] = await store.getMemories(s, [root.memory.id, kid.memory.id]);
    expect([r, k]).toEqual([root, kid]);
    expect(await store.getEntity(s, "e1")).toMatchObject({ name: "E", memory_count: 0 });
    expect((await store.listEntities(s, { offset: 0, limit: 10 })).total).toBe(2);
  });
});

describe("list paths", () => {
  const TIERS = ["short", "medium", "long"] as const;
  const TAGS = ["ta", "tb", "tc"];

  function brute(rows: MemoryRow[], members: Map<string, Set<string>>, q: MemoryFilter) {
    const ms = (iso: string) => Date.parse(iso);
    const hits = rows
      .map((r) => r.memory)
      .filter(
        (m) =>
          (q.tier === undefined || m.tier === q.tier) &&
          (q.parent_memory_id === undefined || m.parent_memory_id === q.parent_memory_id) &&
          (q.root === undefined || (m.parent_memory_id === null) === q.root) &&
          (q.external_id === undefined || m.external_id === q.external_id) &&
          (q.tag_id ?? []).every((t) => members.get(t)?.has(m.id)) &&
          (q.created_after === undefined || ms(m.created_at) > ms(q.created_after)) &&
          (q.created_before === undefined || ms(m.created_at) < ms(q.created_before)),
      )
      .sort((a, b) => ms(a[q.sort]) - ms(b[q.sort]) || (a.id < b.id ? -1 : 1));
    if (q.order === "desc") hits.reverse();
    return { total: hits.length, ids: hits.slice(q.offset, q.offset + q.limit).map((m) => m.id) };
  }

  test("every combination of filters, sort and order matches brute force", async () => {
    const s = space();
    const rows: MemoryRow[] = [];
    const members = new Map<string, Set<string>>(TAGS.map((t) => [t, new Set()]));
    for (let i = 0; i < 40; i++) {
      const parent = i > 5 && i % 3 ? rows[i % 6]!.memory.id : null;
      const row = await create(s, { tier: TIERS[i % 3], parent, external_id: i % 7 === 0 ? `x${i}` : null });
      rows.push(row);
      for (const [j, t] of TAGS.entries()) {
        if ((i + j) % (j + 2) === 0) {
          await attach(s, row, t);
          members.get(t)!.add(row.memory.id);
        }
      }
      if (i % 9 === 0) await Bun.sleep(2);
    }
    for (const i of [4, 17, 2, 33]) {
      await Bun.sleep(1);
      await store.updateMemory(s, rows[i]!.memory.id, { content: "edited" }, 64);
    }
    const current = (await store.getMemories(
      s,
      rows.map((r) => r.memory.id),
    )) as MemoryRow[];
    const times = current.map((r) => r.memory.created_at).sort();

    const query = fc.record(
      {
        tier: fc.constantFrom(...TIERS),
        parent_memory_id: fc.constantFrom(...current.slice(0, 6).map((r) => r.memory.id)),
        root: fc.boolean(),
        external_id: fc.constantFrom("x0", "x7", "x14", "none"),
        tag_id: fc.subarray(TAGS, { minLength: 1 }),
        created_after: fc.constantFrom(...times),
        created_before: fc.constantFrom(...times),
      },
      { requiredKeys: [] },
    );
    await fc.assert(
      fc.asyncProperty(
        query,
        fc.constantFrom("created_at" as const, "updated_at" as const),
        fc.constantFrom("asc" as const, "desc" as const),
        fc.nat(45),
        fc.integer({ min: 1, max: 50 }),
        async (filter, sort, order, offset, limit) => {
          const q: MemoryFilter = { ...filter, sort, order, offset, limit };
          const got = await store.listMemories(s, q);
          expect({ total: got.total, ids: got.rows.map((r) => r.memory.id) }).toEqual(brute(current, members, q));
        },
      ),
      { numRuns: 400 },
    );
  });
});
