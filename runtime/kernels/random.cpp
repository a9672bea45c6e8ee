// Random kernels: counter-based Philox-4x32-10 (the generator TF uses),
// keyed by the (seed, seed2) attribute pair and the call `counter` (a
// stateful op's run count), so a given seed pair and count always produce
// the same numbers. Normal samples use Box-Muller. Exact TF values
// are not reproduced (TF's stream layout differs); determinism is.
#include "runtime/kernels/kernel_util.h"
#include "runtime/kernels/philox.h"

#include <cmath>

namespace tfs::runtime::kernels {

namespace {

template <OpKind K> std::vector<Tensor> randomKernel(std::span<const Tensor> in, const ir::Attrs &attrs) {
  std::vector<Tensor> out = allocateOutputs(K, in, attrs);
  Tensor &o = out[0];
  Philox gen = philoxFor(attrs);
  int64_t n = o.numElements();
  std::vector<double> values(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; i += 4) {
    auto r = gen.next();
    for (int64_t k = 0; k < 4 && i + k < n; k += 2) {
      double u1 = uniform01(r[size_t(k)]), u2 = uniform01(r[size_t(k) + 1]);
      if (K == OpKind::RandomNormal) {
        double rad = std::sqrt(-2.0 * std::log(u1)), th = 2 * M_PI * u2;
        values[size_t(i + k)] = rad * std::cos(th);
        if (i + k + 1 < n) values[size_t(i + k + 1)] = rad * std::sin(th);
      } else {
        values[size_t(i + k)] = u1;
        if (i + k + 1 < n) values[size_t(i + k + 1)] = u2;
      }
    }
  }
  double a, b;
  if (K == OpKind::RandomNormal) {
    a = ir::attrFloat(attrs, "mean", 0.0);
    b = ir::attrFloat(attrs, "stddev", 1.0);
  } else {
    a = ir::attrFloat(attrs, "minval", 0.0);
    b = ir::attrFloat(attrs, "maxval", 1.0);
  }
  dispatchNumeric(o.dtype(), [&]<class T>() {
    T *q = o.data<T>();
    for (int64_t i = 0; i < n; ++i) {
      double v = K == OpKind::RandomNormal ? a + b * values[size_t(i)] : a + (b - a) * values[size_t(i)];
      if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool>) q[i] = T(std::floor(v));
      else q[i] = T(v);
    }
  });
  return out;
}

}  // namespace

void registerRandom(KernelTable &t) {
  t[size_t(OpKind::RandomNormal)] = randomKernel<OpKind::RandomNormal>;
  t[size_t(OpKind::RandomUniform)] = randomKernel<OpKind::RandomUniform>;
}

}  // namespace tfs::runtime::kernels
