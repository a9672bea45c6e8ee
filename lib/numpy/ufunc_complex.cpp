// numpy's complex loops (complex64 / complex128) for the ufuncs tfs has
// them for: add, subtract, multiply, true_divide (numpy's scaled Smith
// division, loops.c.src), equal, not_equal, negative, positive. Every other
// ufunc on complex arrays raises NotImplementedError naming it.
#include "lib/numpy/ufunc.h"

#include <cmath>
#include <complex>
#include <fmt/format.h>

namespace tfs::runtime::tf::numpy {

namespace {

[[noreturn]] void unsupported(Interpreter &in, const char *name, DType t) {
  in.raise("NotImplementedError", fmt::format("{} of {} arrays is not supported by tfs", name, numpyDTypeName(t)));
}

template <class R> std::complex<R> divide(std::complex<R> a, std::complex<R> b) {
  R ar = a.real(), ai = a.imag(), br = b.real(), bi = b.imag();
  R brAbs = std::fabs(br), biAbs = std::fabs(bi);
  if (brAbs >= biAbs) {
    if (brAbs == 0 && biAbs == 0) return {ar / brAbs, ai / brAbs};  // a complex inf or nan, as numpy
    R rat = bi / br, scl = R(1) / (br + bi * rat);
    return {(ar + ai * rat) * scl, (ai - ar * rat) * scl};
  }
  R rat = br / bi, scl = R(1) / (bi + br * rat);
  return {(ar * rat + ai) * scl, (ai * rat - ar) * scl};
}

template <class R> Tensor loop(Binary b, const Tensor &x, const Tensor &y, DType t) {
  using C = std::complex<R>;
  const C *px = x.data<C>(), *py = y.data<C>();
  int64_t n = x.numElements();
  if (b == Binary::Equal || b == Binary::NotEqual) {
    Tensor r = Tensor::empty(DType::Bool, x.shape());
    bool *pr = r.data<bool>();
    for (int64_t i = 0; i < n; ++i) {
      bool eq = px[i].real() == py[i].real() && px[i].imag() == py[i].imag();
      pr[i] = b == Binary::Equal ? eq : !eq;
    }
    return r;
  }
  Tensor r = Tensor::empty(t, x.shape());
  C *pr = r.data<C>();
  for (int64_t i = 0; i < n; ++i) {
    R ar = px[i].real(), ai = px[i].imag(), br = py[i].real(), bi = py[i].imag();
    switch (b) {
    case Binary::Add: pr[i] = C(ar + br, ai + bi); break;
    case Binary::Subtract: pr[i] = C(ar - br, ai - bi); break;
    case Binary::Multiply: pr[i] = C(ar * br - ai * bi, ar * bi + ai * br); break;
    default: pr[i] = divide(px[i], py[i]); break;
    }
  }
  return r;
}

}  // namespace

Tensor complexBinary(Interpreter &in, Binary b, const Tensor &x, const Tensor &y, DType t, const Shape &shape) {
  bool supported = b == Binary::Add || b == Binary::Subtract || b == Binary::Multiply || b == Binary::Divide ||
                   b == Binary::Equal || b == Binary::NotEqual;
  if (!supported) unsupported(in, ufuncName(b), t);
  Tensor xs = broadcastTo(cast(x, t), shape), ys = broadcastTo(cast(y, t), shape);
  if (t == DType::Complex64) return loop<float>(b, xs, ys, t);
  return loop<double>(b, xs, ys, t);
}

Tensor complexUnary(Interpreter &in, Unary u, const Tensor &x) {
  DType t = x.dtype();
  if (u != Unary::Negative && u != Unary::Positive) unsupported(in, ufuncName(u), t);
  Tensor r = Tensor::empty(t, x.shape());
  auto run = [&]<class C>() {
    const C *px = x.data<C>();
    C *pr = r.data<C>();
    for (int64_t i = 0; i < x.numElements(); ++i) pr[i] = u == Unary::Negative ? C(-px[i].real(), -px[i].imag()) : px[i];
  };
  if (t == DType::Complex64) run.template operator()<ir::complex64>();
  else run.template operator()<ir::complex128>();
  return r;
}

}  // namespace tfs::runtime::tf::numpy
