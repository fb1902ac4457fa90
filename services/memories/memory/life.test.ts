import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import { ServiceError } from "../../contract/errors";
import { SUPERSESSION_WALK_MAX } from "../../contract/memories";
import { EXPIRY_REGISTRY, keyspace } from "../../memory-data/keyspace";
import { settingsKey } from "../../tenant-settings/settings";
import type { MemoryFilter } from "../store";
import type { MemoryRow } from "../store/record";
import { fields, memoryStoreFixture, space } from "../store/store.fixture";

/**
 * A memory's life in the store: the thread order (occurred_at, then created_at, then id) of every list
 * path and of siblings, with expired memories hidden before any purge (no sweeper runs here), the purge,
 * supersession chains and the expiry registry.
 */
const fx = memoryStoreFixture("memories-store-life");
const ms = (iso: string) => Date.parse(iso);
const soon = (fromNow: number) => new Date(Date.now() + fromNow).toISOString();
const threadOrder = (a: MemoryRow["memory"], b: MemoryRow["memory"]) =>
  ms(a.occurred_at) - ms(b.occurred_at) || ms(a.created_at) - ms(b.created_at) || (a.id < b.id ? -1 : 1);
const make = (s: ReturnType<typeof space>, over: Record<string, unknown> = {}, life = {}) =>
  fx.store.createMemory(s, crypto.randomUUID(), fields(over), 64, life);

/** 40 memories: occurred_at from a few instants (ties), threads, and 8 past their expiry (not purged). */
async function seed() {
  const s = space();
  const rows: MemoryRow[] = [];
  const OCCURRED = ["2020-01-01T00:00:00Z", "2021-01-01T00:00:00Z", "1969-07-20T20:17:00Z", "2020-01-01T00:00:00Z"];
  for (let i = 0; i < 40; i++) {
    const parent = i > 5 && i % 3 ? rows[i % 2]!.memory.id : null;
    const life = {
      ...(i % 5 ? { occurred_at: OCCURRED[i % 4] } : {}),
      ...(i % 5 === 3 ? { expires_at: soon(150) } : {}),
    };
    rows.push(await make(s, { tier: ["short", "long"][i % 2], parent, external_id: i % 6 ? null : `x${i}` }, life));
    if (i % 7 === 0) await Bun.sleep(2);
  }
  for (const i of [9, 2, 31]) await fx.store.updateMemory(s, rows[i]!.memory.id, { content: "edited" }, 64);
  await Bun.sleep(200);
  const now = Date.now();
  const read = (await fx.store.getMemories(
    s,
    rows.map((r) => r.memory.id),
  )) as (MemoryRow | null)[];
  const expired = new Set(
    rows.filter((r) => r.memory.expires_at && ms(r.memory.expires_at) <= now).map((r) => r.memory.id),
  );
  return { s, rows, read, expired, visible: read.filter((r): r is MemoryRow => r !== null).map((r) => r.memory) };
}

