// Row-major GEMM for the float kernels that reduce to it (convolutions via
// im2col): C = op(A) * op(B) + beta * C, float32 through oneDNN (Note
// [float32 GEMM] in gemm.cpp), float64 through OpenBLAS.
// Private to runtime/kernels/.
#pragma once

#include "runtime/kernels/gemm.h"

#include <cblas.h>
#include <cstdint>
#include <type_traits>

namespace tfs::runtime::kernels {

template <class T>
void gemmRowMajor(bool transA, bool transB, int64_t m, int64_t n, int64_t k, const T *a, int64_t lda,
                  const T *b, int64_t ldb, T beta, T *c, int64_t ldc) {
  static_assert(std::is_floating_point_v<T>);
  auto ta = transA ? CblasTrans : CblasNoTrans, tb = transB ? CblasTrans : CblasNoTrans;
  if (m == 0 || n == 0) return;
  if constexpr (std::is_same_v<T, float>)
    sgemmRowMajor(transA, transB, m, n, k, a, lda, b, ldb, beta, c, ldc);
  else
    cblas_dgemm(CblasRowMajor, ta, tb, int(m), int(n), int(k), 1.0, a, int(lda), b, int(ldb), beta, c, int(ldc));
}

}  // namespace tfs::runtime::kernels
