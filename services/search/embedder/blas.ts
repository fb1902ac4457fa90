// OpenBLAS (a Debian package, called through bun:ffi) for the offline model's dense products:
// ~50 GMAC/s here against ~6 for tfjs's WASM kernels. See use-lite-forward.ts.
import { dlopen, FFIType, type Pointer } from "bun:ffi";

/** Where Debian's libopenblas0 packages put the library (any of them will do). */
export const BLAS_CANDIDATES = [
  "/usr/lib/x86_64-linux-gnu/libopenblas.so.0",
  "/usr/lib/aarch64-linux-gnu/libopenblas.so.0",
  "/usr/lib/x86_64-linux-gnu/openblas-pthread/libopenblas.so.0",
  "/usr/lib/aarch64-linux-gnu/openblas-pthread/libopenblas.so.0",
];

/** CBLAS's enums for the calls we make. */
export const CBLAS = { ROW_MAJOR: 101, NO_TRANS: 111, TRANS: 112 } as const;

/** cblas_sgemm: C = alpha·op(A)·op(B) + beta·C. */
export type Sgemm = (
  order: number,
  ta: number,
  tb: number,
  m: number,
  n: number,
  k: number,
  alpha: number,
  a: Pointer,
  lda: number,
  b: Pointer,
  ldb: number,
  beta: number,
  c: Pointer,
  ldc: number,
) => void;

/** The first of `paths` that loads as OpenBLAS, single-threaded; null when none does. */
export function openBlas(paths: string[]): { sgemm: Sgemm; path: string } | null {
  for (const path of paths) {
    try {
      const lib = dlopen(path, {
        cblas_sgemm: {
          args: [
            FFIType.i32,
            FFIType.i32,
            FFIType.i32,
            FFIType.i32,
            FFIType.i32,
            FFIType.i32,
            FFIType.f32,
            FFIType.ptr,
            FFIType.i32,
            FFIType.ptr,
            FFIType.i32,
            FFIType.f32,
            FFIType.ptr,
            FFIType.i32,
          ],
          returns: FFIType.void,
        },
        openblas_set_num_threads: { args: [FFIType.i32], returns: FFIType.void },
      });
      // One model call at a time per worker: BLAS threads would only compete with the service.
      lib.symbols.openblas_set_num_threads(1);
      return { sgemm: lib.symbols.cblas_sgemm as unknown as Sgemm, path };
    } catch {
      // not there (or not OpenBLAS): try the next one
    }
  }
  return null;
}