describe("expired, not purged yet", () => {
  test("gone from reads; every list path in every order matches brute force, totals exact", async () => {
    const { s, read, expired, visible } = await seed();
    expect(expired.size).toBe(8);
    expect(read.filter((r) => r === null).length).toBe(8);
    const occurred = [...new Set(visible.map((m) => m.occurred_at))].sort();
    const created = visible.map((m) => m.created_at).sort();

    function brute(q: MemoryFilter) {
      const f = visible.filter(
        (m) =>
          (q.tier === undefined || m.tier === q.tier) &&
          (q.parent_memory_id === undefined || m.parent_memory_id === q.parent_memory_id) &&
          (q.root === undefined || (m.parent_memory_id === null) === q.root) &&
          (q.external_id === undefined || m.external_id === q.external_id) &&
          (q.created_after === undefined || ms(m.created_at) > ms(q.created_after)) &&
          (q.created_before === undefined || ms(m.created_at) < ms(q.created_before)) &&
          (q.occurred_after === undefined || ms(m.occurred_at) > ms(q.occurred_after)) &&
          (q.occurred_before === undefined || ms(m.occurred_at) < ms(q.occurred_before)),
      );
      f.sort(
        q.sort === "occurred_at" ? threadOrder : (a, b) => ms(a[q.sort]) - ms(b[q.sort]) || (a.id < b.id ? -1 : 1),
      );
      if (q.order === "desc") f.reverse();
      return { total: f.length, ids: f.slice(q.offset, q.offset + q.limit).map((m) => m.id) };
    }

    const query = fc.record(
      {
        tier: fc.constantFrom("short", "long"),
        parent_memory_id: fc.constantFrom(visible[0]!.id, visible[1]!.id),
        root: fc.boolean(),
        external_id: fc.constantFrom("x0", "x18", "x24", "none"),
        created_after: fc.constantFrom(...created),
        created_before: fc.constantFrom(...created),
        occurred_after: fc.constantFrom(...occurred),
        occurred_before: fc.constantFrom(...occurred),
      },
      { requiredKeys: [] },
    );
    await fc.assert(
      fc.asyncProperty(
        query,
        fc.constantFrom("created_at" as const, "updated_at" as const, "occurred_at" as const),
        fc.constantFrom("asc" as const, "desc" as const),
        fc.nat(42),
        fc.integer({ min: 1, max: 12 }),
        async (filter, sort, order, offset, limit) => {
          const q: MemoryFilter = { ...filter, sort, order, offset, limit };
          const got = await fx.store.listMemories(s, q);
          expect({ total: got.total, ids: got.rows.map((r) => r.memory.id) }).toEqual(brute(q));
        },
      ),
      { numRuns: 500 },
    );
  });

  test("siblings: the n before and after in the thread's order, expired ones skipped", async () => {
    const { s, visible } = await seed();
    for (const parent of [visible[0]!.id, visible[1]!.id]) {
      const thread = visible.filter((m) => m.parent_memory_id === parent).sort(threadOrder);
      expect(thread.length).toBeGreaterThanOrEqual(8);
      for (const [i, m] of thread.entries()) {
        for (const n of [0, 1, 2, 5]) {
          const got = await fx.store.siblings(s, m.id, n);
          expect({
            id: m.id,
            n,
            before: got.before.map((r) => r.memory.id),
            after: got.after.map((r) => r.memory.id),
          }).toEqual({
            id: m.id,
            n,
            before: thread.slice(Math.max(0, i - n), i).map((x) => x.id),
            after: n === 0 ? [] : thread.slice(i + 1, i + 1 + n).map((x) => x.id),
          });
        }
      }
    }
    expect(await fx.store.siblings(s, visible[0]!.id, 3)).toEqual({ before: [], after: [] });
  });

  test("writes treat it as gone: 404, parent and link refusals; its external_id is free", async () => {
    const s = space();
    const gone = await make(s, { external_id: "ext" }, { expires_at: soon(100) });
    await Bun.sleep(150);
    const codeOf = (p: Promise<unknown>) =>
      p.then(
        () => "resolved",
        (e: ServiceError) => [e.code, e.details?.field],
      );
    expect(await codeOf(fx.store.updateMemory(s, gone.memory.id, { content: "x" }, 64))).toEqual([
      "NOT_FOUND",
      undefined,
    ]);
    expect(await codeOf(fx.store.deleteMemory(s, gone.memory.id, false))).toEqual(["NOT_FOUND", undefined]);
    expect(await codeOf(make(s, { parent: gone.memory.id }))).toEqual(["VALIDATION_ERROR", "parent_memory_id"]);
    expect(await codeOf(make(s, {}, { supersedes: gone.memory.id }))).toEqual(["VALIDATION_ERROR", "supersedes"]);
    expect(await codeOf(fx.store.linkEntity(s, "e1", [gone.memory.id]))).toEqual(["NOT_FOUND", undefined]);
    const heir = await make(s, { external_id: "ext" });
    expect(await fx.redis.hget(keyspace(s).externalIds, "ext")).toBe(heir.memory.id);
    expect(await fx.store.ancestors(s, gone.memory.id, 64)).toBeNull();
  });
});

describe("a memory without a stored occurred_at", () => {
  test("occurred when they were created: in place in every sort=occurred_at list, until they change", async () => {
    const s = space();
    const ks = keyspace(s);
    const parent = await make(s);
    await Bun.sleep(2); // a later created_at: equal ones would fall back to the ids' random order
    const legacy = await make(s, { parent: parent.memory.id });
    const later = await make(s, { parent: parent.memory.id }, { occurred_at: "2999-01-01T00:00:00Z" });
    const earlier = await make(s, { parent: parent.memory.id }, { occurred_at: "1999-01-01T00:00:00Z" });
    await fx.redis.hdel(ks.memory(legacy.memory.id), "occurred_at");
    await fx.redis.zrem(ks.byOccurred, legacy.memory.id);
    const order = [earlier, parent, legacy, later].map((r) => r.memory.id);
    const q = { limit: 10, offset: 0, sort: "occurred_at" as const, order: "asc" as const };
    expect((await fx.store.listMemories(s, q)).rows.map((r) => r.memory.id)).toEqual(order);
    const kids = await fx.store.listMemories(s, { ...q, parent_memory_id: parent.memory.id });
    expect(kids.rows.map((r) => r.memory.id)).toEqual(order.filter((id) => id !== parent.memory.id));
    expect(kids.rows[1]!.memory.occurred_at).toBe(legacy.memory.created_at);
    await fx.store.updateMemory(s, legacy.memory.id, { content: "changed" }, 64);
    expect(await fx.redis.zscore(ks.byOccurred, legacy.memory.id)).toBe(String(ms(legacy.memory.created_at)));
  });
});

