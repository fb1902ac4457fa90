import { expect, test } from "bun:test";
import type { Restriction } from "../../contract/caller";
import type { HandlerContext } from "../../kit/handler";
import { createLogger } from "../../kit/log";
import type { ChangePublisher } from "../../memory-data/publisher";
import { memoryStoreFixture, space } from "../store/store.fixture";
import { memoryHandlers } from "./memories";
import { threadBindings } from "./threads";

/** memories.threads against a real store: the same answers as memories.ancestors and memories.siblings. */
const fx = memoryStoreFixture("memories-threads");
const changes: ChangePublisher = { committed: async () => {} };

const ctxOf = (tenant: string, restrict: Restriction | null): HandlerContext => ({
  caller: {
    tenant,
    env: "live",
    keyId: "k",
    scopes: ["*"],
    ...(restrict ? { token: { id: "t", restrict } } : {}),
  },
  requestId: "r1",
  log: createLogger({}, "error"),
});

/** What the two per-memory reads answer, null where either is a 404. */
async function perMemory(ctx: HandlerContext, id: string, siblings: number) {
  const h = memoryHandlers({ store: fx.store, changes });
  try {
    const up = await h.ancestors({ id }, ctx);
    const around = siblings > 0 ? await h.siblings({ id, count: siblings }, ctx) : { before: [], after: [] };
    return { id, ancestor_ids: up.ancestor_ids, ...around };
  } catch (err) {
    if ((err as { code?: string }).code === "NOT_FOUND") return null;
    throw err;
  }
}

test("each memory's thread is what its ancestors and siblings reads answer, under every restriction", async () => {
  const s = space();
  const inside = { user: "u1" };
  const root = await fx.create(s, { metadata: inside });
  const mid = await fx.create(s, { parent: root.memory.id, metadata: { user: "u2" } });
  const turns = [];
  for (let i = 0; i < 5; i++) {
    turns.push(await fx.create(s, { parent: mid.memory.id, metadata: i % 2 === 0 ? inside : { user: "u2" } }));
    await Bun.sleep(2); // distinct created_at: thread order is creation order
  }
  const alone = await fx.create(s, { metadata: inside });
  const ids = [...turns.map((t) => t.memory.id), mid.memory.id, root.memory.id, alone.memory.id, crypto.randomUUID()];
  const [threads] = threadBindings({ store: fx.store, changes });

  for (const restrict of [null, { metadata: inside }, { root_memory_id: mid.memory.id }]) {
    const ctx = ctxOf(s.tenant, restrict);
    const items = ids.map((id, i) => ({ id, siblings: i % 3 }));
    const { items: got } = (await threads!.handler({ items }, ctx)) as { items: unknown[] };
    const expected = await Promise.all(items.map(({ id, siblings }) => perMemory(ctx, id, siblings)));
    expect(got).toEqual(expected);
    // The unknown id has no thread; the restriction hides memories from some threads.
    expect(got.at(-1)).toBeNull();
  }
  const { items: open } = (await threads!.handler(
    { items: [{ id: turns[2]!.memory.id, siblings: 2 }] },
    ctxOf(s.tenant, null),
  )) as {
    items: { ancestor_ids: string[]; before: { id: string }[]; after: { id: string }[] }[];
  };
  expect(open[0]!.ancestor_ids).toEqual([mid.memory.id, root.memory.id]);
  expect(open[0]!.before.map((m) => m.id)).toEqual([turns[0]!.memory.id, turns[1]!.memory.id]);
  expect(open[0]!.after.map((m) => m.id)).toEqual([turns[3]!.memory.id, turns[4]!.memory.id]);
});
