// gemm (gemm.h): small products as in-order FMA chains (compiled for the
// host's vector unit by GCC's target clones; std::fma is exact whatever
// the clone, so every clone computes the same bits); larger float32 ones
// oneDNN (Note [float32 GEMM]), float64 ones OpenBLAS.
#include "runtime/kernels/gemm.h"

// GCC 12's -O2 "very cheap" vectorizer cost model refuses loops needing a
// remainder loop (see kernel_util.h).
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC optimize("vect-cost-model=dynamic")
#endif

#include <cblas.h>
#include <oneapi/dnnl/dnnl.h>
#include <omp.h>

#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

// Note [OpenBLAS core type]
// Debian's OpenBLAS (0.3.21, DYNAMIC_ARCH) picks its kernels by the CPU's
// family and model number; a CPU newer than the library (Emerald Rapids,
// model 207, on the development machines) gets the SSE3 "Prescott" kernels.
// tfs keeps the kernels OpenBLAS chose (OPENBLAS_CORETYPE is the user's and
// the CI's setting, not tfs's): `tfs --version` names them, so a benchmark
// or a last-bit difference from numpy can be read against them. tf's
// float32 products do not go through OpenBLAS at all (Note [float32 GEMM]);
// numpy's and float64 ones do.
extern "C" {
char *openblas_get_corename(void) __attribute__((weak));
}

// Note [float32 GEMM]
// float32 products past the small-product size go to oneDNN's sgemm (Debian's libdnnl-dev), the library
// TensorFlow 2.15 itself runs MatMul and Conv2D through on x86. oneDNN generates its kernels at run time for
// the CPU it finds (AVX-512, AVX2, SSE4.1), so one binary runs every machine at its vector width.
// Chosen by measurement (session 18, one thread, CPU-time medians, the two binaries alternated in the same
// minutes): oneDNN against a hand-written AVX-512 packed kernel (8x32 register tiles) and OpenBLAS, whose
// DYNAMIC_ARCH picks its SSE3 "Prescott" kernels on the development CPU (model 207):
//   32x784 @ 784x512 (a Keras Dense step)  oneDNN 0.21-0.25 ms  packed 0.45 ms  OpenBLAS 1.0-4.1 ms
//   784x32 @ 32x512                        0.23-0.26            0.30-0.43       1.5-2.5
//   21632x9 @ 9x32 (conv im2col)           0.19-0.23            0.20            0.75
//   1024^3                                 19.4-19.6            21-30           96-236
// Eigen built with -march=native came close (0.34 ms, 50 ms) but would tie the binary to the build machine.
// oneDNN runs on one thread here: its OpenMP team is sized per calling thread, and a product whose
// reduction were split across threads would change its last bits with the machine's core count.
// float64 stays on OpenBLAS (oneDNN has no dgemm), as does numpy's matmul (lib/numpy), which must match
// numpy's own OpenBLAS bit for bit.

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

std::string floatGemmName() {
  const dnnl_version_t *v = dnnl_version();
  const char *isa = "sse41";
  switch (dnnl_get_effective_cpu_isa()) {
    case dnnl_cpu_isa_avx: isa = "avx"; break;
    case dnnl_cpu_isa_avx2: isa = "avx2"; break;
    case dnnl_cpu_isa_avx2_vnni: isa = "avx2_vnni"; break;
    case dnnl_cpu_isa_avx512_core: isa = "avx512_core"; break;
    case dnnl_cpu_isa_avx512_core_vnni: isa = "avx512_core_vnni"; break;
    case dnnl_cpu_isa_avx512_core_bf16: isa = "avx512_core_bf16"; break;
    case dnnl_cpu_isa_avx512_core_amx: isa = "avx512_core_amx"; break;
    default: break;
  }
  return "oneDNN " + std::to_string(v->major) + "." + std::to_string(v->minor) + "." + std::to_string(v->patch) +
         " (" + isa + ")";
}

const char *blasCoreName() {
  const char *core = openblas_get_corename ? openblas_get_corename() : nullptr;
  return core ? core : "unknown";
}

void sgemmRowMajor(bool ta, bool tb, int64_t m, int64_t n, int64_t k, const float *a, int64_t lda,
                   const float *b, int64_t ldb, float beta, float *c, int64_t ldc) {
  if (m == 0 || n == 0) return;
  thread_local bool oneThread = (omp_set_num_threads(1), true);
  (void)oneThread;
  if (dnnl_sgemm(ta ? 'T' : 'N', tb ? 'T' : 'N', m, n, k, 1.0f, a, lda, b, ldb, beta, c, ldc) != dnnl_success)
    throw std::runtime_error("oneDNN sgemm failed");
}

void gemm(bool ta, bool tb, int64_t m, int64_t n, int64_t k, const float *a, int64_t lda,
          const float *b, int64_t ldb, float *c, int64_t ldc) {
  if (m * n * k <= kSmallGemm)
    return smallGemm(ta, tb, m, n, k, a, lda, b, ldb, c, ldc);
  sgemmRowMajor(ta, tb, m, n, k, a, lda, b, ldb, 0.0f, c, ldc);
}

void gemm(bool ta, bool tb, int64_t m, int64_t n, int64_t k, const double *a, int64_t lda,
          const double *b, int64_t ldb, double *c, int64_t ldc) {
  if (m * n * k <= kSmallGemm)
    return smallGemm(ta, tb, m, n, k, a, lda, b, ldb, c, ldc);
  cblas_dgemm(CblasRowMajor, ta ? CblasTrans : CblasNoTrans, tb ? CblasTrans : CblasNoTrans,
              int(m), int(n), int(k), 1.0, a, int(lda), b, int(ldb), 0.0, c, int(ldc));
}

}  // namespace tfs::runtime::kernels
