import { describe, expect, test } from "bun:test";
import type { Embedder } from "./embedder";
import { createBatcher } from "./batcher";

/** A fake model: records each call, answers [length of text] vectors after `delayMs`. */
function fakeModel(delayMs = 5, fail?: (texts: string[]) => boolean) {
  const calls: string[][] = [];
  const base: Embedder = {
    model: "fake",
    dimensions: 1,
    async embed(texts) {
      calls.push(texts);
      await Bun.sleep(delayMs);
      if (fail?.(texts)) throw new Error("model failed");
      return texts.map((t) => Float32Array.from([t.length]));
    },
  };
  return { base, calls };
}

describe("micro-batching", () => {
  test("texts asked for in the same tick go to the model in one call, identical ones once", async () => {
    const { base, calls } = fakeModel();
    const b = createBatcher(base, { maxBatch: 32, concurrency: 1 });
    const lane = b.lane("write");
    const [x, y, z] = await Promise.all([lane.embed(["aa"]), lane.embed(["bbb", "aa"]), lane.embed(["c"])]);
    expect(calls).toEqual([["aa", "bbb", "c"]]);
    expect([...x[0]!, ...y[0]!, ...y[1]!, ...z[0]!]).toEqual([2, 3, 2, 1]);
  });

  test("batches hold at most maxBatch texts; concurrency bounds the calls in flight", async () => {
    const { base, calls } = fakeModel(10);
    let inFlight = 0;
    let most = 0;
    const counting: Embedder = {
      ...base,
      embed: async (t) => {
        most = Math.max(most, ++inFlight);
        try {
          return await base.embed(t);
        } finally {
          inFlight--;
        }
      },
    };
    const b = createBatcher(counting, { maxBatch: 4, concurrency: 2 });
    const out = await b.lane("background").embed(Array.from({ length: 10 }, (_, i) => "x".repeat(i + 1)));
    expect(calls.map((c) => c.length)).toEqual([4, 4, 2]);
    expect(most).toBe(2);
    expect(out.map((v) => v[0])).toEqual(Array.from({ length: 10 }, (_, i) => i + 1));
  });

  test("queries are served before writes, writes before background work", async () => {
    const { base, calls } = fakeModel(10);
    const b = createBatcher(base, { maxBatch: 2, concurrency: 1 });
    const bg = b.lane("background").embed(["b1", "b2", "b3", "b4"]);
    await Bun.sleep(1); // the first background batch is running now
    const w = b.lane("write").embed(["w1"]);
    const q = b.lane("query").embed(["q1"]);
    await Promise.all([bg, w, q]);
    expect(calls).toEqual([["b1", "b2"], ["q1"], ["w1"], ["b3", "b4"]]);
  });

  test("a queued text asked for by a more urgent lane moves up, and is embedded once", async () => {
    const { base, calls } = fakeModel(10);
    const b = createBatcher(base, { maxBatch: 1, concurrency: 1 });
    const bg = b.lane("background").embed(["b1", "shared"]);
    await Bun.sleep(1);
    const w = b.lane("write").embed(["shared"]);
    const [fromBg, fromWrite] = await Promise.all([bg, w]);
    expect(calls).toEqual([["b1"], ["shared"]]);
    expect(fromBg[1]).toBe(fromWrite[0]!);
  });

  test("a failed model call fails every request of its batch, and nothing stays pending", async () => {
    const { base } = fakeModel(1, (t) => t.includes("bad"));
    const b = createBatcher(base, { maxBatch: 8, concurrency: 1 });
    const lane = b.lane("write");
    const results = await Promise.allSettled([lane.embed(["ok"]), lane.embed(["bad"])]);
    expect(results.map((r) => r.status)).toEqual(["rejected", "rejected"]);
    expect(b.pending()).toBe(0);
    expect((await lane.embed(["ok"]))[0]![0]).toBe(2);
  });

  test("an empty text is refused before it reaches the model", async () => {
    const { base, calls } = fakeModel();
    const lane = createBatcher(base, { maxBatch: 8, concurrency: 1 }).lane("query");
    await expect(lane.embed(["fine", ""])).rejects.toThrow("cannot embed an empty string");
    expect(calls).toEqual([]);
  });
});
