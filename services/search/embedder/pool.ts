import type { WorkerInit } from "./use-lite.worker";
import { createUseLiteEmbedder, type UseLiteEmbedder } from "./use-lite";
import type { Embedder } from "./embedder";

/**
 * One embedder over several copies of a model (each its own worker thread, so its own core): each call goes to
 * the copy with the fewest calls in flight. With the batcher's concurrency set to the copies' count, a long
 * import's model work spreads over the cores instead of holding one while the others wait.
 */
export function pooledEmbedder<E extends Embedder>(copies: E[]): E {
  if (copies.length === 0) throw new Error("an embedder pool needs at least one copy");
  const inFlight = copies.map(() => 0);
  return {
    ...copies[0]!,
    async embed(texts: string[]) {
      let pick = 0;
      for (let i = 1; i < copies.length; i++) if (inFlight[i]! < inFlight[pick]!) pick = i;
      inFlight[pick]!++;
      try {
        return await copies[pick]!.embed(texts);
      } finally {
        inFlight[pick]!--;
      }
    },
    async close() {
      await Promise.all(copies.map((c) => c.close?.()));
    },
  };
}

/** `copies` copies of the offline model (EMBEDDINGS_WORKERS), each in its worker thread, as one embedder. */
export async function createUseLitePool(copies: number, init: WorkerInit): Promise<UseLiteEmbedder> {
  return pooledEmbedder(await Promise.all(Array.from({ length: copies }, () => createUseLiteEmbedder(init))));
}
