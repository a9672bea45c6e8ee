// gemm.h's float32 product for large operands on AVX-512 hosts: packed
// operands and an 8x32 register tile, every element the same in-order FMA
// chain as gemm.cpp's small products (Note [Packed GEMM] in gemm_packed.cpp).
#pragma once

#include <cstdint>

namespace tfs::runtime::kernels {

// Whether the host has AVX-512F and FMA (packedGemm runs only there).
bool packedGemmAvailable();

// c = op(a) @ op(b), row-major with leading dimensions, as gemm().
// `accumulate`: c holds chains to continue (c's values are the starting
// accumulators instead of +0), so a product over k split into parts
// computes the same bits as over the whole k at once.
void packedGemm(bool ta, bool tb, int64_t m, int64_t n, int64_t k, const float *a, int64_t lda,
                const float *b, int64_t ldb, float *c, int64_t ldc, bool accumulate = false);

}  // namespace tfs::runtime::kernels
