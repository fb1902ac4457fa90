import type { Embedder } from "./embedder";

/** Least-recently-used map: a Map keeps insertion order, so re-inserting on read marks recent use. */
export class Lru<K, V> {
  private readonly map = new Map<K, V>();
  constructor(readonly capacity: number) {}

  get(key: K): V | undefined {
    const v = this.map.get(key);
    if (v !== undefined) {
      this.map.delete(key);
      this.map.set(key, v);
    }
    return v;
  }

  set(key: K, value: V): void {
    this.map.delete(key);
    this.map.set(key, value);
    if (this.map.size > this.capacity) this.map.delete(this.map.keys().next().value as K);
  }

  delete(key: K): void {
    this.map.delete(key);
  }

  get size() {
    return this.map.size;
  }
}

/** Repeated queries (dashboards, retries, agents asking again) skip the model. */
export function cachedEmbedder(base: Embedder, capacity: number): Embedder & { hits: () => number } {
  const cache = new Lru<string, Promise<Float32Array>>(capacity);
  let hits = 0;
  return {
    model: base.model,
    dimensions: base.dimensions,
    maxTokens: base.maxTokens,
    hits: () => hits,
    embed(texts) {
      return Promise.all(
        texts.map((text) => {
          const cached = cache.get(text);
          if (cached) {
            hits++;
            return cached;
          }
          const p = base.embed([text]).then((v) => v[0]!);
          cache.set(text, p);
          // A failed embedding must not stay cached.
          p.catch(() => cache.delete(text));
          return p;
        }),
      );
    },
    close: base.close?.bind(base),
  };
}
