import { describe, expect, test } from "bun:test";
import type { Embedder } from "./embedder";
import { cachedEmbedder, Lru } from "./cache";

describe("LRU", () => {
  test("evicts the least recently used entry", () => {
    const lru = new Lru<string, number>(2);
    lru.set("a", 1);
    lru.set("b", 2);
    expect(lru.get("a")).toBe(1); // a is now the most recent
    lru.set("c", 3);
    expect(lru.get("b")).toBeUndefined();
    expect(lru.get("a")).toBe(1);
    expect(lru.get("c")).toBe(3);
    expect(lru.size).toBe(2);
  });
});

describe("query embedding cache", () => {
  test("a repeated query skips the model; a failure is not cached", async () => {
    let calls = 0;
    let failNext = false;
    const base: Embedder = {
      model: "m",
      dimensions: 1,
      async embed(texts) {
        calls++;
        if (failNext) {
          failNext = false;
          throw new Error("down");
        }
        return texts.map(() => Float32Array.from([calls]));
      },
    };
    const cached = cachedEmbedder(base, 10);
    const first = await cached.embed(["hello"]);
    const second = await cached.embed(["hello"]);
    expect(second[0]).toBe(first[0]!);
    expect(calls).toBe(1);
    expect(cached.hits()).toBe(1);
    failNext = true;
    await expect(cached.embed(["other"])).rejects.toThrow("down");
    await Bun.sleep(0);
    expect((await cached.embed(["other"]))[0]![0]).toBe(3);
  });
});
