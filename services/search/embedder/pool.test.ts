import { describe, expect, test } from "bun:test";
import type { Embedder } from "./embedder";
import { pooledEmbedder } from "./pool";

/** A copy whose calls stay in flight until released, recording which texts it got. */
function heldCopy(name: string, log: string[]) {
  const waiting: (() => void)[] = [];
  let closed = false;
  const copy: Embedder = {
    model: "m",
    dimensions: 2,
    embed: (texts) =>
      new Promise((resolve) => {
        log.push(`${name}:${texts.join(",")}`);
        waiting.push(() => resolve(texts.map(() => new Float32Array([1, 0]))));
      }),
    close: async () => {
      closed = true;
    },
  };
  return { copy, release: () => waiting.shift()?.(), closed: () => closed };
}

describe("a pool of model copies", () => {
  test("each call goes to the copy with the fewest calls in flight", async () => {
    const log: string[] = [];
    const a = heldCopy("a", log);
    const b = heldCopy("b", log);
    const pool = pooledEmbedder([a.copy, b.copy]);
    const first = pool.embed(["1"]);
    const second = pool.embed(["2"]);
    const third = pool.embed(["3"]);
    expect(log).toEqual(["a:1", "b:2", "a:3"]);
    b.release();
    await second;
    const fourth = pool.embed(["4"]); // b is free now, a still holds two
    expect(log.at(-1)).toBe("b:4");
    a.release();
    a.release();
    b.release();
    expect((await Promise.all([first, third, fourth])).map((v) => v.length)).toEqual([1, 1, 1]);
  });

  test("closing the pool closes every copy; an empty pool is refused", async () => {
    const a = heldCopy("a", []);
    const b = heldCopy("b", []);
    await pooledEmbedder([a.copy, b.copy]).close?.();
    expect([a.closed(), b.closed()]).toEqual([true, true]);
    expect(() => pooledEmbedder([])).toThrow("at least one copy");
  });
});
