// gemm.h's float32 product for large operands on AVX-512 hosts: an 8x32
// register tile, every element in-order FMA chains over blocks of 256
// values of k added up (Note [Packed GEMM] in gemm_packed.cpp).
#pragma once

#include <cstdint>

namespace tfs::runtime::kernels {

// Whether the host has AVX-512F and FMA (packedGemm runs only there).
bool packedGemmAvailable();

// c = op(a) @ op(b), row-major with leading dimensions, as gemm().
// `accumulate`: the product is added to c (c += op(a) @ op(b)), block by
// block, as for the blocks of one product.
void packedGemm(bool ta, bool tb, int64_t m, int64_t n, int64_t k, const float *a, int64_t lda,
                const float *b, int64_t ldb, float *c, int64_t ldc, bool accumulate = false);

}  // namespace tfs::runtime::kernels
