// Products with the offline model's fixed weights (use-lite-forward.ts): OpenBLAS's sgemm, or the
// kernel of dense.c (AVX-512, or AVX2 with FMA and F16C) when scripts/bootstrap.mjs (or the search
// image) built it and this CPU can run one of its variants.
import { dlopen, FFIType, ptr } from "bun:ffi";
import { readFileSync } from "node:fs";
import { CBLAS, type Sgemm } from "./blas";

/** c (rows × n) += a (rows × k) · W (k × n), for one fixed W; a and c are row-major and dense. */
export type WeightProduct = (rows: number, a: Float32Array, c: Float32Array) => void;
/** Prepares the product with one weight matrix (k × n, row-major). */
export type WeightProducts = (w: Float32Array, k: number, n: number) => WeightProduct;

/** dense.c's column blocks: n must be a multiple of 64; each variant packs W in blocks of its width. */
const BLOCK = 64;
/** Each variant's symbol in dense.c, its block width, and how it holds the weights (the AVX2 one in half precision). */
const VARIANTS = {
  avx512: { symbol: "dense_f32_avx512", width: 64, half: false },
  avx2: { symbol: "dense_f16_avx2", width: 16, half: true },
} as const;

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

/** The variant of dense.c this CPU runs fastest, or null when it can run neither. */
export function denseVariant(flags = cpuFlags()): keyof typeof VARIANTS | null {
  if (flags.has("avx512f")) return "avx512";
  if (flags.has("avx2") && flags.has("fma") && flags.has("f16c")) return "avx2";
  return null;
}

/**
 * The kernel of dense.c in the library at `path`, its variant for this CPU; null when the CPU has
 * neither AVX-512 nor AVX2 with FMA and F16C (e.g. an image scheduled on an older node: calling it would
 * kill the process). Throws when the library cannot be loaded.
 */
export function openDenseKernel(path: string, flags = cpuFlags()): WeightProducts | null {
  const variant = denseVariant(flags);
  if (!variant) return null;
  const { symbol, width, half } = VARIANTS[variant];
  const { symbols } = dlopen(path, {
    [symbol]: {
      args: [FFIType.i32, FFIType.i32, FFIType.i32, FFIType.ptr, FFIType.ptr, FFIType.ptr],
      returns: FFIType.void,
    },
  });
  const product = symbols[symbol]!;
  return (w, k, n) => {
    if (n % BLOCK !== 0 || w.length !== k * n)
      throw new Error(`dense kernel: a ${k} × ${n} weight matrix does not fit ${BLOCK}-column blocks`);
    // Packed once: each block of `width` columns as k contiguous rows of `width` (set rounds each weight to the
    // nearest half-precision value for the AVX2 variant).
    const packed = half ? new Float16Array(k * n) : new Float32Array(k * n);
    let o = 0;
    for (let j = 0; j < n; j += width)
      for (let p = 0; p < k; p++) packed.set(w.subarray(p * n + j, p * n + j + width), o++ * width);
    return (rows, a, c) => product(rows, n, k, ptr(a), ptr(packed), ptr(c));
  };
}
