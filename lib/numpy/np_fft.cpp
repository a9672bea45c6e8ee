// numpy.fft (numpy/fft/_pocketfft.py of 1.24): fft / ifft / rfft / irfft /
// hfft / ihfft along one axis, their 2-d and n-d forms, and the `norm=`
// scalings. fftfreq / rfftfreq / fftshift / ifftshift are numpy's Python,
// written in lib/numpy/_np_fft.tfs.
//
// The transforms run on the engine's FFTW kernels (runtime/kernels/fft.cpp,
// the ones tf.signal uses) in double precision, as numpy 1.24's pocketfft
// always computes: every result is complex128 (irfft / hfft: float64)
// whatever the input's dtype. numpy's structure is kept exactly: one 1-d
// transform per axis (the n-d forms loop over the axes, last first), the
// axis cropped or zero-padded to n first, and the scale factor (1, 1/n or
// 1/sqrt(n) by `norm`) multiplied in once at the end. FFTW's and pocketfft's
// algorithms differ, so the last bits of inexact results can differ from
// numpy's (exactly representable results, e.g. integer spectra, agree).
#include "lib/numpy/numpy_lib.h"

#include <cmath>
#include <complex>
#include <fmt/format.h>

namespace tfs::runtime::tf::numpy {

namespace {

using C = std::complex<double>;

enum class Transform { Complex, Real, InverseReal };

// numpy's `norm=` as the factor of a forward (or backward) transform of n points.
double normFactor(Interpreter &in, const Value &norm, int64_t n, bool forward) {
  std::string mode = norm.isNone() ? "backward" : "";
  if (auto *s = norm.as<StrObject>()) mode = s->s;
  if (mode == "ortho") return 1.0 / std::sqrt(double(n));
  if (mode == "backward") return forward ? 1.0 : 1.0 / double(n);
  if (mode == "forward") return forward ? 1.0 / double(n) : 1.0;
  in.raise("ValueError",
           fmt::format("Invalid norm value {}; should be \"backward\",\"ortho\" or \"forward\".", in.str(norm)));
}

// hfft / ihfft's norm: the direction swapped (ortho stays).
Value swapDirection(Interpreter &in, const Value &norm) {
  std::string mode = norm.isNone() ? "backward" : "";
  if (auto *s = norm.as<StrObject>()) mode = s->s;
  if (mode == "backward") return in.str("forward");
  if (mode == "forward") return in.str("backward");
  if (mode == "ortho") return norm;
  in.raise("ValueError",
           fmt::format("Invalid norm value {}; should be \"backward\",\"ortho\" or \"forward\".", in.str(norm)));
}

// a.shape[axis] as Python evaluates it (IndexError past the rank).
int64_t dimAt(Interpreter &in, const Tensor &a, int64_t axis) {
  int64_t r = int64_t(a.rank());
  if (axis < -r || axis >= r) in.raise("IndexError", "tuple index out of range");
  return a.shape()[size_t(axis < 0 ? axis + r : axis)];
}

// The permutation that swaps `axis` with the last one (its own inverse).
std::vector<int64_t> swapLast(int64_t axis, int64_t rank) {
  std::vector<int64_t> perm(static_cast<size_t>(rank));
  for (int64_t i = 0; i < rank; ++i) perm[size_t(i)] = i;
  std::swap(perm[size_t(axis)], perm[size_t(rank - 1)]);
  return perm;
}

// The last dim of t cropped or zero-padded to n.
template <class T> Tensor fitLast(const Tensor &t, int64_t n) {
  int64_t have = t.shape().back();
  if (have == n) return t;
  Shape shape = t.shape();
  shape.back() = n;
  Tensor r = Tensor::empty(t.dtype(), shape);
  int64_t rows = have == 0 ? elementCount(shape) / std::max<int64_t>(n, 1) : t.numElements() / have;
  const T *src = t.data<T>();
  T *dst = r.data<T>();
  for (int64_t i = 0; i < rows; ++i)
    for (int64_t j = 0; j < n; ++j) dst[i * n + j] = j < have ? src[i * have + j] : T(0);
  return r;
}

template <class T> void scaleBy(Tensor &t, double f) {
  if (f == 1.0) return;
  T *p = t.data<T>();
  for (int64_t i = 0; i < t.numElements(); ++i) p[i] *= f;
}

// The input as numpy's pocketfft takes it: complex128 for the complex
// transforms, float64 for rfft (a complex input's imaginary parts dropped
// with numpy's ComplexWarning).
Tensor transformInput(Interpreter &in, const Value &a, Transform kind) {
  Tensor t = asTensor(in, a);
  if (t.dtype() == DType::String) in.raise("TypeError", "numpy.fft of a string array is not supported");
  if (kind != Transform::Real) return t.dtype() == DType::Complex128 ? t : cast(t, DType::Complex128);
  if (ir::isComplex(t.dtype())) {
    warnComplexCast(in);
    return cast(runKernel(ir::OpKind::Real, std::vector<Tensor>{t}, {})[0], DType::Float64);
  }
  return t.dtype() == DType::Float64 ? t : cast(t, DType::Float64);
}

// numpy's _raw_fft: one transform of n points along `axis`, scaled by fct.
Tensor rawFft(Interpreter &in, Tensor a, int64_t n, int64_t axis, Transform kind, bool forward, double fct) {
  int64_t rank = int64_t(a.rank());
  axis = normalizeAxis(in, axis, rank);
  if (n < 1) in.raise("ValueError", fmt::format("Invalid number of FFT data points ({}) specified.", n));
  std::vector<int64_t> perm = swapLast(axis, rank);
  bool moved = axis != rank - 1;
  if (moved) a = transposed(a, perm);
  Tensor r;
  if (kind == Transform::Complex) {
    a = fitLast<C>(a, n);
    // The backward transform as conj(fft(conj(x))): exact, and leaves the
    // scaling to fct alone as pocketfft does.
    if (!forward) a = runKernel(ir::OpKind::Conj, std::vector<Tensor>{a}, {})[0];
    r = runKernel(ir::OpKind::Fft, std::vector<Tensor>{a}, {})[0];
    if (!forward) r = runKernel(ir::OpKind::Conj, std::vector<Tensor>{r}, {})[0];
    scaleBy<C>(r, fct);
  } else if (kind == Transform::Real) {
    r = runKernel(ir::OpKind::Rfft, std::vector<Tensor>{a}, {{"fft_length", std::vector<int64_t>{n}}})[0];
    scaleBy<C>(r, fct);
  } else {
    // FFTW's c2r reads the first n // 2 + 1 bins, as pocketfft's does; the
    // kernel divides by n (numpy's default backward scaling).
    r = runKernel(ir::OpKind::Irfft, std::vector<Tensor>{a}, {{"fft_length", std::vector<int64_t>{n}}})[0];
    scaleBy<double>(r, fct * double(n));
  }
  if (moved) r = transposed(r, perm);
  return r;
}

// fft / ifft / rfft / irfft of a tensor (n: the default when None).
Tensor oneAxis(Interpreter &in, const Tensor &a, const Value &nArg, int64_t axis, Transform kind, bool forward,
               const Value &norm) {
  int64_t n;
  if (nArg.isNone()) {
    n = dimAt(in, a, axis);
    if (kind == Transform::InverseReal) n = (n - 1) * 2;
  } else {
    n = in.toIndex(nArg);
  }
  return rawFft(in, a, n, axis, kind, forward, normFactor(in, norm, n, forward));
}

Value fft1(Interpreter &in, const Bound &b, Transform kind, bool forward) {
  Tensor a = transformInput(in, b["a"], kind);
  return newArray(oneAxis(in, a, b["n"], in.toIndex(b["axis"]), kind, forward, b["norm"]));
}

// hfft: irfft of the conjugate with the norm's direction swapped.
Value hfft(Interpreter &in, const Bound &b) {
  Tensor a = transformInput(in, b["a"], Transform::InverseReal);
  a = runKernel(ir::OpKind::Conj, std::vector<Tensor>{a}, {})[0];
  Value norm = swapDirection(in, b["norm"]);
  return newArray(oneAxis(in, a, b["n"], in.toIndex(b["axis"]), Transform::InverseReal, false, norm));
}

// ihfft: the conjugate of rfft with the norm's direction swapped.
Value ihfft(Interpreter &in, const Bound &b) {
  Tensor a = transformInput(in, b["a"], Transform::Real);
  Value norm = swapDirection(in, b["norm"]);
  Tensor r = oneAxis(in, a, b["n"], in.toIndex(b["axis"]), Transform::Real, true, norm);
  return newArray(runKernel(ir::OpKind::Conj, std::vector<Tensor>{r}, {})[0]);
}

std::vector<int64_t> intList(Interpreter &in, const Value &v) {
  std::vector<int64_t> out;
  for (const Value &x : in.toList(v)) out.push_back(in.toIndex(x));
  return out;
}

// numpy's _cook_nd_args: the lengths and axes of an n-d transform.
void cookNdArgs(Interpreter &in, const Tensor &a, const Value &sArg, const Value &axesArg, bool invreal,
                std::vector<int64_t> &s, std::vector<int64_t> &axes) {
  bool shapeless = sArg.isNone();
  if (!axesArg.isNone()) axes = intList(in, axesArg);
  if (shapeless) {
    if (axesArg.isNone()) {
      s = a.shape();
    } else {
      int64_t r = int64_t(a.rank());
      for (int64_t ax : axes) {
        if (ax < -r || ax >= r)
          in.raise("IndexError", fmt::format("index {} is out of bounds for axis 0 with size {}", ax, r));
        s.push_back(a.shape()[size_t(ax < 0 ? ax + r : ax)]);
      }
    }
  } else {
    s = intList(in, sArg);
  }
  if (axesArg.isNone())
    for (int64_t i = -int64_t(s.size()); i < 0; ++i) axes.push_back(i);
  if (s.size() != axes.size()) in.raise("ValueError", "Shape and axes have different lengths.");
  if (invreal && shapeless && !s.empty()) s.back() = (dimAt(in, a, axes.back()) - 1) * 2;
}

Tensor ndStep(Interpreter &in, const Tensor &a, int64_t n, int64_t axis, Transform kind, bool forward,
              const Value &norm) {
  return oneAxis(in, a, Value::integer(n), axis, kind, forward, norm);
}

// fftn / ifftn (and fft2 / ifft2): a complex transform per axis, last first.
Value fftnd(Interpreter &in, const Bound &b, bool forward) {
  Tensor a = asTensor(in, b["a"]);
  std::vector<int64_t> s, axes;
  cookNdArgs(in, a, b["s"], b["axes"], false, s, axes);
  if (axes.empty()) return newArray(a);
  a = transformInput(in, newArray(a), Transform::Complex);
  for (size_t i = axes.size(); i-- > 0;) a = ndStep(in, a, s[i], axes[i], Transform::Complex, forward, b["norm"]);
  return newArray(a);
}

// rfftn: rfft along the last axis, then complex transforms along the others.
Value rfftnd(Interpreter &in, const Bound &b) {
  Tensor a = asTensor(in, b["a"]);
  std::vector<int64_t> s, axes;
  cookNdArgs(in, a, b["s"], b["axes"], false, s, axes);
  if (axes.empty()) in.raise("IndexError", "list index out of range");
  a = transformInput(in, newArray(a), Transform::Real);
  a = ndStep(in, a, s.back(), axes.back(), Transform::Real, true, b["norm"]);
  for (size_t i = 0; i + 1 < axes.size(); ++i) a = ndStep(in, a, s[i], axes[i], Transform::Complex, true, b["norm"]);
  return newArray(a);
}

// irfftn: inverse complex transforms along all but the last axis, then irfft.
Value irfftnd(Interpreter &in, const Bound &b) {
  Tensor a = asTensor(in, b["a"]);
  std::vector<int64_t> s, axes;
  cookNdArgs(in, a, b["s"], b["axes"], true, s, axes);
  if (axes.empty()) in.raise("IndexError", "list index out of range");
  a = transformInput(in, newArray(a), Transform::Complex);
  for (size_t i = 0; i + 1 < axes.size(); ++i) a = ndStep(in, a, s[i], axes[i], Transform::Complex, false, b["norm"]);
  a = ndStep(in, a, s.back(), axes.back(), Transform::InverseReal, false, b["norm"]);
  return newArray(a);
}

}  // namespace

Defs fftModuleFunctions() {
  Defs d;
  auto add = [&](const char *sig, SignedFn fn) { d.push_back({sig, std::move(fn)}); };
  add("fft(a, n=None, axis=-1, norm=None)", [](Interpreter &in, const Bound &b) { return fft1(in, b, Transform::Complex, true); });
  add("ifft(a, n=None, axis=-1, norm=None)", [](Interpreter &in, const Bound &b) { return fft1(in, b, Transform::Complex, false); });
  add("rfft(a, n=None, axis=-1, norm=None)", [](Interpreter &in, const Bound &b) { return fft1(in, b, Transform::Real, true); });
  add("irfft(a, n=None, axis=-1, norm=None)",
      [](Interpreter &in, const Bound &b) { return fft1(in, b, Transform::InverseReal, false); });
  add("hfft(a, n=None, axis=-1, norm=None)", hfft);
  add("ihfft(a, n=None, axis=-1, norm=None)", ihfft);
  add("fftn(a, s=None, axes=None, norm=None)", [](Interpreter &in, const Bound &b) { return fftnd(in, b, true); });
  add("ifftn(a, s=None, axes=None, norm=None)", [](Interpreter &in, const Bound &b) { return fftnd(in, b, false); });
  add("fft2(a, s=None, axes=(-2, -1), norm=None)", [](Interpreter &in, const Bound &b) { return fftnd(in, b, true); });
  add("ifft2(a, s=None, axes=(-2, -1), norm=None)", [](Interpreter &in, const Bound &b) { return fftnd(in, b, false); });
  add("rfftn(a, s=None, axes=None, norm=None)", rfftnd);
  add("irfftn(a, s=None, axes=None, norm=None)", irfftnd);
  add("rfft2(a, s=None, axes=(-2, -1), norm=None)", rfftnd);
  add("irfft2(a, s=None, axes=(-2, -1), norm=None)", irfftnd);
  return d;
}

}  // namespace tfs::runtime::tf::numpy
