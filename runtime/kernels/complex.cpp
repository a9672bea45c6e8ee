// Complex-number kernels: complex(real, imag) with broadcasting, and the
// parts of a complex tensor (real, imag, conj, angle).
#include "runtime/kernels/kernel_util.h"

#include <cmath>

namespace tfs::runtime::kernels {

namespace {

std::vector<Tensor> complexKernel(std::span<const Tensor> in, const ir::Attrs &attrs) {
  std::vector<Tensor> out = allocateOutputs(OpKind::Complex, in, attrs);
  auto run = [&]<class R>() {
    const R *re = in[0].data<R>(), *im = in[1].data<R>();
    auto *o = out[0].data<std::complex<R>>();
    forEachBroadcast<2>(out[0].shape(), {&in[0].shape(), &in[1].shape()},
                        [&](int64_t i, const std::array<int64_t, 2> &off) {
                          o[i] = std::complex<R>(re[off[0]], im[off[1]]);
                        });
  };
  if (in[0].dtype() == DType::Float64) run.template operator()<double>();
  else run.template operator()<float>();
  return out;
}

template <OpKind K> std::vector<Tensor> complexPart(std::span<const Tensor> in, const ir::Attrs &attrs) {
  std::vector<Tensor> out = allocateOutputs(K, in, attrs);
  auto run = [&]<class R>() {
    const auto *p = in[0].data<std::complex<R>>();
    int64_t n = in[0].numElements();
    if constexpr (K == OpKind::Conj) {
      auto *o = out[0].data<std::complex<R>>();
      for (int64_t i = 0; i < n; ++i) o[i] = std::conj(p[i]);
    } else {
      R *o = out[0].data<R>();
      for (int64_t i = 0; i < n; ++i) {
        if constexpr (K == OpKind::Real) o[i] = p[i].real();
        else if constexpr (K == OpKind::Imag) o[i] = p[i].imag();
        else o[i] = std::atan2(p[i].imag(), p[i].real());
      }
    }
  };
  if (in[0].dtype() == DType::Complex128) run.template operator()<double>();
  else run.template operator()<float>();
  return out;
}

}  // namespace

void registerComplex(KernelTable &t) {
  t[size_t(OpKind::Complex)] = complexKernel;
  t[size_t(OpKind::Real)] = complexPart<OpKind::Real>;
  t[size_t(OpKind::Imag)] = complexPart<OpKind::Imag>;
  t[size_t(OpKind::Conj)] = complexPart<OpKind::Conj>;
  t[size_t(OpKind::Angle)] = complexPart<OpKind::Angle>;
}

}  // namespace tfs::runtime::kernels
