// matmul (with transpose_a/transpose_b and broadcast batch dims): float32
// and float64 through gemm.h (small products in-order FMA chains, larger
// ones OpenBLAS's cblas_?gemm), integers with a plain loop.
#include "runtime/kernels/kernel_util.h"

#include "runtime/kernels/gemm.h"

namespace tfs::runtime::kernels {

namespace {

// Integer products: a plain loop (floats go through gemm.h).
template <class T>
void integerGemm(bool ta, bool tb, int64_t m, int64_t n, int64_t k, const T *a, const T *b, T *c) {
  int64_t lda = ta ? m : k, ldb = tb ? k : n;
  for (int64_t i = 0; i < m; ++i)
    for (int64_t j = 0; j < n; ++j) {
      T s = 0;
      for (int64_t p = 0; p < k; ++p)
        s += (ta ? a[p * lda + i] : a[i * lda + p]) * (tb ? b[j * ldb + p] : b[p * ldb + j]);
      c[i * n + j] = s;
    }
}

template <class T>
void matrixProduct(bool ta, bool tb, int64_t m, int64_t n, int64_t k, const T *a, const T *b, T *c) {
  if constexpr (std::is_floating_point_v<T>)
    gemm(ta, tb, m, n, k, a, ta ? m : k, b, tb ? k : n, c, n);
  else
    integerGemm(ta, tb, m, n, k, a, b, c);
}

std::vector<Tensor> matmul(std::span<const Tensor> in, const ir::Attrs &attrs) {
  std::vector<Tensor> out = allocateOutputs(OpKind::MatMul, in, attrs);
  const Tensor &a = in[0], &b = in[1];
  Tensor &c = out[0];
  bool ta = ir::attrBool(attrs, "transpose_a", false), tb = ir::attrBool(attrs, "transpose_b", false);
  size_t ra = a.rank(), rb = b.rank(), rc = c.rank();
  int64_t m = c.shape()[rc - 2], n = c.shape()[rc - 1];
  int64_t k = a.shape()[ra - (ta ? 2 : 1)];
  std::vector<int64_t> batchC(c.shape().begin(), c.shape().end() - 2);
  std::vector<int64_t> batchA(a.shape().begin(), a.shape().end() - 2);
  std::vector<int64_t> batchB(b.shape().begin(), b.shape().end() - 2);
  int64_t matA = a.shape()[ra - 2] * a.shape()[ra - 1], matB = b.shape()[rb - 2] * b.shape()[rb - 1];
  dispatchNumeric(a.dtype(), [&]<class T>() {
    if constexpr (!std::is_same_v<T, bool>) {
      if (m * n == 0) return;
      if (k == 0) {
        std::fill(c.data<T>(), c.data<T>() + c.numElements(), T(0));
        return;
      }
      forEachBroadcast<2>(batchC, {&batchA, &batchB}, [&](int64_t i, const std::array<int64_t, 2> &o) {
        matrixProduct<T>(ta, tb, m, n, k, a.data<T>() + o[0] * matA, b.data<T>() + o[1] * matB,
                         c.data<T>() + i * m * n);
      });
    }
  });
  return out;
}

}  // namespace

void registerLinalg(KernelTable &t) { t[size_t(OpKind::MatMul)] = matmul; }

}  // namespace tfs::runtime::kernels
