// np.convolve / np.correlate (1-d) and np.cov / np.corrcoef, computed the
// way numpy 1.24 computes them so floats match it bit for bit:
//  * correlate slides the shorter array over the longer (numpy's
//    _pyarray_correlate): the partial windows at the edges are ?dot calls
//    (float32 summed into a double, as numpy's FLOAT_dot does); the full
//    windows are a plain left-to-right sum in the array's type when the
//    kernel has at most 11 elements (numpy's small_correlate), else ?dot.
//    When the first array is the shorter one the result is reversed.
//  * convolve is correlate with the second array reversed.
//  * cov centres the rows on their means (np.mean), takes X @ X.T (syrk, see
//    np_linalg.cpp) and multiplies by 1 / (n - ddof); corrcoef divides by the
//    outer product of the standard deviations and clips to [-1, 1].
#include "lib/numpy/np_shape.h"
#include "lib/numpy/numpy_lib.h"
#include "lib/numpy/reduce_engine.h"
#include "lib/numpy/ufunc.h"

#include <cblas.h>
#include <fmt/format.h>

namespace tfs::runtime::tf::numpy {

namespace {

template <class T> T dotProduct(const T *x, const T *y, int64_t n) {
  if constexpr (std::is_same_v<T, double>) {
    return cblas_ddot(int(n), x, 1, y, 1);
  } else if constexpr (std::is_same_v<T, float>) {
    double sum = cblas_sdot(int(n), x, 1, y, 1);
    return float(sum);
  } else if constexpr (std::is_same_v<T, bool>) {
    bool acc = false;
    for (int64_t i = 0; i < n && !acc; ++i) acc = x[i] && y[i];
    return acc;
  } else {
    using U = std::conditional_t<(sizeof(T) < sizeof(unsigned)), unsigned, std::make_unsigned_t<T>>;
    U acc = 0;
    for (int64_t i = 0; i < n; ++i) acc += U(x[i]) * U(y[i]);
    return T(acc);
  }
}

// numpy's _pyarray_correlate for mode 0 (valid), 1 (same), 2 (full).
Tensor correlateTensors(Interpreter &in, const Value &av, const Value &vv, const std::string &modeName, bool convolve) {
  Tensor a = asTensor(in, av), v = asTensor(in, vv);
  if (a.rank() != 1 || v.rank() != 1) {
    if (a.rank() > 1 || v.rank() > 1) in.raise("ValueError", "object too deep for desired array");
    a = a.reshaped({a.numElements()});
    v = v.reshaped({v.numElements()});
  }
  const char *name = convolve ? "convolve" : "correlate";
  if (a.numElements() == 0) in.raise("ValueError", convolve ? "a cannot be empty" : "first array argument cannot be empty");
  if (v.numElements() == 0) in.raise("ValueError", convolve ? "v cannot be empty" : "second array argument cannot be empty");
  int mode = modeName == "valid" ? 0 : modeName == "same" ? 1 : modeName == "full" ? 2 : -1;
  if (mode < 0)
    in.raise("ValueError", fmt::format("mode must be one of 'valid', 'same', or 'full' (got {})", in.repr(in.str(modeName))));
  DType t = promoteTypes(a.dtype(), v.dtype());
  if (t == DType::String) in.raise("TypeError", fmt::format("{} of string arrays is not supported", name));
  if (t == DType::Float16) in.raise("NotImplementedError", fmt::format("np.{} of float16 arrays is not supported by tfs", name));
  a = cast(a, t);
  v = cast(v, t);
  if (convolve) {
    // np.convolve: the longer array first, the other reversed.
    if (v.numElements() > a.numElements()) std::swap(a, v);
    Tensor r = Tensor::empty(t, v.shape());
    int64_t n = v.numElements();
    visitElementType(t, [&](auto tag) {
      using T = decltype(tag);
      for (int64_t i = 0; i < n; ++i) r.data<T>()[i] = v.data<T>()[n - 1 - i];
    });
    v = r;
  }
  bool inverted = false;
  if (a.numElements() < v.numElements()) {
    std::swap(a, v);
    inverted = true;
  }
  int64_t n1 = a.numElements(), n2 = v.numElements();
  int64_t length = n1, nLeft = 0, nRight = 0;
  if (mode == 0) length = n1 - n2 + 1;
  else if (mode == 1) nLeft = n2 / 2, nRight = n2 - nLeft - 1;
  else nLeft = nRight = n2 - 1, length = n1 + n2 - 1;
  Tensor out = Tensor::empty(t, {length});
  visitNumeric(in, t, name, [&](auto tag) {
    using T = decltype(tag);
    const T *p1 = a.data<T>(), *p2 = v.data<T>() + nLeft;
    T *op = out.data<T>();
    int64_t n = n2 - nLeft;
    for (int64_t i = 0; i < nLeft; ++i) {
      *op++ = dotProduct(p1, p2, n);
      ++n;
      --p2;
    }
    int64_t full = n1 - n2 + 1;
    if (n2 <= 11 && (std::is_same_v<T, float> || std::is_same_v<T, double>)) {
      for (int64_t i = 0; i < full; ++i) {
        T s = T(0);
        for (int64_t k = 0; k < n2; ++k) s = T(s + p1[i + k] * p2[k]);
        *op++ = s;
      }
    } else {
      for (int64_t i = 0; i < full; ++i) *op++ = dotProduct(p1 + i, p2, n);
    }
    p1 += full;
    for (int64_t i = 0; i < nRight; ++i) {
      --n;
      *op++ = dotProduct(p1, p2, n);
      ++p1;
    }
    if (inverted) std::reverse(out.data<T>(), out.data<T>() + length);
  });
  return out;
}

struct CovArgs {
  Value m, y, ddof, dtype;
  bool rowvar, bias;
};

// numpy's cov: float64 (or dtype=) rows of variables, centred, X @ X.T / (n - ddof).
Tensor covariance(Interpreter &in, const CovArgs &b) {
  Tensor m = asTensor(in, b.m);
  if (m.rank() > 2) in.raise("ValueError", "m has more than 2 dimensions");
  DType t = dtypeParam(in, b.dtype).value_or(promoteTypes(m.dtype(), DType::Float64));
  if (!ir::isFloating(t) || t == DType::Float16)
    in.raise("NotImplementedError", fmt::format("np.cov in {} is not supported by tfs", numpyDTypeName(t)));
  auto rows = [&](Tensor x) {
    x = cast(x, t);
    if (x.rank() < 2) x = x.reshaped({1, x.numElements()});
    if (!b.rowvar && x.shape()[0] != 1) x = transposed(x, {1, 0});
    return x;
  };
  Tensor x = rows(m);
  if (x.shape()[0] == 0) return Tensor::empty(t, {0, 0});
  if (!b.y.isNone()) {
    Tensor y = asTensor(in, b.y);
    if (y.rank() > 2) in.raise("ValueError", "y has more than 2 dimensions");
    y = rows(y);
    if (y.shape()[1] != x.shape()[1])
      in.raise("ValueError", fmt::format("all the input array dimensions except for the concatenation axis must match "
                                         "exactly, but along dimension 1, the array at index 0 has size {} and the "
                                         "array at index 1 has size {}", x.shape()[1], y.shape()[1]));
    Tensor both = Tensor::empty(t, {x.shape()[0] + y.shape()[0], x.shape()[1]});
    visitNumeric(in, t, "cov", [&](auto tag) {
      using T = decltype(tag);
      std::copy(x.data<T>(), x.data<T>() + x.numElements(), both.data<T>());
      std::copy(y.data<T>(), y.data<T>() + y.numElements(), both.data<T>() + x.numElements());
    });
    x = both;
  }
  int64_t ddof = b.ddof.isNone() ? (b.bias ? 0 : 1) : in.toInt(b.ddof);
  int64_t vars = x.shape()[0], obs = x.shape()[1];
  // avg = np.mean(X, axis=1) (a pairwise sum, then true_divide in X's type); X -= avg[:, None]
  Tensor avg = reduceArray(x, {false, true}, ReduceOp::Sum, cStrides(x.shape()), true);
  visitNumeric(in, t, "cov", [&](auto tag) {
    using T = decltype(tag);
    for (int64_t i = 0; i < vars; ++i) avg.data<T>()[i] = T(avg.data<T>()[i] / T(obs));
  });
  Value centred = newArray(cast(applyBinary(in, Binary::Subtract, newArray(x), newArray(avg)), t));
  double fact = std::max<double>(double(obs - ddof), 0.0);
  Value c = dotValues(in, centred, transposeArray(in, centred, Value()));
  // c *= np.true_divide(1, fact)
  Tensor scale = Tensor::scalar(1.0 / fact);
  Tensor r = cast(applyBinary(in, Binary::Multiply, c, wrap(scale, true)), asTensor(in, c).dtype());
  Shape squeezed;
  for (int64_t d : r.shape())
    if (d != 1) squeezed.push_back(d);
  return r.reshaped(squeezed);
}

Value cov(Interpreter &in, const Bound &b) {
  for (const char *p : {"fweights", "aweights"})
    if (!b.isNone(p)) in.raise("NotImplementedError", fmt::format("np.cov({}=...) is not supported by tfs", p));
  return newArray(covariance(in, {b["m"], b["y"], b["ddof"], b["dtype"], in.truth(b["rowvar"]), in.truth(b["bias"])}));
}

Value corrcoef(Interpreter &in, const Bound &b) {
  for (const char *p : {"bias", "ddof"})
    if (b.given(p)) in.raise("NotImplementedError", fmt::format("np.corrcoef({}=...) (deprecated, no effect) is not supported by tfs", p));
  Tensor c = covariance(in, {b["x"], b["y"], Value(), b["dtype"], in.truth(b["rowvar"]), false});
  if (c.rank() == 0) return scalarOrArray(applyBinary(in, Binary::Divide, newArray(c), newArray(c)));
  int64_t n = c.shape()[0];
  Tensor d = Tensor::empty(c.dtype(), {n});
  visitNumeric(in, c.dtype(), "corrcoef", [&](auto tag) {
    using T = decltype(tag);
    for (int64_t i = 0; i < n; ++i) d.data<T>()[i] = c.data<T>()[i * n + i];
  });
  Tensor stddev = applyUnary(in, Unary::Sqrt, newArray(d));
  Tensor r = applyBinary(in, Binary::Divide, newArray(c), newArray(stddev.reshaped({n, 1})));
  r = applyBinary(in, Binary::Divide, newArray(r), newArray(stddev.reshaped({1, n})));
  r = applyBinary(in, Binary::Maximum, newArray(r), Value::real(-1.0), r.dtype());
  r = applyBinary(in, Binary::Minimum, newArray(r), Value::real(1.0), r.dtype());
  return newArray(r);
}

}  // namespace

void addCorrelateFunctions(Defs &defs) {
  defs.push_back({"convolve(a, v, mode='full')", [](Interpreter &in, const Bound &b) {
                    return newArray(correlateTensors(in, b["a"], b["v"], in.str(b["mode"]), true));
                  }});
  defs.push_back({"correlate(a, v, mode='valid')", [](Interpreter &in, const Bound &b) {
                    return newArray(correlateTensors(in, b["a"], b["v"], in.str(b["mode"]), false));
                  }});
  defs.push_back({"cov(m, y=None, rowvar=True, bias=False, ddof=None, fweights=None, aweights=None, *, dtype=None)", cov});
  defs.push_back({"corrcoef(x, y=None, rowvar=True, bias=None, ddof=None, *, dtype=None)", corrcoef});
}

}  // namespace tfs::runtime::tf::numpy
