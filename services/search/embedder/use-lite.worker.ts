// Runs Universal Sentence Encoder lite off the service's event loop: the model is CPU-bound
// (~9 ms per short text), which would otherwise stall every request the service is handling.
import { accelerateWithBlas, BLAS_CANDIDATES } from "./blas";
import { tf } from "./tfjs";
import { loadUseLite } from "./use-lite-graph";

declare const self: Worker;

/** The first message: how to run the model (see EMBEDDINGS_BLAS). */
export interface WorkerInit { blas: "auto" | "off" | string }

self.onmessage = async (e: MessageEvent<WorkerInit>) => {
  self.onmessage = null;
  // The WASM backend must be up before the graph is loaded ("Backend 'wasm' has not yet been initialized").
  await tf.ready();
  // Skips tfjs's per-op debugging checks: ~2 ms of every call.
  tf.enableProdMode();
  const { blas } = e.data;
  const blasPath = blas === "off" ? null : accelerateWithBlas(tf, blas === "auto" ? BLAS_CANDIDATES : [blas]);
  if (blas !== "off" && blas !== "auto" && !blasPath) {
    self.postMessage({ error: `EMBEDDINGS_BLAS: cannot load OpenBLAS from ${blas}` });
    return;
  }
  const embed = await loadUseLite();
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
