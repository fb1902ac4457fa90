import { describe, expect, test } from "bun:test";
import { memoryStoreFixture, space, fields } from "../store/store.fixture";
import { createPortabilityStore, EXPORT_PAGE_BYTES, type ExportPosition } from "./store";
import type { Space } from "../../kit/space";
import type { ExportRecord } from "../../contract/portability";

const fx = memoryStoreFixture("store-portability");
const port = () => createPortabilityStore(fx.redis);

/** Every record of an export taken `max` at a time, with `between` run after each page. */
async function exportAll(s: Space, max: number, between: (page: ExportRecord[]) => Promise<void> = async () => {}) {
  const out: ExportRecord[] = [];
  let at: ExportPosition | null = null;
  for (;;) {
    const page = await port().exportPage(s, at, max);
    out.push(...page.records);
    await between(page.records);
    if (page.next === null) return out;
    at = page.next;
  }
}

describe("export pages (lua/export.lua)", () => {
  test("depth first, parent before child, a thread in occurred_at order, whatever the page size", async () => {
    const s = space();
    // Roots by creation: given times, so two created in one millisecond still come in a known order.
    const at = (created_at: string) => ({ created_at });
    const a = await fx.store.createMemory(
      s,
      crypto.randomUUID(),
      fields({ content: "a" }),
      64,
      at("2024-01-01T00:00:00.000Z"),
    );
    const c = await fx.store.createMemory(
      s,
      crypto.randomUUID(),
      fields({ content: "c" }),
      64,
      at("2024-01-01T00:00:01.000Z"),
    );
    const late = { occurred_at: "2024-01-02T00:00:00.000Z" };
    const early = { occurred_at: "2024-01-01T00:00:00.000Z" };
    const b2 = await fx.store.createMemory(
      s,
      crypto.randomUUID(),
      fields({ content: "b2", parent: a.memory.id }),
      64,
      late,
    );
    await fx.store.createMemory(s, crypto.randomUUID(), fields({ content: "b1", parent: a.memory.id }), 64, early);
    await fx.store.createMemory(s, crypto.randomUUID(), fields({ content: "d", parent: b2.memory.id }), 64);
    expect(c.memory.id).toBeDefined();
    for (const max of [1, 2, 3, 1000]) {
      const contents = (await exportAll(s, max)).map((r) => (r.type === "memory" ? r.content : r.type));
      expect(contents).toEqual(["a", "b1", "b2", "d", "c"]);
    }
  });

  test("an expired memory is not exported; its children go out as roots (as its purge makes them)", async () => {
    const s = space();
    const soon = new Date(Date.now() + 150).toISOString();
    const parent = await fx.store.createMemory(s, crypto.randomUUID(), fields({ content: "p" }), 64, {
      expires_at: soon,
    });
    await fx.store.createMemory(s, crypto.randomUUID(), fields({ content: "k", parent: parent.memory.id }), 64);
    await Bun.sleep(250);
    const records = await exportAll(s, 1000);
    expect(records.map((r) => (r.type === "memory" ? [r.content, r.parent_memory_id] : []))).toEqual([["k", null]]);
  });

  test("a page of large memories stops at EXPORT_PAGE_BYTES, past its first record", async () => {
    const s = space();
    const big = "x".repeat(300_000);
    for (let i = 0; i < 8; i++) await fx.store.createMemory(s, crypto.randomUUID(), fields({ content: big }), 64);
    const first = await port().exportPage(s, null, 1000);
    expect(first.records).toHaveLength(Math.ceil(EXPORT_PAGE_BYTES / 300_000));
    expect((await exportAll(s, 1000)).length).toBe(8);
  });

  test("a memory deleted after its page is passed over: the walk goes on after its place", async () => {
    const s = space();
    for (let i = 0; i < 6; i++) await fx.store.createMemory(s, crypto.randomUUID(), fields({ content: `m${i}` }), 64);
    const contents = (rs: ExportRecord[]) => rs.map((r) => (r.type === "memory" ? r.content : ""));
    const whole = contents(await exportAll(s, 1000));
    const seen = await exportAll(s, 2, async (page) => {
      const last = page.at(-1);
      if (last?.type === "memory") await fx.store.deleteMemory(s, last.id, false);
    });
    expect(whole).toHaveLength(6);
    expect(contents(seen)).toEqual(whole);
  });

  test("an import's created_at is kept, one still to come is now; updated_at is the time of the import", async () => {
    const s = space();
    const past = await fx.store.createMemory(s, crypto.randomUUID(), fields(), 64, {
      created_at: "2020-05-05T05:05:05.005Z",
    });
    expect(past.memory.created_at).toBe("2020-05-05T05:05:05.005Z");
    expect(past.memory.occurred_at).toBe("2020-05-05T05:05:05.005Z");
    expect(Date.parse(past.memory.updated_at)).toBeGreaterThan(Date.now() - 60_000);
    const future = await fx.store.createMemory(s, crypto.randomUUID(), fields(), 64, {
      created_at: "2999-01-01T00:00:00.000Z",
    });
    expect(Date.parse(future.memory.created_at)).toBeLessThanOrEqual(Date.now() + 1000);
  });

  test("probe: a memory answers to its created_at, and to an import's created_at that was still to come", async () => {
    const s = space();
    const past = await fx.store.createMemory(s, crypto.randomUUID(), fields(), 64, {
      created_at: "2020-05-05T05:05:05.005Z",
    });
    const future = await fx.store.createMemory(s, crypto.randomUUID(), fields(), 64, {
      created_at: "2999-01-01T00:00:00.000Z",
    });
    const plain = await fx.store.createMemory(s, crypto.randomUUID(), fields(), 64);
    const nowhere = crypto.randomUUID();
    const known = await port().probe(s, [past.memory.id, future.memory.id, plain.memory.id, nowhere]);
    expect(known.get(past.memory.id)).toEqual([Date.parse("2020-05-05T05:05:05.005Z")]);
    expect(known.get(future.memory.id)).toEqual([
      Date.parse(future.memory.created_at),
      Date.parse("2999-01-01T00:00:00.000Z"),
    ]);
    expect(known.get(plain.memory.id)).toEqual([Date.parse(plain.memory.created_at)]);
    expect(known.get(nowhere)).toBeNull();
    // The time asked for is the store's own: no read of the memory shows it.
    const [read] = await fx.store.getMemories(s, [future.memory.id]);
    expect(JSON.stringify(read)).not.toContain("2999");
  });
});

describe("erase", () => {
  test("removes the space's memories and indexes, and nothing of another space", async () => {
    const s = space();
    const other = space();
    for (let i = 0; i < 30; i++) await fx.store.createMemory(s, crypto.randomUUID(), fields(), 64);
    await fx.store.createMemory(other, crypto.randomUUID(), fields(), 64);
    const otherKeys = (await fx.redis.keys(`*{${other.tenant}:live}*`)).sort();
    // A small budget: several calls, each done: false until the last.
    let calls = 0;
    for (let r = await port().erase(s, 25); ; r = await port().erase(s, 25)) {
      calls++;
      if (r.done) break;
    }
    expect(calls).toBeGreaterThan(1);
    expect(await fx.redis.keys(`*{${s.tenant}:live}*`)).toEqual([]);
    expect((await fx.redis.keys(`*{${other.tenant}:live}*`)).sort()).toEqual(otherKeys);
  });
});
