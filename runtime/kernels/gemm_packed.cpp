// The float32 matrix product of gemm.h for products too large for the
// simple loops, on AVX-512 hosts: Note [Packed GEMM].
#include "runtime/kernels/gemm_packed.h"

#include <immintrin.h>

#include <algorithm>
#include <vector>

namespace tfs::runtime::kernels {

// Note [Packed GEMM]
// Every element of c is summed as OpenBLAS and Eigen (TF's CPU matmul)
// structure it, in blocks of kKc = 256 values of p: within a block an
// exact fused multiply-add chain in order from +0 (acc = fma(a[i][p],
// b[p][j], acc), as gemm.cpp's small products and the JIT's inline loops
// compute every element), then c = block 0's sum, c += block 1's sum, ...
// So a product with k <= 256 equals the small-product chain bit for bit,
// and a long k is not one rounding chain of k steps: against float64, a
// 32x5408 @ 5408x128 product of normal values has mean error 1.8e-5 with
// these blocks (OpenBLAS 1.4e-5), 6.7e-5 as a single chain. 8 rows x 32
// columns of c are kept in 16 AVX-512 registers while p runs over a block.
// The result depends neither on the host nor on which OpenBLAS kernels its
// CPU model selects (Note [OpenBLAS core type] in gemm.cpp: on the
// development machines its SSE3 fallback, ~22 GFLOP/s against ~70 here).
//
// The tiles read a and b where they are (a block of kKc x kNc of b stays in
// L2 while every 8 rows of a pass over it; masked loads and stores at the
// right edge, tiles of fewer rows at the bottom), except a transposed b,
// which is first copied per block as panels of 32 columns, 32 consecutive
// floats per p (GotoBLAS's packing), so that a tile loads whole vectors.

namespace {

constexpr int64_t kMr = 8;     // rows of c per micro-tile
constexpr int64_t kNr = 32;    // columns of c per micro-tile (2 vectors)
constexpr int64_t kKc = 256;   // p values per block
constexpr int64_t kNc = 1024;  // columns per block of b (256 x 1024: 1 MiB, L2)

// op(b)[p0 + p][j0 + jj] for p < kc, jj < nc of a transposed b (b[j][p]),
// as panels of kNr columns, p-major (zeros past nc).
void packTransposedB(const float *b, int64_t ldb, int64_t p0, int64_t kc, int64_t j0, int64_t nc,
                     float *out) {
  for (int64_t jp = 0; jp < nc; jp += kNr) {
    int64_t w = std::min(kNr, nc - jp);
    float *panel = out + jp * kc;
    for (int64_t jj = 0; jj < w; ++jj) {
      const float *src = b + (j0 + jp + jj) * ldb + p0;
      for (int64_t p = 0; p < kc; ++p) panel[p * kNr + jj] = src[p];
    }
    for (int64_t jj = w; jj < kNr; ++jj)
      for (int64_t p = 0; p < kc; ++p) panel[p * kNr + jj] = 0.0f;
  }
}

// Rows [0, Mr) x columns [0, nr) of c (row stride ldc) continue their
// chains over kc values of p: op(a)[r][p] is a[r * lda + p] (TA: a[p * lda
// + r]), op(b)[p][j] is b[p * ldb + j]; `first`: c is overwritten, else
// the block's sums are added to it.
template <int Mr, bool TA>
__attribute__((target("avx512f,fma"))) void microTile(const float *a, int64_t lda, const float *b,
                                                      int64_t ldb, int64_t kc, float *c, int64_t ldc,
                                                      int64_t nr, bool first) {
  __m512 acc[Mr][2];
  __mmask16 lo = __mmask16(nr >= 16 ? 0xffff : (1u << nr) - 1);
  __mmask16 hi = __mmask16(nr >= 32 ? 0xffff : nr <= 16 ? 0 : (1u << (nr - 16)) - 1);
#pragma GCC unroll 8
  for (int r = 0; r < Mr; ++r) {
    acc[r][0] = _mm512_setzero_ps();
    acc[r][1] = _mm512_setzero_ps();
  }
  const float *rows[Mr];
#pragma GCC unroll 8
  for (int r = 0; r < Mr; ++r) rows[r] = TA ? a + r : a + r * lda;
  for (int64_t p = 0; p < kc; ++p) {
    __m512 b0 = _mm512_maskz_loadu_ps(lo, b + p * ldb);
    __m512 b1 = _mm512_maskz_loadu_ps(hi, b + p * ldb + 16);
#pragma GCC unroll 8
    for (int r = 0; r < Mr; ++r) {
      __m512 x = _mm512_set1_ps(TA ? a[p * lda + r] : rows[r][p]);
      acc[r][0] = _mm512_fmadd_ps(x, b0, acc[r][0]);
      acc[r][1] = _mm512_fmadd_ps(x, b1, acc[r][1]);
    }
  }
#pragma GCC unroll 8
  for (int r = 0; r < Mr; ++r) {
    if (!first) {
      acc[r][0] = _mm512_add_ps(_mm512_maskz_loadu_ps(lo, c + r * ldc), acc[r][0]);
      acc[r][1] = _mm512_add_ps(_mm512_maskz_loadu_ps(hi, c + r * ldc + 16), acc[r][1]);
    }
    _mm512_mask_storeu_ps(c + r * ldc, lo, acc[r][0]);
    _mm512_mask_storeu_ps(c + r * ldc + 16, hi, acc[r][1]);
  }
}

using TileFn = void (*)(const float *, int64_t, const float *, int64_t, int64_t, float *, int64_t,
                        int64_t, bool);

template <bool TA>
constexpr TileFn kTiles[kMr + 1] = {nullptr,           microTile<1, TA>, microTile<2, TA>,
                                    microTile<3, TA>, microTile<4, TA>, microTile<5, TA>,
                                    microTile<6, TA>, microTile<7, TA>, microTile<8, TA>};

// 64-byte aligned scratch that keeps its memory between calls.
float *scratch(std::vector<float> &v, int64_t n) {
  v.resize(size_t(n + 16));
  auto addr = reinterpret_cast<uintptr_t>(v.data());
  return v.data() + ((64 - addr % 64) % 64) / sizeof(float);
}

}  // namespace

bool packedGemmAvailable() {
  static const bool ok = __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("fma");
  return ok;
}

void packedGemm(bool ta, bool tb, int64_t m, int64_t n, int64_t k, const float *a, int64_t lda,
                const float *b, int64_t ldb, float *c, int64_t ldc, bool accumulate) {
  if (k == 0) {
    if (accumulate) return;
    for (int64_t i = 0; i < m; ++i)
      for (int64_t j = 0; j < n; ++j) c[i * ldc + j] = 0.0f;
    return;
  }
  const TileFn *tiles = ta ? kTiles<true> : kTiles<false>;
  thread_local std::vector<float> bStore;
  float *bp = tb ? scratch(bStore, std::min(kKc, k) * std::min(kNc, (n + kNr - 1) / kNr * kNr))
                 : nullptr;
  for (int64_t p0 = 0; p0 < k; p0 += kKc) {
    int64_t kc = std::min(kKc, k - p0);
    for (int64_t j0 = 0; j0 < n; j0 += kNc) {
      int64_t nc = std::min(kNc, n - j0);
      if (tb) packTransposedB(b, ldb, p0, kc, j0, nc, bp);
      for (int64_t i0 = 0; i0 < m; i0 += kMr) {
        TileFn tile = tiles[std::min(kMr, m - i0)];
        const float *ablock = ta ? a + p0 * lda + i0 : a + i0 * lda + p0;
        for (int64_t jp = 0; jp < nc; jp += kNr) {
          const float *bpanel = tb ? bp + jp * kc : b + p0 * ldb + j0 + jp;
          tile(ablock, lda, bpanel, tb ? kNr : ldb, kc, c + i0 * ldc + j0 + jp, ldc,
               std::min(kNr, nc - jp), p0 == 0 && !accumulate);
        }
      }
    }
  }
}

}  // namespace tfs::runtime::kernels
