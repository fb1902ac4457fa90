// The slice of tfjs the offline model's graph path touches (use-lite-graph.ts), typed once:
// @energetic-ai/core re-exports tfjs-core, -converter and -backend-wasm at run time but ships no
// types for them.
import * as core from "@energetic-ai/core";

export interface Tensor {
  shape: number[];
  dataSync(): Float32Array | Int32Array | Uint8Array;
  dispose(): void;
}
export interface GraphModel {
  execute(inputs: Record<string, Tensor>): Tensor;
}

export interface Tfjs {
  ready(): Promise<void>;
  enableProdMode(): void;
  registerOp(name: string, op: (node: { inputs: Tensor[] }) => Tensor): void;
  tensor1d(values: number[], dtype: "int32"): Tensor;
  tensor2d(values: number[], shape: [number, number], dtype: "int32"): Tensor;
  loadGraphModel(handler: unknown): Promise<GraphModel>;
  io: { fromMemory(artifacts: object): unknown };
}

export const tf = core as unknown as Tfjs;
