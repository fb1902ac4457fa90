import { describe, expect, test } from "bun:test";
import { BLAS_CANDIDATES, openBlas } from "./blas";
import { blasWeightProducts, cpuFlags, denseVariant, openDenseKernel } from "./dense";

// `npm test` runs through scripts/bootstrap.mjs, which builds dense.c when the CPU has AVX-512, or AVX2 with FMA
// and F16C.
const flags = cpuFlags();
const variant = denseVariant(flags);
const built = process.env.EMBEDDINGS_KERNEL;
// Every variant this CPU can run (an AVX-512 CPU runs the AVX2 one too), as the flags that select it.
const runnable = [
  ...(flags.has("avx512f") ? [{ name: "avx512", flags: new Set(["avx512f"]) }] : []),
  ...(flags.has("avx2") && flags.has("fma") && flags.has("f16c")
    ? [{ name: "avx2", flags: new Set(["avx2", "fma", "f16c"]) }]
    : []),
];
const blas = blasWeightProducts(openBlas(BLAS_CANDIDATES)!.sgemm);

/** Deterministic values in [-1, 1). */
function filled(n: number, seed: number): Float32Array {
  const out = new Float32Array(n);
  let x = seed;
  for (let i = 0; i < n; i++) out[i] = (x = (x * 1103515245 + 12345) >>> 0) / 2 ** 31 - 1;
  return out;
}

describe("the kernel for the model's weight products", () => {
  test("bootstrap built it on this machine when the CPU runs a variant, and it loads", () => {
    if (!variant) return void expect(openDenseKernel(built ?? "/nonexistent.so")).toBeNull();
    expect(built).toBeDefined();
    expect(openDenseKernel(built!)).not.toBeNull();
  });

  test("AVX-512 is preferred, then AVX2 with FMA and F16C; AVX2 without either is not enough", () => {
    expect(denseVariant(new Set(["avx2", "fma", "f16c", "avx512f"]))).toBe("avx512");
    expect(denseVariant(new Set(["sse2", "avx2", "fma", "f16c"]))).toBe("avx2");
    expect(denseVariant(new Set(["sse2", "avx2", "fma"]))).toBeNull();
    expect(denseVariant(new Set(["sse2", "avx2", "f16c"]))).toBeNull();
  });

  test.each(runnable)(
    "$name: c += a·W equals OpenBLAS's for every row count of a tile, and the model's shapes",
    (v) => {
      const kernel = openDenseKernel(built!, v.flags)!;
      for (const [k, n] of [
        [256, 768],
        [512, 1536],
        [1536, 512],
        [256, 64],
      ] as const) {
        const w = filled(k * n, k + n);
        const viaKernel = kernel(w, k, n);
        // The AVX2 variant holds the weights in half precision: OpenBLAS gets them rounded the same way.
        const viaBlas = blas(v.name === "avx2" ? Float32Array.from(new Float16Array(w)) : w, k, n);
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
    },
  );

  test("a CPU with neither variant never gets it (it would kill the process); shapes it cannot do are refused", () => {
    expect(openDenseKernel("/nonexistent.so", new Set(["sse2", "avx2", "fma"]))).toBeNull();
    if (variant)
      expect(() => openDenseKernel(built!)!(new Float32Array(10 * 100), 10, 100)).toThrow("64-column blocks");
  });
});
