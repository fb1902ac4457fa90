import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import type { MemoryFilter } from "../store";
import type { MemoryRow } from "../store/record";
import { memoryStoreFixture, space } from "../store/store.fixture";

/** Every list path of lua/list.lua, checked against brute force. */
const fx = memoryStoreFixture("memories-store-list");
const { create, attach } = fx;

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
      await fx.store.updateMemory(s, rows[i]!.memory.id, { content: "edited" }, 64);
    }
    const current = (await fx.store.getMemories(
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
          const got = await fx.store.listMemories(s, q);
          expect({ total: got.total, ids: got.rows.map((r) => r.memory.id) }).toEqual(brute(current, members, q));
        },
      ),
      { numRuns: 400 },
    );
  });
});
