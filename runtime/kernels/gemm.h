// The matrix product of the matmul kernel, shared with compiled code (so
// both compute the same bits): c = op(a) @ op(b), op transposing when asked,
// row-major with leading dimensions (elements per row of the stored matrix).
//
// Small products (m * n * k <= kSmallGemm) are computed here, each element
// as an exact fused multiply-add chain over k in order (no dependence on
// the host's vector width: the JIT's inline loops compute the same chain);
// larger ones call oneDNN (float32; Note [float32 GEMM] in gemm.cpp) or
// OpenBLAS (float64), whose call overhead (~150 ns) dominates small products
// such as an LSTM cell's 10x10 @ 10x40.
#pragma once

#include <cstdint>
#include <string>

namespace tfs::runtime::kernels {

inline constexpr int64_t kSmallGemm = 32768;

// The name of the OpenBLAS kernels in use ("SkylakeX"; Note [OpenBLAS core
// type] in gemm.cpp), "unknown" without OpenBLAS's DYNAMIC_ARCH.
const char *blasCoreName();
// The library and kernels of float32 products past the small size ("oneDNN 2.6.3 (avx512_core)").
std::string floatGemmName();

void gemm(bool ta, bool tb, int64_t m, int64_t n, int64_t k, const float *a, int64_t lda,
          const float *b, int64_t ldb, float *c, int64_t ldc);
// c = op(a) @ op(b) + beta * c through oneDNN, whatever the size.
void sgemmRowMajor(bool ta, bool tb, int64_t m, int64_t n, int64_t k, const float *a, int64_t lda,
                   const float *b, int64_t ldb, float beta, float *c, int64_t ldc);
void gemm(bool ta, bool tb, int64_t m, int64_t n, int64_t k, const double *a, int64_t lda,
          const double *b, int64_t ldb, double *c, int64_t ldc);

}  // namespace tfs::runtime::kernels
