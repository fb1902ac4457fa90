// Native matrix products for the offline model. USE-lite spends ~85% of its time in dense products
// (BatchMatMul and 1×1 Conv2D); tfjs's WASM kernels run them at ~6 GMAC/s here, OpenBLAS (a Debian
// package, called through bun:ffi) at ~50. Everything else in the graph stays on the WASM backend:
// the replacement kernels read and write the backend's own WASM heap, so no tensor is copied.
import { dlopen, FFIType, ptr, type Pointer } from "bun:ffi";
import type { KernelArgs, TensorInfo, Tfjs, WasmBackend } from "./tfjs";

/** Where Debian's libopenblas0 packages put the library (any of them will do). */
export const BLAS_CANDIDATES = [
  "/usr/lib/x86_64-linux-gnu/libopenblas.so.0",
  "/usr/lib/aarch64-linux-gnu/libopenblas.so.0",
  "/usr/lib/x86_64-linux-gnu/openblas-pthread/libopenblas.so.0",
  "/usr/lib/aarch64-linux-gnu/openblas-pthread/libopenblas.so.0",
];

const ROW_MAJOR = 101;
const NO_TRANS = 111;
const TRANS = 112;

type Sgemm = (
  order: number, ta: number, tb: number, m: number, n: number, k: number,
  alpha: number, a: Pointer, lda: number, b: Pointer, ldb: number, beta: number, c: Pointer, ldc: number,
) => void;

function openBlas(paths: string[]): { sgemm: Sgemm; path: string } | null {
  for (const path of paths) {
    try {
      const lib = dlopen(path, {
        cblas_sgemm: {
          args: [FFIType.i32, FFIType.i32, FFIType.i32, FFIType.i32, FFIType.i32, FFIType.i32, FFIType.f32, FFIType.ptr, FFIType.i32, FFIType.ptr, FFIType.i32, FFIType.f32, FFIType.ptr, FFIType.i32],
          returns: FFIType.void,
        },
        openblas_set_num_threads: { args: [FFIType.i32], returns: FFIType.void },
      });
      // One model call per worker thread: BLAS threads would only compete with the other workers.
      lib.symbols.openblas_set_num_threads(1);
      return { sgemm: lib.symbols.cblas_sgemm as unknown as Sgemm, path };
    } catch {
      // not there (or not OpenBLAS): try the next one
    }
  }
  return null;
}

const size = (shape: number[]) => shape.reduce((a, b) => a * b, 1);

/**
 * Replaces the WASM backend's BatchMatMul and Conv2D (1×1, stride 1, the only kind USE-lite has)
 * with OpenBLAS. Shapes the native path does not cover go to the original kernels. Returns the
 * library used, or null (nothing changed) when no OpenBLAS is installed.
 */
export function accelerateWithBlas(tf: Pick<Tfjs, "getKernel" | "unregisterKernel" | "registerKernel">, paths = BLAS_CANDIDATES): string | null {
  const blas = openBlas(paths);
  if (!blas) return null;
  const { sgemm } = blas;
  const original = {
    BatchMatMul: tf.getKernel("BatchMatMul", "wasm"),
    Conv2D: tf.getKernel("Conv2D", "wasm"),
  };
  if (!original.BatchMatMul || !original.Conv2D) return null;
  // The heap's address changes when WASM memory grows: take it afresh for every call.
  const heap = (b: WasmBackend) => ptr(b.wasm.HEAPU8) as number;
  const at = (b: WasmBackend, t: TensorInfo) => b.dataIdMap.get(t.dataId).memoryOffset;

  function batchMatMul(args: KernelArgs): TensorInfo {
    const { a, b } = args.inputs as { a: TensorInfo; b: TensorInfo };
    const transposeA = !!args.attrs.transposeA;
    const transposeB = !!args.attrs.transposeB;
    const batchA = size(a.shape.slice(0, -2));
    const batchB = size(b.shape.slice(0, -2));
    const sameOuter = a.shape.length === b.shape.length && a.shape.slice(0, -2).every((d, i) => d === b.shape[i]);
    // Equal batch dimensions, or one side a single matrix shared by every batch entry.
    if (a.dtype !== "float32" || b.dtype !== "float32" || !(sameOuter || batchA === 1 || batchB === 1)) {
      return original.BatchMatMul!.kernelFunc(args);
    }
    const [ar, ac] = a.shape.slice(-2) as [number, number];
    const [br, bc] = b.shape.slice(-2) as [number, number];
    const m = transposeA ? ac : ar;
    const k = transposeA ? ar : ac;
    const n = transposeB ? br : bc;
    if ((transposeB ? bc : br) !== k) return original.BatchMatMul!.kernelFunc(args);
    const outer = batchA >= batchB ? a.shape.slice(0, -2) : b.shape.slice(0, -2);
    const batch = Math.max(batchA, batchB);
    const out = args.backend.makeOutput([...outer, m, n], "float32");
    const base = heap(args.backend);
    const pa = base + at(args.backend, a);
    const pb = base + at(args.backend, b);
    const pc = base + at(args.backend, out);
    for (let i = 0; i < batch; i++) {
      sgemm(
        ROW_MAJOR, transposeA ? TRANS : NO_TRANS, transposeB ? TRANS : NO_TRANS, m, n, k, 1,
        (pa + (batchA === 1 ? 0 : i * ar * ac * 4)) as Pointer, ac,
        (pb + (batchB === 1 ? 0 : i * br * bc * 4)) as Pointer, bc,
        0, (pc + i * m * n * 4) as Pointer, n,
      );
    }
    return out;
  }

  function conv2d(args: KernelArgs): TensorInfo {
    const { x, filter } = args.inputs as { x: TensorInfo; filter: TensorInfo };
    const { strides, dilations, dataFormat } = args.attrs as { strides: number | number[]; dilations: number | number[]; dataFormat?: string };
    const ones = (v: number | number[]) => (Array.isArray(v) ? v.every((d) => d === 1) : v === 1);
    const [fh, fw, cin, cout] = filter.shape as [number, number, number, number];
    const pointwise = fh === 1 && fw === 1 && ones(strides) && ones(dilations ?? 1) && (dataFormat ?? "NHWC") === "NHWC";
    if (!pointwise || x.dtype !== "float32" || x.shape.length !== 4 || x.shape[3] !== cin) return original.Conv2D!.kernelFunc(args);
    // A 1×1 convolution over NHWC is one product: [N·H·W, Cin] × [Cin, Cout].
    const rows = size(x.shape.slice(0, 3));
    const out = args.backend.makeOutput([...x.shape.slice(0, 3), cout], "float32");
    const base = heap(args.backend);
    sgemm(
      ROW_MAJOR, NO_TRANS, NO_TRANS, rows, cout, cin, 1,
      (base + at(args.backend, x)) as Pointer, cin,
      (base + at(args.backend, filter)) as Pointer, cout,
      0, (base + at(args.backend, out)) as Pointer, cout,
    );
    return out;
  }

  for (const [name, kernelFunc] of [["BatchMatMul", batchMatMul], ["Conv2D", conv2d]] as const) {
    tf.unregisterKernel(name, "wasm");
    tf.registerKernel({ kernelName: name, backendName: "wasm", kernelFunc });
  }
  return blas.path;
}
