// gemm (gemm.h): small products as in-order FMA chains (compiled for the
// host's vector unit by GCC's target clones; std::fma is exact whatever
// the clone, so every clone computes the same bits), larger ones OpenBLAS.
#include "runtime/kernels/gemm.h"

#include <cblas.h>

#include <cmath>

namespace tfs::runtime::kernels {

namespace {

// The loop body, inlined into one target-cloned function per element type
// (clang 14 clones no templates).
template <class T>
inline __attribute__((always_inline)) void smallGemmBody(bool ta, bool tb, int64_t m, int64_t n, int64_t k, const T *a, int64_t lda, const T *b,
          int64_t ldb, T *c, int64_t ldc) {
  for (int64_t i = 0; i < m; ++i) {
    T *row = c + i * ldc;
    for (int64_t j = 0; j < n; ++j)
      row[j] = T(0);
    for (int64_t p = 0; p < k; ++p) {
      T x = ta ? a[p * lda + i] : a[i * lda + p];
      if (!tb) {
        const T *brow = b + p * ldb;
        for (int64_t j = 0; j < n; ++j)
          row[j] = std::fma(x, brow[j], row[j]);
      } else {
        for (int64_t j = 0; j < n; ++j)
          row[j] = std::fma(x, b[j * ldb + p], row[j]);
      }
    }
  }
}

#define TFS_GEMM_CLONES __attribute__((target_clones("arch=x86-64-v4", "arch=x86-64-v3", "default")))

TFS_GEMM_CLONES void smallGemm(bool ta, bool tb, int64_t m, int64_t n, int64_t k, const float *a,
                               int64_t lda, const float *b, int64_t ldb, float *c, int64_t ldc) {
  smallGemmBody(ta, tb, m, n, k, a, lda, b, ldb, c, ldc);
}

TFS_GEMM_CLONES void smallGemm(bool ta, bool tb, int64_t m, int64_t n, int64_t k, const double *a,
                               int64_t lda, const double *b, int64_t ldb, double *c, int64_t ldc) {
  smallGemmBody(ta, tb, m, n, k, a, lda, b, ldb, c, ldc);
}

#undef TFS_GEMM_CLONES

}  // namespace

void gemm(bool ta, bool tb, int64_t m, int64_t n, int64_t k, const float *a, int64_t lda,
          const float *b, int64_t ldb, float *c, int64_t ldc) {
  if (m * n * k <= kSmallGemm)
    return smallGemm(ta, tb, m, n, k, a, lda, b, ldb, c, ldc);
  cblas_sgemm(CblasRowMajor, ta ? CblasTrans : CblasNoTrans, tb ? CblasTrans : CblasNoTrans,
              int(m), int(n), int(k), 1.0f, a, int(lda), b, int(ldb), 0.0f, c, int(ldc));
}

void gemm(bool ta, bool tb, int64_t m, int64_t n, int64_t k, const double *a, int64_t lda,
          const double *b, int64_t ldb, double *c, int64_t ldc) {
  if (m * n * k <= kSmallGemm)
    return smallGemm(ta, tb, m, n, k, a, lda, b, ldb, c, ldc);
  cblas_dgemm(CblasRowMajor, ta ? CblasTrans : CblasNoTrans, tb ? CblasTrans : CblasNoTrans,
              int(m), int(n), int(k), 1.0, a, int(lda), b, int(ldb), 0.0, c, int(ldc));
}

}  // namespace tfs::runtime::kernels