describe("purge", () => {
  test("at most `max` a call, earliest first; orphans, links, external_id, the replaced memory restored", async () => {
    const s = space();
    const ks = keyspace(s);
    const old = await make(s, { content: "old" });
    const parent = await make(s, { external_id: "p" }, { expires_at: soon(60), supersedes: old.memory.id });
    const kid = await make(s, { parent: parent.memory.id });
    const later = await Promise.all([1, 2, 3].map(() => make(s, {}, { expires_at: soon(80) })));
    const lasting = await make(s, {}, { expires_at: soon(60_000) });
    await fx.attach(s, parent, "t1");
    await Bun.sleep(120);

    const first = await fx.store.purgeExpired(s, 2);
    expect(first.deleted.map((d) => d.id)).toEqual([parent.memory.id, first.deleted[1]!.id]);
    expect(first.deleted[0]!.version).toBe(2);
    expect(first.more).toBe(true);
    expect(first.next).toBe(
      ms(later.find((l) => !first.deleted.some((d) => d.id === l.memory.id))!.memory.expires_at!),
    );
    const changed = Object.fromEntries(first.updates.map((u) => [u.row.memory.id, u.changed]));
    expect(changed).toEqual({ [kid.memory.id]: ["parent_memory_id"], [old.memory.id]: ["superseded_by", "valid_to"] });
    expect(first.updates.find((u) => u.row.memory.id === old.memory.id)!.row.memory.superseded_by).toBeNull();
    expect(await fx.redis.zcard(ks.tagMembers("t1"))).toBe(0);
    expect(await fx.redis.hexists(ks.externalIds, "p")).toBe(0);

    const second = await fx.store.purgeExpired(s, 10);
    expect(second.deleted.length).toBe(2);
    expect(second).toMatchObject({ more: false, next: ms(lasting.memory.expires_at!) });
    expect((await fx.store.purgeExpired(s, 10)).deleted).toEqual([]);
  });

  test("with the tenant's retention cascading, the subtree goes with the memory", async () => {
    const s = space();
    await fx.redis.hset(settingsKey(s), "retention:cascade", "1");
    const parent = await make(s, {}, { expires_at: soon(50) });
    const kid = await make(s, { parent: parent.memory.id }, { expires_at: soon(50) });
    const grandkid = await make(s, { parent: kid.memory.id });
    await Bun.sleep(80);
    const purge = await fx.store.purgeExpired(s, 10);
    expect(purge.deleted.map((d) => d.id).sort()).toEqual([parent, kid, grandkid].map((r) => r.memory.id).sort());
    expect(purge).toMatchObject({ updates: [], next: null, more: false });
    expect(await fx.redis.keys(`mi:{${s.tenant}:live}:*`)).toEqual([]);
  });
});

