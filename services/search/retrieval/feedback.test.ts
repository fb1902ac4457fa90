import { beforeAll, describe, expect, test } from "bun:test";
import { privateRedis } from "../../../scripts/stack/redis.fixture";
import type { Embedder } from "../embedder";
import { createSearchStore, type SearchStore } from "../store";
import { createApplier } from "../indexer";
import { snapshotFixture } from "../indexer/snapshot.fixture";
import { createCandidateReader } from "./retrieve";
import { feedbackVector } from "./feedback";

const DIMS = 16;
const unit = (v: number[]) => {
  const norm = Math.hypot(...v);
  return Float32Array.from(v, (x) => x / norm);
};
const axis = (i: number, w = 1) => Array.from({ length: DIMS }, (_, j) => (j === i ? w : 0));
const plus = (a: number[], b: number[]) => a.map((x, i) => x + b[i]!);

/**
 * The query "alpha" points along axis 0. "alpha beta" leans toward axis 1 as well; "beta" lies along axis 1
 * only (cosine 0 with the query, no shared word); 34 fillers barely lean toward the query, enough to take every
 * place of the query's 30 nearest before "beta".
 */
const vectors = new Map<string, Float32Array>([
  ["alpha", unit(axis(0))],
  ["alpha beta", unit(plus(axis(0), axis(1)))],
  ["beta", unit(axis(1))],
]);
for (let i = 0; i < 34; i++) vectors.set(`filler ${i}`, unit(plus(axis(0, 0.05), axis(2 + (i % (DIMS - 2))))));
const fake: Embedder = {
  model: "fake",
  dimensions: DIMS,
  embed: async (texts) => texts.map((t) => vectors.get(t) ?? unit(axis(DIMS - 1))),
};
const MODEL = `fake-${DIMS}`;
const space = { tenant: "fb", env: "live" as const };
const memories = [...vectors.keys()].filter((t) => t !== "alpha").map((content) => snapshotFixture({ content }));
const idOf = (content: string) => memories.find((m) => m.content === content)!.id;

const db = privateRedis("search-feedback");
let store: SearchStore;
beforeAll(async () => {
  store = createSearchStore(await db.connect());
  await createApplier(store, { write: fake, background: fake }, MODEL)(space, { upserts: memories, deletes: [] });
});

describe("pseudo-relevance feedback", () => {
  test("the query moves toward the mean direction of its best candidates, whatever their int8 scale", () => {
    const q = unit(axis(0));
    const moved = feedbackVector(q, [Int8Array.from(axis(1, 127)), Int8Array.from(axis(1, 3))], 1);
    expect(moved[0]).toBeCloseTo(1, 6);
    expect(moved[1]).toBeCloseTo(1, 6);
    expect(feedbackVector(q, [], 1)).toEqual(q);
  });

  test("a memory the query alone does not reach is proposed through its best candidate, scored as itself", async () => {
    const read = createCandidateReader({ reads: store.reads, embedder: fake, modelId: MODEL });
    const out = await read(space, { query: "alpha", limit: 1, filters: {} });
    const first = out.filter((c) => !c.proposed).map((c) => c.id);
    expect(first).toContain(idOf("alpha beta"));
    expect(first).not.toContain(idOf("beta"));
    const beta = out.find((c) => c.id === idOf("beta"));
    expect(beta?.proposed?.feedback).toBeNumber();
    // Scored against the original query (cosine 0), not against the moved one.
    expect(beta!.semantic).toBeCloseTo(0, 1);
  });
});
