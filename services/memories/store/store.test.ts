import { describe, expect, test } from "bun:test";
import { keyspace } from "../../memory-data/keyspace";
import { ServiceError, type ErrorBody } from "../../contract/errors";
import { createMemoryStore, emptyTablesAsLists } from "./";
import { fields, memoryStoreFixture, space } from "./store.fixture";

/** The store's function library, its create and reads, and its refusals, against a real, private Redis. */
const fx = memoryStoreFixture("memories-store");
const { create, attach } = fx;

describe("the scripts' function library", () => {
  test("is loaded by the first calls (concurrent ones all succeed) and again when Redis has lost it", async () => {
    await fx.redis.call("FUNCTION", "FLUSH");
    const s = space();
    const fresh = createMemoryStore(fx.redis);
    const made = await Promise.all(
      Array.from({ length: 10 }, () => fresh.createMemory(s, crypto.randomUUID(), fields(), 64)),
    );
    expect(made.every((r) => r.version === 1)).toBe(true);
    const libraries = (await fx.redis.call("FUNCTION", "LIST")) as unknown[][];
    expect(libraries.length).toBe(1);
    await fx.redis.call("FUNCTION", "FLUSH"); // e.g. a Redis restarted without its data
    const { total } = await fresh.listMemories(s, { limit: 50, offset: 0, sort: "created_at", order: "desc" });
    expect(total).toBe(10);
  });

  test("answers are lists: cjson's {} for an empty table reads as [], any other object fails loudly", async () => {
    expect(emptyTablesAsLists(["id", {}, [{}, ["x", {}]], false, 3])).toEqual(["id", [], [[], ["x", []]], false, 3]);
    expect(() => emptyTablesAsLists(["id", { tier: "short" }])).toThrow(/answer lists only/);
    // A stored memory without tags or entities answers them as empty lists, through the real functions.
    const s = space();
    const row = await fx.store.createMemory(s, crypto.randomUUID(), fields(), 64);
    const [read] = await fx.store.getMemories(s, [row.memory.id]);
    expect(read!.memory).toMatchObject({ tags: [], entity_ids: [] });
  });

  test("a script error that is not a missing library is not retried", async () => {
    const s = space();
    await fx.redis.set(keyspace(s).byCreated, "not a sorted set");
    await expect(fx.store.listMemories(s, { limit: 50, offset: 0, sort: "created_at", order: "desc" })).rejects.toThrow(
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
      const [read] = await fx.store.getMemories(s, [made.memory.id]);
      expect(made).toEqual(read!);
    }
  });
});

describe("create with an Idempotency-Key (KeyClaim)", () => {
  const total = async (s: ReturnType<typeof space>) =>
    (await fx.store.listMemories(s, { limit: 1, offset: 0, sort: "created_at", order: "desc" })).total;

  test("claims the key in the same step; a held key refuses IDEMPOTENCY_IN_FLIGHT and creates nothing", async () => {
    const s = space();
    const claim = { key: `idem:{${s.tenant}:${s.env}}:k1:abc`, value: "R\nfp\ntoken-1", leaseMs: 60_000 };
    await fx.store.createMemory(s, crypto.randomUUID(), fields(), 64, {}, undefined, claim);
    expect(await fx.redis.get(claim.key)).toBe(claim.value);
    const ttl = await fx.redis.pttl(claim.key);
    expect(ttl).toBeGreaterThan(50_000);
    expect(ttl).toBeLessThanOrEqual(60_000);
    const again = { ...claim, value: "R\nfp\ntoken-2" };
    const refused = await fx.store.createMemory(s, crypto.randomUUID(), fields(), 64, {}, undefined, again).then(
      () => null,
      (err: ServiceError) => err.code,
    );
    expect(refused).toBe("IDEMPOTENCY_IN_FLIGHT");
    expect(await fx.redis.get(claim.key)).toBe(claim.value);
    expect(await total(s)).toBe(1);
  });

  test("a create refused for its own reason leaves the key unclaimed", async () => {
    const s = space();
    const claim = { key: `idem:{${s.tenant}:${s.env}}:k1:def`, value: "R\nfp\ntoken", leaseMs: 60_000 };
    const orphan = fields({ parent: crypto.randomUUID() });
    const refused = await fx.store.createMemory(s, crypto.randomUUID(), orphan, 64, {}, undefined, claim).then(
      () => null,
      (err: ServiceError) => err.code,
    );
    expect(refused).toBe("VALIDATION_ERROR");
    expect(await fx.redis.exists(claim.key)).toBe(0);
    expect(await total(s)).toBe(0);
  });
});