describe("retention and supersession in the create function", () => {
  test("a tier's retention default from the settings; an explicit null or ttl wins", async () => {
    const s = space();
    await fx.redis.hset(settingsKey(s), "retention:short", "2");
    const short = await make(s, { tier: "short" });
    expect(ms(short.memory.expires_at!) - ms(short.memory.created_at)).toBe(2 * 86_400_000);
    expect((await make(s, { tier: "short" }, { expires_at: null })).memory.expires_at).toBeNull();
    const ttl = await make(s, { tier: "short" }, { ttl_seconds: 5 });
    expect(ms(ttl.memory.expires_at!) - ms(ttl.memory.created_at)).toBe(5000);
    expect((await make(s, { tier: "long" })).memory.expires_at).toBeNull();
  });

  test("naming a chain's first memory walks to its latest, at most SUPERSESSION_WALK_MAX links", async () => {
    const s = space();
    const first = await make(s);
    let head = first;
    for (let i = 0; i < SUPERSESSION_WALK_MAX; i++) head = await make(s, {}, { supersedes: head.memory.id });
    const refused = await make(s, {}, { supersedes: first.memory.id }).catch((e: ServiceError) => e);
    expect(refused).toMatchObject({
      code: "VALIDATION_ERROR",
      details: { field: "supersedes", constraint: "max_depth" },
    });
    const second = (await fx.store.getMemories(s, [first.memory.id]))[0]!.memory.superseded_by!;
    const made = await make(s, {}, { supersedes: second });
    expect(made.memory.supersedes).toBe(head.memory.id);
    expect(made.superseded?.memory.superseded_by).toBe(made.memory.id);
  });

  test("an import's superseded_by links the memory replacing it, unless that one replaces another", async () => {
    const s = space();
    const newer = await make(s, {}, { occurred_at: "2024-03-01T00:00:00.000Z" });
    const older = await make(s, {}, { occurred_at: "2024-01-01T00:00:00.000Z", superseded_by: newer.memory.id });
    expect(older.memory).toMatchObject({ superseded_by: newer.memory.id, valid_to: "2024-03-01T00:00:00.000Z" });
    expect(older.replacedBy?.memory.supersedes).toBe(older.memory.id);
    expect(older.replacedBy?.version).toBe(newer.version + 1);
    // The rows answered are what a read finds.
    const [readOlder, readNewer] = await fx.store.getMemories(s, [older.memory.id, newer.memory.id]);
    expect(readOlder).toEqual({ version: older.version, memory: older.memory });
    expect(readNewer).toEqual(older.replacedBy!);
    // A later patch of the newer one's occurred_at moves the end of the older one, as for any supersession.
    await fx.store.updateMemory(s, newer.memory.id, { occurred_at: "2024-04-01T00:00:00.000Z" }, 64);
    const [moved] = await fx.store.getMemories(s, [older.memory.id]);
    expect(moved!.memory.valid_to).toBe("2024-04-01T00:00:00.000Z");

    // Already replacing another, or gone: the memory goes in unlinked.
    const third = await make(s, {}, { superseded_by: newer.memory.id });
    expect(third.memory.superseded_by).toBeNull();
    expect(third.replacedBy).toBeUndefined();
    const lone = await make(s, {}, { superseded_by: crypto.randomUUID() });
    expect(lone.memory.superseded_by).toBeNull();
  });
});

describe("the expiry registry", () => {
  test("claims lease a due space; a release keeps an expiry registered meanwhile", async () => {
    await fx.redis.del(EXPIRY_REGISTRY.due, EXPIRY_REGISTRY.gen);
    const [a, b] = [space(), space()];
    const now = Date.now();
    await fx.store.registerExpiry(a, now - 10);
    await fx.store.registerExpiry(a, now + 60_000); // later: the earlier look stays
    await fx.store.registerExpiry(b, now + 60_000);
    const claimed = await fx.store.claimDue(10, 30_000);
    expect(claimed).toEqual([{ space: a, gen: "2" }]);
    expect(await fx.store.claimDue(10, 30_000)).toEqual([]);
    // Nothing registered meanwhile: the release sets the next look, or drops the space.
    await fx.store.releaseDue(a, "2", now - 5);
    expect((await fx.store.claimDue(10, 30_000)).map((c) => c.space)).toEqual([a]);
    await fx.store.releaseDue(a, "2", null);
    expect(await fx.redis.zscore(EXPIRY_REGISTRY.due, `{${a.tenant}:live}`)).toBeNull();
    // A registration between claim and release: the release cannot drop what it did not see.
    await fx.store.registerExpiry(a, now - 1);
    const [again] = await fx.store.claimDue(10, 30_000);
    await fx.store.registerExpiry(a, now + 5000);
    await fx.store.releaseDue(a, again!.gen, null);
    expect(Number(await fx.redis.zscore(EXPIRY_REGISTRY.due, `{${a.tenant}:live}`))).toBe(now + 5000);
    await fx.store.releaseDue(b, "0", null); // never claimed, gen 1: kept
    expect(Number(await fx.redis.zscore(EXPIRY_REGISTRY.due, `{${b.tenant}:live}`))).toBe(now + 60_000);
  });

  test("the walk over the keyspace finds every space with memories that expire, with the earliest", async () => {
    const [a, b] = [space(), space()];
    const early = await make(a, {}, { expires_at: soon(5000) });
    await make(a, {}, { expires_at: soon(9000) });
    await make(b);
    const found = new Map<string, number>();
    let cursor = "0";
    do {
      const step = await fx.store.expiringSpaces(cursor, 10);
      for (const [sp, at] of step.found) found.set(sp.tenant, at);
      cursor = step.cursor;
    } while (cursor !== "0");
    expect(found.get(a.tenant)).toBe(ms(early.memory.expires_at!));
    expect(found.has(b.tenant)).toBe(false);
  });
});
