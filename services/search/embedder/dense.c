// Products with USE-lite's fixed weights on AVX-512: c (m × n) += a (m × k) · W (k × n), W packed
// once as n/64 column blocks of k × 64 floats. For the model's few-row inputs (a query is ~17
// tokens) this runs ~2.7× faster than OpenBLAS's sgemm, which repacks W on every call. Built by
// scripts/bootstrap.mjs (and the search image) when the CPU has AVX-512; loaded by dense.ts.
#include <immintrin.h>
#include <stddef.h>

// Up to 6 rows × 64 columns of c held in 24 registers while k runs.
static inline void tile(int rows, const float *a, int lda, int k, const float *w, float *c, int ldc) {
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

// n must be a multiple of 64 (the model's are 512, 768 and 1536).
void dense_f32(int m, int n, int k, const float *a, const float *packed, float *c) {
  for (int j = 0; j < n / 64; j++) {
    const float *w = packed + (size_t)j * k * 64;
    for (int r = 0; r < m; r += 6) {
      const float *ar = a + (size_t)r * k;
      float *cr = c + (size_t)r * n + j * 64;
      // Constant row counts let the compiler keep the accumulators in registers.
      switch (m - r < 6 ? m - r : 6) {
        case 6: tile(6, ar, k, k, w, cr, n); break;
        case 5: tile(5, ar, k, k, w, cr, n); break;
        case 4: tile(4, ar, k, k, w, cr, n); break;
        case 3: tile(3, ar, k, k, w, cr, n); break;
        case 2: tile(2, ar, k, k, w, cr, n); break;
        default: tile(1, ar, k, k, w, cr, n); break;
      }
    }
  }
}
