// gemm (gemm.h): small products as in-order FMA chains (compiled for the
// host's vector unit by GCC's target clones; std::fma is exact whatever
// the clone, so every clone computes the same bits); larger float32 ones
// the same chains in packed AVX-512 tiles (gemm_packed.cpp), the rest
// OpenBLAS.
#include "runtime/kernels/gemm.h"

#include "runtime/kernels/gemm_packed.h"

// GCC 12's -O2 "very cheap" vectorizer cost model refuses loops needing a
// remainder loop (see kernel_util.h).
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC optimize("vect-cost-model=dynamic")
#endif

#include <cblas.h>

#include <cmath>
#include <vector>

// Note [OpenBLAS core type]
// Debian's OpenBLAS (0.3.21, DYNAMIC_ARCH) picks its kernels by the CPU's
// family and model number; a CPU newer than the library (Emerald Rapids,
// model 207, on the development machines) gets the SSE3 "Prescott" kernels.
// tfs keeps the kernels OpenBLAS chose (OPENBLAS_CORETYPE is the user's and
// the CI's setting, not tfs's): `tfs --version` names them, so a benchmark
// or a last-bit difference from numpy can be read against them. tf's
// float32 products on AVX-512 hosts do not go through OpenBLAS at all
// (Note [Packed GEMM] in gemm_packed.cpp); numpy's and float64 ones do.
extern "C" {
char *openblas_get_corename(void) __attribute__((weak));
}

namespace tfs::runtime::kernels {

namespace {

// Columns [j, j + W) of row i of c: W accumulators (registers: the
// compiler vectorizes the constant-width loops) take x * b[p][j..] for p in
// order from 0, as exact fused multiply-adds.
template <int W, class T>
inline __attribute__((always_inline)) void gemmBlock(int64_t i, int64_t j, int64_t k, const T *a,
                                                     int64_t as, int64_t ap, const T *b,
                                                     int64_t ldb, T *c, int64_t ldc) {
  T acc[W] = {};
  for (int64_t p = 0; p < k; ++p) {
    T x = a[i * as + p * ap];
    const T *brow = b + p * ldb + j;
    for (int l = 0; l < W; ++l)
      acc[l] = std::fma(x, brow[l], acc[l]);
  }
  for (int l = 0; l < W; ++l)
    c[i * ldc + j + l] = acc[l];
}

// The loop body, inlined into one target-cloned function per element type
// (clang 14 clones no templates): each row of c in column blocks of 64
// bytes, then narrower ones. A transposed b is first copied into row-major
// order, so its elements take the same chain.
template <class T>
inline __attribute__((always_inline)) void smallGemmBody(bool ta, bool tb, int64_t m, int64_t n,
                                                         int64_t k, const T *a, int64_t lda,
                                                         const T *b, int64_t ldb, T *c, int64_t ldc) {
  if (tb) {
    thread_local std::vector<T> scratch;
    scratch.resize(size_t(k * n));
    for (int64_t j = 0; j < n; ++j)
      for (int64_t p = 0; p < k; ++p)
        scratch[size_t(p * n + j)] = b[j * ldb + p];
    b = scratch.data();
    ldb = n;
  }
  // Element (i, p) of op(a) is a[i * as + p * ap].
  int64_t as = ta ? 1 : lda, ap = ta ? lda : 1;
  constexpr int W = 64 / sizeof(T);
  for (int64_t i = 0; i < m; ++i) {
    int64_t j = 0;
    for (; j + W <= n; j += W)
      gemmBlock<W>(i, j, k, a, as, ap, b, ldb, c, ldc);
    if (j + W / 2 <= n) {
      gemmBlock<W / 2>(i, j, k, a, as, ap, b, ldb, c, ldc);
      j += W / 2;
    }
    if (j + W / 4 <= n) {
      gemmBlock<W / 4>(i, j, k, a, as, ap, b, ldb, c, ldc);
      j += W / 4;
    }
    for (; j < n; ++j)
      gemmBlock<1>(i, j, k, a, as, ap, b, ldb, c, ldc);
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

const char *blasCoreName() {
  const char *core = openblas_get_corename ? openblas_get_corename() : nullptr;
  return core ? core : "unknown";
}

void gemm(bool ta, bool tb, int64_t m, int64_t n, int64_t k, const float *a, int64_t lda,
          const float *b, int64_t ldb, float *c, int64_t ldc) {
  if (m * n * k <= kSmallGemm)
    return smallGemm(ta, tb, m, n, k, a, lda, b, ldb, c, ldc);
  if (packedGemmAvailable())
    return packedGemm(ta, tb, m, n, k, a, lda, b, ldb, c, ldc);
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
