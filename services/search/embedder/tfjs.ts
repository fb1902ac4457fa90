// The slice of tfjs the offline model's code touches, typed once: @energetic-ai/core re-exports
// tfjs-core, -converter and -backend-wasm at run time but ships no types for them.
import * as core from "@energetic-ai/core";

export interface Tensor {
  shape: number[];
  dataSync(): Float32Array | Int32Array | Uint8Array;
  dispose(): void;
}
export interface GraphModel {
  execute(inputs: Record<string, Tensor>): Tensor;
}

/** What a WASM-backend kernel sees (see blas.ts). */
export interface TensorInfo { dataId: object; shape: number[]; dtype: string }
export interface WasmBackend {
  wasm: { HEAPU8: Uint8Array };
  dataIdMap: { get(id: object): { memoryOffset: number } };
  makeOutput(shape: number[], dtype: string): TensorInfo;
}
export interface KernelArgs { inputs: Record<string, TensorInfo>; backend: WasmBackend; attrs: Record<string, unknown> }
export interface KernelConfig { kernelName: string; backendName: string; kernelFunc: (args: KernelArgs) => TensorInfo; setupFunc?: unknown }

export interface Tfjs {
  ready(): Promise<void>;
  enableProdMode(): void;
  getKernel(name: string, backend: string): KernelConfig | undefined;
  unregisterKernel(name: string, backend: string): void;
  registerKernel(config: KernelConfig): void;
  registerOp(name: string, op: (node: { inputs: Tensor[] }) => Tensor): void;
  tensor1d(values: number[], dtype: "int32"): Tensor;
  tensor2d(values: number[], shape: [number, number], dtype: "int32"): Tensor;
  loadGraphModel(handler: unknown): Promise<GraphModel>;
  io: { fromMemory(artifacts: object): unknown };
}

export const tf = core as unknown as Tfjs;