describe("tags on memory reads", () => {
  test("sorted by name, colour null when absent, tags whose hash is gone skipped", async () => {
    const s = space();
    const ks = keyspace(s);
    const m = await create(s);
    await fx.redis.hset(ks.tag("t-b"), { name: "beta" });
    await fx.redis.hset(ks.tag("t-a"), { name: "Alpha", color: "#112233" });
    for (const t of ["t-b", "t-a", "t-gone"]) await attach(s, m, t);
    const [row] = await fx.store.getMemories(s, [m.memory.id]);
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
    await fx.redis.hset(ks.tag("t1"), { name: "one" });
    for (const m of [parent, child]) await attach(s, m, "t1");
    await fx.store.createEntity(s, "e1", { name: "E", type: "person", description: null, metadata: {} }, [
      parent.memory.id,
      child.memory.id,
    ]);
    expect(await fx.redis.zcard(ks.tagMembers("t1"))).toBe(2);

    const r = await fx.store.deleteMemory(s, parent.memory.id, true);
    expect(r.deleted.map((d) => d.id).sort()).toEqual([parent.memory.id, child.memory.id].sort());
    expect(await fx.redis.zcard(ks.tagMembers("t1"))).toBe(0);
    expect(await fx.redis.zcard(ks.entityMembers("e1"))).toBe(0);
    expect(
      await fx.redis.exists(
        ks.memoryTags(parent.memory.id),
        ks.memoryEntities(child.memory.id),
        ks.memory(child.memory.id),
      ),
    ).toBe(0);
    expect(await fx.redis.hget(ks.tag("t1"), "name")).toBe("one");
    // Nothing of the tenant's memory indexes is left behind.
    const left = await fx.redis.keys(`mi:${"{"}${s.tenant}:live}:*`);
    expect(left).toEqual([]);
  });

  test("refusals reject with the contract's errors, and write nothing", async () => {
    const s = space();
    const root = await create(s, { external_id: "taken" });
    const kid = await create(s, { parent: root.memory.id });
    const entity = { name: "E", type: "person", description: null, metadata: {} };
    await fx.store.createEntity(s, "e1", entity, []);
    await fx.store.createEntity(s, "e2", { ...entity, name: "F" }, []);
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
      [() => fx.store.deleteMemory(s, "missing", false), memoryNotFound],
      [() => fx.store.updateMemory(s, "missing", { tier: "long" }, 64), memoryNotFound],
      [() => fx.store.createMemory(s, "x", fields({ parent: "missing" }), 64), parentMissing],
      [() => fx.store.createMemory(s, "x", fields({ parent: kid.memory.id }), 2), tooDeep],
      [() => fx.store.createMemory(s, "x", fields({ external_id: "taken" }), 64), extTaken],
      [() => fx.store.updateMemory(s, kid.memory.id, { external_id: "taken" }, 64), extTaken],
      [() => fx.store.updateMemory(s, kid.memory.id, { parent: "missing" }, 64), parentMissing],
      [
        () => fx.store.updateMemory(s, root.memory.id, { parent: root.memory.id }, 64),
        invalid("parent_memory_id", "acyclic", "A memory cannot be its own parent"),
      ],
      [
        () => fx.store.updateMemory(s, root.memory.id, { parent: kid.memory.id }, 64),
        invalid(
          "parent_memory_id",
          "acyclic",
          "parent_memory_id would create a cycle (it is a descendant of this memory)",
        ),
      ],
      [async () => fx.store.updateMemory(s, (await create(s)).memory.id, { parent: kid.memory.id }, 2), tooDeep],
      [
        () => fx.store.createEntity(s, "e3", { ...entity, name: "G" }, [root.memory.id, "a"]),
        invalid("memory_ids", "exists", "memory_ids must name existing memories", { missing: ["a"] }),
      ],
      [() => fx.store.createEntity(s, "e3", entity, []), nameTaken],
      [() => fx.store.updateEntity(s, "e2", { name: "e" }), nameTaken],
      [() => fx.store.updateEntity(s, "nope", { name: "X" }), entityNotFound],
      [() => fx.store.deleteEntity(s, "nope"), entityNotFound],
      [() => fx.store.linkEntity(s, "nope", ["a"]), entityNotFound],
      [
        () => fx.store.linkEntity(s, "e1", [root.memory.id, "a", "b"]),
        { ...memoryNotFound, details: { missing: ["a", "b"] } },
      ],
      [() => fx.store.unlinkEntity(s, "nope", root.memory.id), entityNotFound],
      [() => fx.store.unlinkEntity(s, "e1", "a"), { ...memoryNotFound, details: { missing: ["a"] } }],
    ];
    for (const [call, body] of cases) {
      const err = await call().then(
        () => null,
        (e) => e,
      );
      expect(err).toBeInstanceOf(ServiceError);
      expect((err as ServiceError).toBody()).toEqual(body as ErrorBody);
    }
    const [r, k] = await fx.store.getMemories(s, [root.memory.id, kid.memory.id]);
    expect([r, k]).toEqual([root, kid]);
    expect(await fx.store.getEntity(s, "e1")).toMatchObject({ name: "E", memory_count: 0 });
    expect((await fx.store.listEntities(s, { offset: 0, limit: 10 })).total).toBe(2);
  });
});

describe("createMemories", () => {
  test("creates in order, 1 ms apart, each as a single create would; a refused item fails alone", async () => {
    const s = space();
    const ids = Array.from({ length: 4 }, () => crypto.randomUUID());
    const item = (i: number, over: Record<string, unknown> = {}, life = {}) => ({
      id: ids[i]!,
      fields: fields({ content: `m${i}`, ...over }),
      life,
    });
    const out = await fx.store.createMemories(
      s,
      [
        item(0, { external_id: "x" }),
        item(1, { parent: ids[0] }, { occurred_at: "2024-01-01T00:00:00.000Z" }),
        item(2, { external_id: "x" }),
        item(3, { parent: ids[2] }),
      ],
      64,
    );
    const [root, child, taken, orphan] = out;
    if (root instanceof ServiceError || child instanceof ServiceError) throw new Error("the first two are created");
    expect(child.memory).toMatchObject({ parent_memory_id: ids[0], occurred_at: "2024-01-01T00:00:00.000Z" });
    expect(Date.parse(child.memory.created_at) - Date.parse(root.memory.created_at)).toBe(1);
    expect(taken).toBeInstanceOf(ServiceError);
    expect((taken as ServiceError).toBody()).toEqual({
      code: "VALIDATION_ERROR",
      message: "A memory with this external_id already exists",
      details: { field: "external_id", constraint: "unique" },
    });
    expect((orphan as ServiceError).details).toEqual({ field: "parent_memory_id", constraint: "exists" });
    const read = await fx.store.getMemories(s, ids);
    expect(read.map((r) => r?.memory ?? null)).toEqual([root.memory, child.memory, null, null]);
  });
});
