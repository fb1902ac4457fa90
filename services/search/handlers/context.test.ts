import { expect, test } from "bun:test";
import type { Memory } from "../../contract/memories";
import { memoryFixture } from "../../contract/memory.fixture";
import type { ContextMemory } from "../../contract/search";
import type { Bus } from "../../kit/bus";
import type { HandlerContext } from "../../kit/handler";
import { createLogger } from "../../kit/log";
import { createMemoryReader } from "../memories-client";
import type { Retrieve } from "../retrieval/retrieve";
import { contextBindings } from "./context";

const ctx: HandlerContext = {
  caller: { tenant: "acme", env: "test", keyId: "k", scopes: ["*"] },
  requestId: "r1",
  log: createLogger({}, "error"),
};

/** Threads of `turns` turns under one root each, every turn a match, and one match without a parent. */
function tenantOf(threadCount: number, turns: number) {
  const all = new Map<string, Memory>();
  const add = (m: Memory) => void all.set(m.id, m);
  const kids = new Map<string, string[]>();
  for (let t = 0; t < threadCount; t++) {
    const root = memoryFixture({ content: `root ${t}` });
    add(root);
    const ids: string[] = [];
    for (let i = 0; i < turns; i++) {
      const turn = memoryFixture({ content: `turn ${t}.${i}`, parent_memory_id: root.id });
      add(turn);
      ids.push(turn.id);
    }
    kids.set(root.id, ids);
  }
  add(memoryFixture({ content: "alone" }));
  return { all, kids };
}

/**
 * A memories service over NATS that answers what its reads would, and counts its calls by subject. It answers the
 * per-memory reads too, so a handler that still makes them reads the same threads (and only the counts differ).
 */
function memoriesService({ all, kids }: ReturnType<typeof tenantOf>) {
  const calls: Record<string, number> = {};
  const ancestorsOf = (id: string) => {
    const out: string[] = [];
    for (let p = all.get(id)?.parent_memory_id; p; p = all.get(p)?.parent_memory_id) out.push(p);
    return out;
  };
  const siblingsOf = (id: string, n: number) => {
    const row = kids.get(all.get(id)?.parent_memory_id ?? "") ?? [];
    const at = row.indexOf(id);
    const memories = (ids: string[]) => ids.map((x) => all.get(x)!);
    return at < 0
      ? { before: [], after: [] }
      : { before: memories(row.slice(Math.max(0, at - n), at)), after: memories(row.slice(at + 1, at + 1 + n)) };
  };
  const answers: Record<string, (input: any) => unknown> = {
    "memories.getMany": (i: { ids: string[] }) => ({ items: i.ids.map((id) => all.get(id) ?? null) }),
    "memories.ancestors": (i: { id: string }) => ({ id: i.id, ancestor_ids: ancestorsOf(i.id) }),
    "memories.siblings": (i: { id: string; count: number }) => siblingsOf(i.id, i.count),
    "memories.threads": (i: { items: { id: string; siblings: number }[] }) => ({
      items: i.items.map(({ id, siblings }) => ({ id, ancestor_ids: ancestorsOf(id), ...siblingsOf(id, siblings) })),
    }),
  };
  const bus = {
    async call(op: { subject: string }, input: unknown) {
      calls[op.subject] = (calls[op.subject] ?? 0) + 1;
      const answer = answers[op.subject];
      if (!answer) throw new Error(`unexpected call of ${op.subject}`);
      return answer(input);
    },
  } as unknown as Bus;
  return { bus, calls };
}

/** The context of a query matching the memories `matching` picks (every one but the roots by default). */
async function contextOf(threadCount: number, turns: number, matching = (m: Memory) => !m.content.startsWith("root")) {
  const tenant = tenantOf(threadCount, turns);
  const { bus, calls } = memoriesService(tenant);
  // Best first in creation order.
  const matches = [...tenant.all.values()].filter(matching);
  const retrieve = (async () => matches.map((m, i) => ({ id: m.id, score: 1 - i / 1000 }))) as unknown as Retrieve;
  const deps = { retrieve, reader: createMemoryReader(bus), rebuilder: { ensure: async () => {} } };
  const [binding] = contextBindings(deps);
  const out = (await binding!.handler({ query: "turn", limit: 100, max_tokens: 32_000, neighbors: 1 }, ctx)) as {
    memories: ContextMemory[];
  };
  return { out, calls, tenant, matches };
}

test("context reads the threads of N matches in one call to the memories service", async () => {
  for (const [threads, turns] of [
    [1, 2],
    [4, 5],
    [9, 10],
  ] as const) {
    const { calls, matches } = await contextOf(threads, turns);
    expect(matches.length).toBe(threads * turns + 1);
    // The matches, their threads, the ancestors not among the matches: 3 calls whatever N.
    expect(calls).toEqual({ "memories.getMany": 2, "memories.threads": 1 });
  }
});

test("each match gets its own ancestors and the siblings around it", async () => {
  const { out } = await contextOf(2, 6, (m) => / [01]\.[14]$|alone/.test(m.content));
  const roles = Object.fromEntries(out.memories.map((m) => [m.content, m.role]).sort());
  expect(roles).toEqual({
    alone: "match",
    "root 0": "ancestor",
    "root 1": "ancestor",
    "turn 0.0": "neighbor",
    "turn 0.1": "match",
    "turn 0.2": "neighbor",
    "turn 0.3": "neighbor",
    "turn 0.4": "match",
    "turn 0.5": "neighbor",
    "turn 1.0": "neighbor",
    "turn 1.1": "match",
    "turn 1.2": "neighbor",
    "turn 1.3": "neighbor",
    "turn 1.4": "match",
    "turn 1.5": "neighbor",
  });
});
