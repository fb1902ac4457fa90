// Runs Universal Sentence Encoder lite off the service's event loop: the model is CPU-bound
// (2.5–12 ms per short text, depending on the path), which would otherwise stall every request
// the service is handling.
import { BLAS_CANDIDATES, openBlas } from "./blas";
import { byTextLength } from "./by-length";
import { blasWeightProducts, openDenseKernel } from "./dense";
import { createUseLiteForward } from "./use-lite-forward";
import { loadUseLite } from "./use-lite-graph";
import { loadUseLiteWeights, readUseLiteFiles, useLiteTokenizer } from "./use-lite-weights";

declare const self: Worker;

/** The first message: how to run the model (see EMBEDDINGS_BLAS and EMBEDDINGS_KERNEL). */
export interface WorkerInit {
  blas: "auto" | "off" | string;
  kernel?: string;
}

interface Loaded {
  embed: (texts: string[]) => Float32Array[];
  blas: string | null;
  kernel: string | null;
}

/**
 * With OpenBLAS: the forward pass written out, its weight products on the dense.c kernel when one
 * is given and the CPU runs it; without OpenBLAS: the TensorFlow graph on tfjs's WASM kernels.
 */
async function load({ blas, kernel }: WorkerInit): Promise<Loaded> {
  const library = blas === "off" ? null : openBlas(blas === "auto" ? BLAS_CANDIDATES : [blas]);
  if (blas !== "off" && blas !== "auto" && !library)
    throw new Error(`EMBEDDINGS_BLAS: cannot load OpenBLAS from ${blas}`);
  const files = readUseLiteFiles();
  if (!library) return { embed: await loadUseLite(files), blas: null, kernel: null };
  let dense = null;
  try {
    dense = kernel ? openDenseKernel(kernel) : null;
  } catch (err) {
    throw new Error(`EMBEDDINGS_KERNEL: cannot load ${kernel}: ${(err as Error).message}`);
  }
  const weights = loadUseLiteWeights(files);
  const tokenize = useLiteTokenizer(files.vocabulary);
  const onBlas = createUseLiteForward(weights, library.sgemm, blasWeightProducts(library.sgemm), tokenize);
  const embed = dense ? byTextLength(createUseLiteForward(weights, library.sgemm, dense, tokenize), onBlas) : onBlas;
  return { embed, blas: library.path, kernel: dense ? kernel! : null };
}

self.onmessage = async (e: MessageEvent<WorkerInit>) => {
  self.onmessage = null;
  let model: Loaded;
  try {
    model = await load(e.data);
  } catch (err) {
    self.postMessage({ error: (err as Error).message ?? String(err) });
    return;
  }
  const { embed, blas, kernel } = model;
  self.onmessage = (e: MessageEvent<{ id: number; texts: string[] }>) => {
    const { id, texts } = e.data;
    try {
      const vectors = embed(texts);
      self.postMessage(
        { id, vectors },
        vectors.map((v) => v.buffer),
      );
    } catch (err) {
      self.postMessage({ id, error: (err as Error).message ?? String(err) });
    }
  };
  self.postMessage({ ready: true, blas, kernel });
};
