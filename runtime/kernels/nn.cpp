// Neural-network kernels: softmax / log_softmax over the last axis and the
// cross-entropy losses (labels, logits) -> per-example loss, computed in
// double precision. Convolutions are in conv.cpp, pooling in pooling.cpp.
#include "runtime/kernels/kernel_util.h"

#include <cmath>

namespace tfs::runtime::kernels {

namespace {

// softmax / log_softmax along attr axis (default -1).
template <OpKind K> std::vector<Tensor> softmaxKernel(std::span<const Tensor> in, const ir::Attrs &attrs) {
  std::vector<Tensor> out = allocateOutputs(K, in, attrs);
  const Tensor &x = in[0];
  int64_t r = int64_t(x.rank()), axis = ir::attrInt(attrs, "axis", -1);
  if (axis < 0) axis += r;
  int64_t outer = 1, len = x.shape()[size_t(axis)], inner = 1;
  for (int64_t d = 0; d < axis; ++d) outer *= x.shape()[size_t(d)];
  for (int64_t d = axis + 1; d < r; ++d) inner *= x.shape()[size_t(d)];
  dispatchNumeric(x.dtype(), [&]<class T>() {
    if constexpr (std::is_floating_point_v<T>) {
      const T *p = x.data<T>();
      T *q = out[0].data<T>();
      for (int64_t a = 0; a < outer; ++a)
        for (int64_t b = 0; b < inner; ++b) {
          auto at = [&](int64_t j) { return (a * len + j) * inner + b; };
          double mx = -INFINITY, sum = 0;
          for (int64_t j = 0; j < len; ++j) mx = std::max(mx, double(p[at(j)]));
          for (int64_t j = 0; j < len; ++j) sum += std::exp(double(p[at(j)]) - mx);
          for (int64_t j = 0; j < len; ++j) {
            double z = double(p[at(j)]) - mx;
            q[at(j)] = K == OpKind::Softmax ? T(std::exp(z) / sum) : T(z - std::log(sum));
          }
        }
    }
  });
  return out;
}

template <OpKind K> std::vector<Tensor> xentKernel(std::span<const Tensor> in, const ir::Attrs &attrs) {
  std::vector<Tensor> out = allocateOutputs(K, in, attrs);
  const Tensor &labels = in[0], &logits = in[1];
  Tensor &o = out[0];
  dispatchNumeric(logits.dtype(), [&]<class T>() {
    if constexpr (std::is_floating_point_v<T>) {
      const T *z = logits.data<T>();
      T *q = o.data<T>();
      if constexpr (K == OpKind::SigmoidCrossEntropy) {
        // max(x, 0) - x * z + log(1 + exp(-|x|)), with broadcasting.
        const T *lab = labels.data<T>();
        forEachBroadcast<2>(o.shape(), {&labels.shape(), &logits.shape()},
                            [&](int64_t i, const std::array<int64_t, 2> &off) {
                              double x = z[off[1]], l = lab[off[0]];
                              q[i] = T(std::max(x, 0.0) - x * l + std::log1p(std::exp(-std::abs(x))));
                            });
        return;
      }
      int64_t classes = logits.shape().back();
      int64_t rows = classes ? logits.numElements() / classes : 0;
      for (int64_t r = 0; r < rows; ++r) {
        const T *row = z + r * classes;
        double mx = -INFINITY, sum = 0;
        for (int64_t j = 0; j < classes; ++j) mx = std::max(mx, double(row[j]));
        for (int64_t j = 0; j < classes; ++j) sum += std::exp(double(row[j]) - mx);
        double lse = mx + std::log(sum), loss = 0;
        if constexpr (K == OpKind::SparseSoftmaxCrossEntropy) {
          int64_t c = labels.elementAsInt(r);
          if (c < 0 || c >= classes)
            fail(K, fmt::format("Received a label value of {} which is outside the valid range of [0, {}).", c, classes));
          loss = lse - double(row[c]);
        } else {
          const T *lab = labels.data<T>() + r * classes;
          for (int64_t j = 0; j < classes; ++j) loss += double(lab[j]) * (lse - double(row[j]));
        }
        q[r] = T(loss);
      }
    }
  });
  return out;
}

}  // namespace

void registerNN(KernelTable &t) {
  t[size_t(OpKind::Softmax)] = softmaxKernel<OpKind::Softmax>;
  t[size_t(OpKind::LogSoftmax)] = softmaxKernel<OpKind::LogSoftmax>;
  t[size_t(OpKind::SoftmaxCrossEntropy)] = xentKernel<OpKind::SoftmaxCrossEntropy>;
  t[size_t(OpKind::SparseSoftmaxCrossEntropy)] = xentKernel<OpKind::SparseSoftmaxCrossEntropy>;
  t[size_t(OpKind::SigmoidCrossEntropy)] = xentKernel<OpKind::SigmoidCrossEntropy>;
}

}  // namespace tfs::runtime::kernels
