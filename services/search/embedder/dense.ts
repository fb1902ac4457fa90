// Products with the offline model's fixed weights (use-lite-forward.ts): OpenBLAS's sgemm, or the
// AVX-512 kernel of dense.c when scripts/bootstrap.mjs (or the search image) built it and this CPU
// can run it.
import { dlopen, FFIType, ptr } from "bun:ffi";
import { readFileSync } from "node:fs";
import { CBLAS, type Sgemm } from "./blas";

/** c (rows × n) += a (rows × k) · W (k × n), for one fixed W; a and c are row-major and dense. */
export type WeightProduct = (rows: number, a: Float32Array, c: Float32Array) => void;
/** Prepares the product with one weight matrix (k × n, row-major). */
export type WeightProducts = (w: Float32Array, k: number, n: number) => WeightProduct;

/** dense.c works on 64-column blocks. */
const BLOCK = 64;

export function blasWeightProducts(sgemm: Sgemm): WeightProducts {
  return (w, k, n) => (rows, a, c) =>
    sgemm(CBLAS.ROW_MAJOR, CBLAS.NO_TRANS, CBLAS.NO_TRANS, rows, n, k, 1, ptr(a), k, ptr(w), n, 1, ptr(c), n);
}

/** The CPU's feature flags from /proc/cpuinfo (none where it cannot be read). */
export function cpuFlags(): Set<string> {
  try {
    return new Set(/^flags\s*:(.*)$/m.exec(readFileSync("/proc/cpuinfo", "utf8"))?.[1]?.trim().split(/\s+/) ?? []);
  } catch {
    return new Set();
  }
}

/**
 * The kernel of dense.c in the library at `path`; null when the CPU has no AVX-512 (a library built
 * elsewhere, e.g. an image scheduled on an older node: calling it would kill the process). Throws
 * when the library cannot be loaded.
 */
export function openDenseKernel(path: string, flags = cpuFlags()): WeightProducts | null {
  if (!flags.has("avx512f")) return null;
  const { symbols } = dlopen(path, {
    dense_f32: {
      args: [FFIType.i32, FFIType.i32, FFIType.i32, FFIType.ptr, FFIType.ptr, FFIType.ptr],
      returns: FFIType.void,
    },
  });
  return (w, k, n) => {
    if (n % BLOCK !== 0 || w.length !== k * n)
      throw new Error(`dense kernel: a ${k} × ${n} weight matrix does not fit ${BLOCK}-column blocks`);
    // Packed once: each block of 64 columns as k contiguous rows of 64.
    const packed = new Float32Array(k * n);
    let o = 0;
    for (let j = 0; j < n; j += BLOCK)
      for (let p = 0; p < k; p++) packed.set(w.subarray(p * n + j, p * n + j + BLOCK), o++ * BLOCK);
    return (rows, a, c) => symbols.dense_f32(rows, n, k, ptr(a), ptr(packed), ptr(c));
  };
}
