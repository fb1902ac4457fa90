// Products with USE-lite's fixed weights: c (m × n) += a (m × k) · W (k × n), W packed once as
// column blocks of k × 64 floats (AVX-512) or k × 16 half-precision values (AVX2), so a tile reads its
// weights in order. For the model's few-row inputs (a query is ~17 tokens) this runs 1.5–3× faster than
// OpenBLAS's sgemm, which repacks W on every call (long texts go to OpenBLAS: by-length.ts). Two
// variants, each compiled for its instruction set by a target attribute, so the file needs no -m flag
// and one library serves both kinds of CPU: dense_f32_avx512 and dense_f16_avx2 (AVX2 with FMA and
// F16C). dense.ts calls the one the CPU can run. Built by scripts/bootstrap.mjs (and the search image).
#include <immintrin.h>
#include <stddef.h>
#include <stdint.h>

#define AVX512 __attribute__((target("avx512f")))
#define AVX2 __attribute__((target("avx2,fma,f16c")))

// AVX-512: up to 6 rows × 64 columns of c held in 24 of the 32 registers while k runs.
static inline AVX512 void tile512(int rows, const float *a, int lda, int k, const float *w, float *c, int ldc) {
  __m512 acc[6][4];
  for (int r = 0; r < rows; r++)
    for (int q = 0; q < 4; q++) acc[r][q] = _mm512_loadu_ps(c + (size_t)r * ldc + q * 16);
  for (int p = 0; p < k; p++) {
    const __m512 w0 = _mm512_loadu_ps(w + (size_t)p * 64);
    const __m512 w1 = _mm512_loadu_ps(w + (size_t)p * 64 + 16);
    const __m512 w2 = _mm512_loadu_ps(w + (size_t)p * 64 + 32);
    const __m512 w3 = _mm512_loadu_ps(w + (size_t)p * 64 + 48);
    for (int r = 0; r < rows; r++) {
      const __m512 x = _mm512_set1_ps(a[(size_t)r * lda + p]);
      acc[r][0] = _mm512_fmadd_ps(x, w0, acc[r][0]);
      acc[r][1] = _mm512_fmadd_ps(x, w1, acc[r][1]);
      acc[r][2] = _mm512_fmadd_ps(x, w2, acc[r][2]);
      acc[r][3] = _mm512_fmadd_ps(x, w3, acc[r][3]);
    }
  }
  for (int r = 0; r < rows; r++)
    for (int q = 0; q < 4; q++) _mm512_storeu_ps(c + (size_t)r * ldc + q * 16, acc[r][q]);
}

// AVX2: 16 registers, so up to 6 rows × 16 columns (12 accumulators, 2 of weights, 1 broadcast);
// `w` is a 16-column block, its rows 16 values apart, in half precision (IEEE binary16): a query streams
// every weight through the cache once, and half the bytes took its model time from 6.3 to 3.9 ms here
// (vectors within a cosine of 4e-7 of single precision's). The accumulators are named, not an array:
// GCC keeps an array of them on the stack here, which halved the kernel's speed.
#define LOAD2(r)                                                                                                   \
  __m256 c##r##0 = _mm256_setzero_ps(), c##r##1 = _mm256_setzero_ps();                                          \
  if (rows > r) c##r##0 = _mm256_loadu_ps(c + (size_t)r * ldc), c##r##1 = _mm256_loadu_ps(c + (size_t)r * ldc + 8);
#define FMA2(r)                                                                                                    \
  if (rows > r) {                                                                                                 \
    const __m256 x = _mm256_broadcast_ss(a + (size_t)r * lda + p);                                              \
    c##r##0 = _mm256_fmadd_ps(x, w0, c##r##0);                                                                   \
    c##r##1 = _mm256_fmadd_ps(x, w1, c##r##1);                                                                   \
  }
#define STORE2(r)                                                                                                  \
  if (rows > r) _mm256_storeu_ps(c + (size_t)r * ldc, c##r##0), _mm256_storeu_ps(c + (size_t)r * ldc + 8, c##r##1);

static inline AVX2 void tile256(int rows, const float *a, int lda, int k, const uint16_t *w, float *c, int ldc) {
  LOAD2(0) LOAD2(1) LOAD2(2) LOAD2(3) LOAD2(4) LOAD2(5)
  for (int p = 0; p < k; p++) {
    const __m256 w0 = _mm256_cvtph_ps(_mm_loadu_si128((const __m128i *)(w + (size_t)p * 16)));
    const __m256 w1 = _mm256_cvtph_ps(_mm_loadu_si128((const __m128i *)(w + (size_t)p * 16 + 8)));
    FMA2(0) FMA2(1) FMA2(2) FMA2(3) FMA2(4) FMA2(5)
  }
  STORE2(0) STORE2(1) STORE2(2) STORE2(3) STORE2(4) STORE2(5)
}

// Constant row counts let the compiler keep the accumulators in registers: one `switch` per tile.
#define ROWS_SWITCH(TILE, ...)                                                                                     \
  switch (m - r < 6 ? m - r : 6) {                                                                                \
    case 6: TILE(6, __VA_ARGS__); break;                                                                          \
    case 5: TILE(5, __VA_ARGS__); break;                                                                          \
    case 4: TILE(4, __VA_ARGS__); break;                                                                          \
    case 3: TILE(3, __VA_ARGS__); break;                                                                          \
    case 2: TILE(2, __VA_ARGS__); break;                                                                          \
    default: TILE(1, __VA_ARGS__); break;                                                                         \
  }

// n must be a multiple of 64 (the model's are 512, 768 and 1536), the wider block.
AVX512 void dense_f32_avx512(int m, int n, int k, const float *a, const float *packed, float *c) {
  for (int j = 0; j < n / 64; j++) {
    const float *w = packed + (size_t)j * k * 64;
    for (int r = 0; r < m; r += 6) ROWS_SWITCH(tile512, a + (size_t)r * k, k, k, w, c + (size_t)r * n + j * 64, n)
  }
}

AVX2 void dense_f16_avx2(int m, int n, int k, const float *a, const uint16_t *packed, float *c) {
  for (int j = 0; j < n / 16; j++) {
    const uint16_t *w = packed + (size_t)j * k * 16;
    for (int r = 0; r < m; r += 6) ROWS_SWITCH(tile256, a + (size_t)r * k, k, k, w, c + (size_t)r * n + j * 16, n)
  }
}
