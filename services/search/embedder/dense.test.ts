import { describe, expect, test } from "bun:test";
import { BLAS_CANDIDATES, openBlas } from "./blas";
import { blasWeightProducts, cpuFlags, openDenseKernel } from "./dense";

// `npm test` runs through scripts/bootstrap.mjs, which builds dense.c when the CPU has AVX-512.
const avx512 = cpuFlags().has("avx512f");
const built = process.env.EMBEDDINGS_KERNEL;
const blas = blasWeightProducts(openBlas(BLAS_CANDIDATES)!.sgemm);

/** Deterministic values in [-1, 1). */
function filled(n: number, seed: number): Float32Array {
  const out = new Float32Array(n);
  let x = seed;
  for (let i = 0; i < n; i++) out[i] = (x = (x * 1103515245 + 12345) >>> 0) / 2 ** 31 - 1;
  return out;
}

describe("the AVX-512 kernel for the model's weight products", () => {
  test("bootstrap built it on this AVX-512 machine, and it loads", () => {
    if (!avx512) return void expect(openDenseKernel(built ?? "/nonexistent.so")).toBeNull();
    expect(built).toBeDefined();
    expect(openDenseKernel(built!)).not.toBeNull();
  });

  test.skipIf(!avx512)("c += a·W equals OpenBLAS's for every row count of a tile, and the model's shapes", () => {
    const kernel = openDenseKernel(built!)!;
    for (const [k, n] of [
      [256, 768],
      [512, 1536],
      [1536, 512],
      [256, 64],
    ] as const) {
      const w = filled(k * n, k + n);
      const viaKernel = kernel(w, k, n);
      const viaBlas = blas(w, k, n);
      for (const rows of [1, 2, 3, 4, 5, 6, 7, 12, 17, 33]) {
        const a = filled(rows * k, rows);
        const start = filled(rows * n, 7 * rows); // accumulates onto what c holds
        const c1 = start.slice();
        const c2 = start.slice();
        viaKernel(rows, a, c1);
        viaBlas(rows, a, c2);
        let worst = 0;
        for (let i = 0; i < c1.length; i++) worst = Math.max(worst, Math.abs(c1[i]! - c2[i]!));
        expect(worst).toBeLessThan(1e-3); // sums of ≤ 1536 products of magnitude < 1: float rounding only
      }
    }
  });

  test("a CPU without AVX-512 never gets it (it would kill the process); shapes it cannot do are refused", () => {
    expect(openDenseKernel("/nonexistent.so", new Set(["sse2", "avx2"]))).toBeNull();
    if (avx512) expect(() => openDenseKernel(built!)!(new Float32Array(10 * 100), 10, 100)).toThrow("64-column blocks");
  });
});
