// Runs Universal Sentence Encoder lite off the service's event loop: the model is CPU-bound
// (~5 ms per short text), which would otherwise stall every request the service is handling.
import { BLAS_CANDIDATES, openBlas } from "./blas";
import { createUseLiteForward } from "./use-lite-forward";
import { loadUseLite } from "./use-lite-graph";
import { loadUseLiteWeights, useLiteTokenizer } from "./use-lite-weights";

declare const self: Worker;

/** The first message: how to run the model (see EMBEDDINGS_BLAS). */
export interface WorkerInit { blas: "auto" | "off" | string }

/** With OpenBLAS: the forward pass written out; without: the TensorFlow graph on tfjs's WASM kernels. */
async function load({ blas }: WorkerInit): Promise<{ embed: (texts: string[]) => Float32Array[]; blasPath: string | null }> {
  const library = blas === "off" ? null : openBlas(blas === "auto" ? BLAS_CANDIDATES : [blas]);
  if (blas !== "off" && blas !== "auto" && !library) throw new Error(`EMBEDDINGS_BLAS: cannot load OpenBLAS from ${blas}`);
  if (!library) return { embed: await loadUseLite(), blasPath: null };
  const weights = loadUseLiteWeights();
  return { embed: createUseLiteForward(weights, library.sgemm, useLiteTokenizer(weights.vocabulary)), blasPath: library.path };
}

self.onmessage = async (e: MessageEvent<WorkerInit>) => {
  self.onmessage = null;
  let model: Awaited<ReturnType<typeof load>>;
  try {
    model = await load(e.data);
  } catch (err) {
    self.postMessage({ error: (err as Error).message ?? String(err) });
    return;
  }
  const { embed, blasPath } = model;
  self.onmessage = (e: MessageEvent<{ id: number; texts: string[] }>) => {
    const { id, texts } = e.data;
    try {
      const vectors = embed(texts);
      self.postMessage({ id, vectors }, vectors.map((v) => v.buffer));
    } catch (err) {
      self.postMessage({ id, error: (err as Error).message ?? String(err) });
    }
  };
  self.postMessage({ ready: true, blas: blasPath });
};
