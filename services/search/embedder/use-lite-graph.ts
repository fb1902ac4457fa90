// Loads USE-lite's graph from the npm package and runs it on tfjs's WASM kernels: the model's path
// when OpenBLAS is not installed (use-lite-forward.ts is several times faster), and the reference the forward
// pass is tested against. The graph has two `Where` ops (dynamic output shape), which make tfjs
// refuse `execute()` and use `executeAsync()`: a promise per node, ~2 ms of every call. They are
// swapped for a synchronous `Where` of our own; the vectors are the same (tested against the
// package's own `embed`).
import { tf, type Tensor } from "./tfjs";
import { readUseLiteFiles, useLiteTokenizer, type UseLiteFiles } from "./use-lite-weights";

const SYNC_WHERE = "UseLiteSyncWhere";

/** tf.where(condition): the coordinates of its true elements, row-major, as an int32 [n, rank] tensor. */
function syncWhere({ inputs: [condition] }: { inputs: Tensor[] }): Tensor {
  const values = condition!.dataSync();
  const shape = condition!.shape;
  const coords: number[] = [];
  for (let i = 0; i < values.length; i++) {
    if (!values[i]) continue;
    const at = coords.length;
    let rest = i;
    for (let d = shape.length - 1; d >= 0; d--) {
      coords[at + d] = rest % shape[d]!;
      rest = Math.floor(rest / shape[d]!);
    }
  }
  return tf.tensor2d(coords, [coords.length / Math.max(1, shape.length), shape.length], "int32");
}

/** Returns a synchronous `embed(texts)`: one unit-length 512-d vector per (non-empty) text. */
export async function loadUseLite(
  { json, weightData: weights, vocabulary }: UseLiteFiles = readUseLiteFiles(),
): Promise<(texts: string[]) => Float32Array[]> {
  // The WASM backend must be up before the graph is loaded ("Backend 'wasm' has not yet been initialized").
  await tf.ready();
  // Skips tfjs's per-op debugging checks: ~2 ms of every call.
  tf.enableProdMode();
  for (const node of json.modelTopology.node) if (node.op === "Where") node.op = SYNC_WHERE;
  tf.registerOp(SYNC_WHERE, syncWhere);
  const graph = await tf.loadGraphModel(
    tf.io.fromMemory({
      modelTopology: json.modelTopology,
      weightSpecs: json.weightsManifest.flatMap((g) => g.weights),
      weightData: weights.buffer.slice(weights.byteOffset, weights.byteOffset + weights.byteLength),
      format: json.format,
      generatedBy: json.generatedBy,
      convertedBy: json.convertedBy,
    }),
  );
  const tokenize = useLiteTokenizer(vocabulary);

  return function embed(texts: string[]): Float32Array[] {
    // The model's input is sparse: (text index, token position) → token id.
    const positions: number[] = [];
    const ids: number[] = [];
    texts.forEach((text, i) => tokenize(text).forEach((id, j) => (positions.push(i, j), ids.push(id))));
    const indices = tf.tensor2d(positions, [ids.length, 2], "int32");
    const values = tf.tensor1d(ids, "int32");
    try {
      const out = graph.execute({ indices, values });
      const data = out.dataSync() as Float32Array;
      const dims = out.shape[1]!;
      out.dispose();
      return texts.map((_, i) => data.slice(i * dims, (i + 1) * dims));
    } finally {
      indices.dispose();
      values.dispose();
    }
  };
}
