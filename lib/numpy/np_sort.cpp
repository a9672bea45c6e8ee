// numpy's sorting and order statistics: sort, argsort, unique,
// searchsorted, median, percentile, quantile, average, bincount.
//
// argsort's default (kind='quicksort') is numpy's own introsort on indices
// (npy_introsort.h), so equal elements come in numpy's order. NaNs sort last.
#include "lib/numpy/np_shape.h"
#include "lib/tf/tf_lib.h"
#include "lib/numpy/npy_introsort.h"
#include "lib/numpy/reduce_engine.h"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <numeric>

namespace tfs::runtime::tf::numpy {

namespace {

template <class T> bool lessThan(const T &a, const T &b) {
  if constexpr (std::is_floating_point_v<T>) {
    return a < b || (b != b && a == a);
  } else if constexpr (ir::isComplexType<T>) {
    // numpy's nan-aware complex order (npysort's CLT): by real part, then
    // imaginary part, NaNs last.
    auto ar = a.real(), ai = a.imag(), br = b.real(), bi = b.imag();
    if (ar < br) return ai == ai || bi != bi;
    if (ar > br) return bi != bi && ai == ai;
    if (ar == br || (ar != ar && br != br)) return ai < bi || (bi != bi && ai == ai);
    return br != br;
  } else {
    return a < b;
  }
}

// Sorted order of each lane along `axis` (positions into x's C layout).
std::vector<int64_t> argsortLanes(Interpreter &in, const Tensor &x, int64_t axis, bool stable) {
  const Shape &shape = x.shape();
  int64_t len = shape[size_t(axis)], outer = 1, inner = 1;
  for (int64_t d = 0; d < axis; ++d) outer *= shape[size_t(d)];
  for (size_t d = size_t(axis) + 1; d < shape.size(); ++d) inner *= shape[d];
  std::vector<int64_t> out(size_t(x.numElements()));
  visitElementType(x.dtype(), [&](auto tag) {
    using T = decltype(tag);
    using Elem = std::conditional_t<std::is_same_v<T, bool>, uint8_t, T>;  // vector<bool> has no data()
    std::vector<Elem> lane(static_cast<size_t>(len));
    std::vector<int64_t> idx(static_cast<size_t>(len));
    for (int64_t o = 0; o < outer; ++o)
      for (int64_t i = 0; i < inner; ++i) {
        for (int64_t k = 0; k < len; ++k) lane[size_t(k)] = x.data<T>()[(o * len + k) * inner + i];
        std::iota(idx.begin(), idx.end(), 0);
        if (stable)
          std::stable_sort(idx.begin(), idx.end(), [&](int64_t a, int64_t b) { return lessThan(lane[size_t(a)], lane[size_t(b)]); });
        else if (len > 1)
          argQuicksortBy(idx.data(), len, [&](int64_t a, int64_t b) { return lessThan(lane[size_t(a)], lane[size_t(b)]); });
        for (int64_t k = 0; k < len; ++k) out[size_t((o * len + k) * inner + i)] = (o * len + idx[size_t(k)]) * inner + i;
      }
  });
  return out;
}

bool stableKind(Interpreter &in, const Value &kind) {
  if (kind.isNone()) return false;
  std::string k = in.str(kind);
  if (k == "quicksort" || k == "heapsort") return false;  // heapsort: values equal, ties rarely matter
  if (k == "stable" || k == "mergesort") return true;
  in.raise("ValueError", fmt::format("sort kind must be one of 'quick', 'heap', or 'stable' (got '{}')", k));
}

}  // namespace

Tensor sortedAlong(Interpreter &in, const Tensor &x, int64_t axis, bool stable) {
  return gather(x, x.shape(), argsortLanes(in, x, axis, stable));
}

Tensor argsortAlong(Interpreter &in, const Tensor &x, int64_t axis, bool stable) {
  std::vector<int64_t> pos = argsortLanes(in, x, axis, stable);
  const Shape &shape = x.shape();
  int64_t len = shape[size_t(axis)], inner = 1;
  for (size_t d = size_t(axis) + 1; d < shape.size(); ++d) inner *= shape[d];
  Tensor out = Tensor::empty(DType::Int64, shape);
  for (size_t k = 0; k < pos.size(); ++k) out.data<int64_t>()[k] = (pos[k] / inner) % len;
  return out;
}

namespace {

Value sortFn(Interpreter &in, const Bound &b) {
  if (!b.isNone("order")) in.raise("NotImplementedError", "sort() argument 'order' is not supported by tfs");
  Tensor x = asTensor(in, b["a"]);
  bool flat = b.isNone("axis");
  if (flat) x = x.reshaped({x.numElements()});
  if (x.rank() == 0) raiseAxisError(in, -1, 0);
  int64_t axis = flat ? 0 : normalizeAxis(in, in.toIndex(b["axis"]), int64_t(x.rank()));
  return newArray(sortedAlong(in, x, axis, stableKind(in, b["kind"])));
}

Value argsortFn(Interpreter &in, const Bound &b) {
  if (!b.isNone("order")) in.raise("NotImplementedError", "argsort() argument 'order' is not supported by tfs");
  Tensor x = asTensor(in, b["a"]);
  bool flat = b.isNone("axis");
  if (flat || x.rank() == 0) x = x.reshaped({x.numElements()});
  int64_t axis = flat ? 0 : normalizeAxis(in, in.toIndex(b["axis"]), int64_t(x.rank()));
  return newArray(argsortAlong(in, x, axis, stableKind(in, b["kind"])));
}

// numpy's _unique1d on the flattened array.
Value unique(Interpreter &in, const Bound &b) {
  if (!b.isNone("axis")) {  // unique slices along an axis: lib/numpy/_np_unique.tfs
    std::vector<Value> args{b["ar"], b["return_index"], b["return_inverse"], b["return_counts"], b["axis"], b["equal_nan"]};
    return in.call(in.getAttr(importPreludeModule(in, "_np_unique"), "unique_axis"), args);
  }
  Tensor x = asTensor(in, b["ar"]);
  x = x.reshaped({x.numElements()});
  bool wantIndex = in.truth(b["return_index"]), wantInverse = in.truth(b["return_inverse"]),
       wantCounts = in.truth(b["return_counts"]), equalNan = in.truth(b["equal_nan"]);
  std::vector<int64_t> perm = argsortLanes(in, x, 0, wantIndex);
  Tensor aux = gather(x, x.shape(), perm);
  int64_t n = aux.numElements();
  std::vector<bool> mask(size_t(n), true);
  visitElementType(aux.dtype(), [&](auto tag) {
    using T = decltype(tag);
    const T *p = aux.data<T>();
    for (int64_t i = 1; i < n; ++i) {
      bool same = p[i] == p[i - 1];
      if constexpr (std::is_floating_point_v<T>) same = same || (equalNan && std::isnan(p[i]) && std::isnan(p[i - 1]));
      mask[size_t(i)] = !same;
    }
  });
  UniqueRuns runs = uniqueRuns(mask, perm);
  Value uniq = newArray(gather(aux, {int64_t(runs.keep.size())}, runs.keep));
  if (!wantIndex && !wantInverse && !wantCounts) return uniq;
  std::vector<Value> out{uniq};
  auto intArray = [](const std::vector<int64_t> &v) {
    Tensor t = Tensor::empty(DType::Int64, {int64_t(v.size())});
    std::copy(v.begin(), v.end(), t.data<int64_t>());
    return newArray(t);
  };
  if (wantIndex) out.push_back(intArray(runs.firstIndex));
  if (wantInverse) out.push_back(intArray(runs.inverse));
  if (wantCounts) out.push_back(intArray(runs.counts));
  return in.tuple(out);
}

Value searchsorted(Interpreter &in, const Bound &b) {
  Tensor a = asTensor(in, b["a"]), v = asTensor(in, b["v"]);
  if (a.rank() != 1)
    in.raise("ValueError", a.rank() == 0 ? "object of too small depth for desired array" : "object too deep for desired array");
  if (!b.isNone("sorter")) {
    // The search runs on a[sorter]; the result indexes that sorted order.
    Tensor sorter = asTensor(in, b["sorter"]);
    if (!isInteger(sorter.dtype()) || sorter.rank() != 1)
      in.raise("TypeError", "sorter must only contain integers");
    if (sorter.numElements() != a.numElements()) in.raise("ValueError", "sorter.size must equal a.size");
    sorter = cast(sorter, DType::Int64);
    std::vector<int64_t> pos(sorter.data<int64_t>(), sorter.data<int64_t>() + sorter.numElements());
    for (int64_t p : pos)
      if (p < 0 || p >= a.numElements()) in.raise("ValueError", "Sorter index out of range.");
    a = gather(a, a.shape(), pos);
  }
  std::string side = in.str(b["side"]);
  if (side != "left" && side != "right")
    in.raise("ValueError", fmt::format("side must be 'left' or 'right' (got '{}')", side));
  DType t = promoteTypes(a.dtype(), v.dtype());
  a = cast(a, t);
  v = cast(v, t);
  Tensor out = Tensor::empty(DType::Int64, v.shape());
  visitElementType(t, [&](auto tag) {
    using T = decltype(tag);
    const T *p = a.data<T>();
    int64_t n = a.numElements();
    for (int64_t i = 0; i < v.numElements(); ++i) {
      const T &key = v.data<T>()[i];
      const T *r = side == "left" ? std::lower_bound(p, p + n, key, [](const T &x, const T &y) { return lessThan(x, y); })
                                  : std::upper_bound(p, p + n, key, [](const T &x, const T &y) { return lessThan(x, y); });
      out.data<int64_t>()[i] = r - p;
    }
  });
  return scalarOrArray(out);
}

// Lanes along `axis` moved last and sorted: (lanes, lane length, kept shape).
struct SortedLanes {
  Tensor values;  // [lanes, len], float
  int64_t len;
  Shape kept;
};

SortedLanes sortedLanes(Interpreter &in, const Value &av, const Value &axisV, bool keepdims, DType t) {
  Tensor x = cast(asTensor(in, av), t);
  Shape orig = x.shape();
  if (axisV.isNone()) x = x.reshaped({x.numElements()});
  // numpy's median / quantile take a tuple of axes (_ureduce): the reduced
  // axes move to the end and merge into one lane of their elements.
  std::vector<int64_t> axes = axisV.isNone() ? std::vector<int64_t>{0} : axesParam(in, axisV, int64_t(x.rank()));
  for (size_t i = 0; i < axes.size(); ++i)
    for (size_t j = 0; j < i; ++j)
      if (axes[i] == axes[j]) in.raise("ValueError", "repeated axis");
  auto reduced = [&](int64_t d) { return std::find(axes.begin(), axes.end(), d) != axes.end(); };
  std::vector<int64_t> perm;
  for (int64_t d = 0; d < int64_t(x.rank()); ++d)
    if (!reduced(d)) perm.push_back(d);
  int64_t len = 1;
  for (int64_t d : axes) {
    perm.push_back(d);
    len *= x.shape()[size_t(d)];
  }
  Tensor moved = transposed(x, perm);
  int64_t lanes = len ? moved.numElements() / len : 0;
  Tensor lanesT = moved.reshaped({lanes, len});
  SortedLanes s{sortedAlong(in, lanesT, 1, false), len, {}};
  if (keepdims) {
    s.kept = axisV.isNone() ? Shape(orig.size(), 1) : orig;
    if (!axisV.isNone())
      for (int64_t d : axes) s.kept[size_t(d)] = 1;
  } else {
    for (int64_t d = 0; d < int64_t(x.rank()); ++d)
      if (!reduced(d)) s.kept.push_back(x.shape()[size_t(d)]);
  }
  return s;
}

// numpy's linear quantile (method='linear'): the virtual index q*(n-1),
// interpolated as numpy's _lerp does (from the nearer end for t >= 0.5).
template <class T> T lerp(T a, T b, T t) {
  T diff = b - a;
  return t >= T(0.5) ? b - diff * (T(1) - t) : a + diff * t;
}

// The values a lane's statistic is taken over: all of them, or (nan*
// functions) the ones before the NaNs, which sort last.
template <class T> int64_t laneLength(const T *lane, int64_t len, bool skipNan) {
  if (!skipNan) return len;
  int64_t n = len;
  while (n > 0 && std::isnan(lane[n - 1])) --n;
  return n;
}

// Where numpy's quantile method (function_base.py's _QuantileMethods) reads
// a sorted lane of n values at quantile q: one element (the discrete
// methods: lower, higher, nearest, inverted_cdf, closest_observation) or
// two neighbours lo, hi and the weight gamma of hi. The float arithmetic
// follows numpy's order so virtual indices match to the bit.
struct QuantilePos {
  bool discrete;
  int64_t lo, hi;
  double gamma;
};

QuantilePos quantilePos(const std::string &m, double q, int64_t n) {
  double nd = double(n);
  auto pick = [&](double i) { return QuantilePos{true, int64_t(i), int64_t(i), 0}; };
  // inverted_cdf / closest_observation: the lower neighbour when the
  // condition on gamma holds, else the upper; never below 0.
  auto boundary = [&](double index, bool odd_rule) {
    double prev = std::floor(index), gamma = index - prev;
    bool takePrev = gamma == 0 && (!odd_rule || std::fmod(prev, 2.0) == 0);
    double r = takePrev ? prev : prev + 1;
    return pick(r < 0 ? 0 : r);
  };
  if (m == "lower") return pick(std::floor((nd - 1) * q));
  if (m == "higher") return pick(std::ceil((nd - 1) * q));
  if (m == "nearest") return pick(std::nearbyint((nd - 1) * q));
  if (m == "inverted_cdf") return boundary(nd * q - 1, false);
  if (m == "closest_observation") return boundary(nd * q - 1 - 0.5, true);
  double virt;
  auto hf = [&](double alpha, double beta) { return nd * q + (alpha + q * (1 - alpha - beta)) - 1; };
  if (m == "linear") virt = (nd - 1) * q;
  else if (m == "averaged_inverted_cdf") virt = nd * q - 1;
  else if (m == "midpoint") virt = 0.5 * (std::floor((nd - 1) * q) + std::ceil((nd - 1) * q));
  else if (m == "interpolated_inverted_cdf") virt = hf(0, 1);
  else if (m == "hazen") virt = hf(0.5, 0.5);
  else if (m == "weibull") virt = hf(0, 0);
  else if (m == "median_unbiased") virt = hf(1 / 3.0, 1 / 3.0);
  else virt = hf(3 / 8.0, 3 / 8.0);  // normal_unbiased
  // numpy's _get_indexes: past either end both neighbours are that end.
  double prev = std::floor(virt);
  int64_t lo = int64_t(prev), hi = lo + 1;
  if (virt >= nd - 1) lo = hi = n - 1, prev = -1;
  if (virt < 0) lo = hi = 0, prev = 0;
  double gamma = virt - prev;
  if (m == "averaged_inverted_cdf") gamma = gamma == 0 ? 0.5 : 1.0;
  if (m == "midpoint") gamma = std::fmod(virt, 1.0) == 0 ? 0.0 : 0.5;
  return {false, lo, hi, gamma};
}

bool isQuantileMethod(const std::string &m) {
  for (const char *k : {"inverted_cdf", "averaged_inverted_cdf", "closest_observation", "interpolated_inverted_cdf",
                        "hazen", "weibull", "linear", "median_unbiased", "normal_unbiased", "lower", "higher",
                        "midpoint", "nearest"})
    if (m == k) return true;
  return false;
}

// The deprecated interpolation= spelling of method= (numpy 1.22).
std::string quantileMethod(Interpreter &in, const Bound &b, const char *fname) {
  std::string method = in.str(b["method"]);
  if (!b.isNone("interpolation")) {
    frontend::SourceSpan here = in.currentSpan();
    Value module = in.importModule("warnings");
    in.restoreSpan(here);
    std::vector<Value> args{in.str(fmt::format("the `interpolation=` argument to {} was renamed to `method=`, which "
                                               "has additional options.\nUsers of the modes 'nearest', 'lower', "
                                               "'higher', or 'midpoint' are encouraged to review the method they "
                                               "used. (Deprecated NumPy 1.22)", fname)),
                            in.builtins()->vars["DeprecationWarning"]};
    in.call(in.getAttr(module, "warn"), args);
    in.restoreSpan(here);
    if (method != "linear")
      in.raise("TypeError", "You shall not pass both `method` and `interpolation`!\n(`interpolation` is Deprecated "
                            "in favor of `method`)");
    method = in.str(b["interpolation"]);
  }
  if (!isQuantileMethod(method))
    in.raise("ValueError", fmt::format("'{}' is not a valid method. Use one of: dict_keys(['inverted_cdf', "
                                       "'averaged_inverted_cdf', 'closest_observation', 'interpolated_inverted_cdf', "
                                       "'hazen', 'weibull', 'linear', 'median_unbiased', 'normal_unbiased', 'lower', "
                                       "'higher', 'midpoint', 'nearest'])", method));
  return method;
}

// quantile / percentile and (skipNan) nanquantile / nanpercentile, which take
// each lane's non-NaN values (an all-NaN lane gives NaN). The discrete
// methods read an element, so an integer array keeps its dtype (numpy's
// take); the others interpolate in float.
Value quantiles(Interpreter &in, const Bound &b, bool percent, bool skipNan, const char *fname) {
  std::string method = quantileMethod(in, b, fname);
  Tensor q = cast(asTensor(in, b["q"]), DType::Float64);
  Tensor a = asTensor(in, b["a"]);
  bool discrete = quantilePos(method, 0.5, 2).discrete;
  DType t = ir::isFloating(a.dtype()) || (discrete && a.dtype() != DType::Bool) ? a.dtype() : DType::Float64;
  SortedLanes s = sortedLanes(in, b["a"], b["axis"], in.truth(b["keepdims"]), t);
  if (s.len == 0) in.raise("IndexError", "index -1 is out of bounds for axis 0 with size 0");
  int64_t lanes = s.values.numElements() / s.len;
  Shape outShape = q.shape();
  outShape.insert(outShape.end(), s.kept.begin(), s.kept.end());
  // numpy's _lerp weighs with a float64 gamma array: for an array of
  // quantiles a float32 / float16 lane interpolates into float64 (b - a
  // still in the lane's type); a single q's 0-d gamma casts by value and
  // keeps the lane's type.
  bool wide = !discrete && q.rank() > 0 && t != DType::Float64;
  Tensor out = Tensor::empty(wide ? DType::Float64 : t, outShape);
  for (int64_t k = 0; k < q.numElements(); ++k) {
    double qq = q.data<double>()[k] / (percent ? 100.0 : 1.0);
    if (!(qq >= 0 && qq <= 1))
      in.raise("ValueError", percent ? "Percentiles must be in the range [0, 100]" : "Quantiles must be in the range [0, 1]");
  }
  visitNumeric(in, t, "quantile", [&](auto tag) {
    using T = decltype(tag);
    for (int64_t k = 0; k < q.numElements(); ++k) {
      double qq = q.data<double>()[k] / (percent ? 100.0 : 1.0);
      for (int64_t l = 0; l < lanes; ++l) {
        const T *lane = s.values.data<T>() + l * s.len;
        int64_t at = k * lanes + l;
        if constexpr (std::is_floating_point_v<T>) {
          int64_t len = laneLength(lane, s.len, skipNan);
          QuantilePos p = quantilePos(method, qq, std::max<int64_t>(len, 1));
          bool nan = len == 0 || std::isnan(lane[len - 1]);
          if (wide) {
            double diff = double(T(lane[p.hi] - lane[p.lo])), g = p.gamma;
            double r = g >= 0.5 ? double(lane[p.hi]) - diff * (1 - g) : double(lane[p.lo]) + diff * g;
            out.data<double>()[at] = nan ? double(NAN) : r;
          } else {
            T r = p.discrete ? lane[p.lo] : lerp(lane[p.lo], lane[p.hi], T(p.gamma));
            out.data<T>()[at] = nan ? T(NAN) : r;
          }
        } else {
          out.data<T>()[at] = lane[quantilePos(method, qq, s.len).lo];  // discrete methods only (t is float otherwise)
        }
      }
    }
  });
  return storeOut(in, b["out"], out, "quantile");
}

// numpy's median: the middle element, or the mean of the two middle ones
// (0 + lo + hi) / 2; NaN when the lane has a NaN.
Value median(Interpreter &in, const Bound &b, bool skipNan) {
  Tensor a = asTensor(in, b["a"]);
  DType t = ir::isFloating(a.dtype()) ? a.dtype() : DType::Float64;
  SortedLanes s = sortedLanes(in, b["a"], b["axis"], in.truth(b["keepdims"]), t);
  Tensor out = Tensor::empty(t, s.kept);
  visitElementType(t, [&](auto tag) {
    using T = decltype(tag);
    if constexpr (std::is_floating_point_v<T>) {
      int64_t lanes = s.len ? s.values.numElements() / s.len : out.numElements();
      for (int64_t l = 0; l < lanes; ++l) {
        const T *lane = s.len ? s.values.data<T>() + l * s.len : nullptr;
        int64_t len = s.len ? laneLength(lane, s.len, skipNan) : 0;
        if (len == 0) {
          out.data<T>()[l] = T(NAN);
          continue;
        }
        int64_t h = len / 2;
        T r = len % 2 ? lane[h] : T(T(T(0) + lane[h - 1]) + lane[h]) / T(2);
        if (std::isnan(lane[len - 1])) r = lane[len - 1];
        out.data<T>()[l] = r;
      }
    }
  });
  return storeOut(in, b["out"], out, "median");
}

Value average(Interpreter &in, const Bound &b) {
  bool keep = in.truth(b["keepdims"]);
  if (b.isNone("weights")) {
    const Def *mean = findFunction("mean");
    std::vector<Value> args{b["a"], b["axis"]};
    Kwargs kw{{"keepdims", Value::boolean(keep)}};
    Value avg = nativeWithSignature(in, mean->signature, mean->fn);
    Value r = in.call(avg, args, kw);
    if (!in.truth(b["returned"])) return r;
    Tensor x = asTensor(in, b["a"]);
    auto mask = axisMask(in, b["axis"], x.rank());
    int64_t n = 1;
    for (size_t i = 0; i < mask.size(); ++i)
      if (mask[i]) n *= x.shape()[i];
    Tensor rt = asTensor(in, r);
    return in.tuple({r, scalarOrArray(broadcastTo(cast(Tensor::scalar(double(n)), rt.dtype()), rt.shape()))});
  }
  Tensor a = asTensor(in, b["a"]), w = asTensor(in, b["weights"]);
  DType t = promoteTypes(promoteTypes(a.dtype(), w.dtype()), DType::Float64);
  if (a.shape() != w.shape()) {
    if (b.isNone("axis")) in.raise("TypeError", "Axis must be specified when shapes of a and weights differ.");
    if (w.rank() != 1) in.raise("TypeError", "1D weights expected when shapes of a and weights differ.");
    int64_t axis = normalizeAxis(in, in.toIndex(b["axis"]), int64_t(a.rank()));
    if (w.shape()[0] != a.shape()[size_t(axis)])
      in.raise("ValueError", "Length of weights not compatible with specified axis.");
    Shape ws(a.rank(), 1);
    ws[size_t(axis)] = w.shape()[0];
    w = broadcastTo(w.reshaped(ws), a.shape());
  }
  Tensor prod = runKernel(ir::OpKind::Mul, std::vector<Tensor>{cast(a, t), cast(w, t)}, {})[0];
  auto mask = axisMask(in, b["axis"], a.rank());
  Tensor num = reduceArray(prod, mask, ReduceOp::Sum, cStrides(a.shape()), keep);
  Tensor den = reduceArray(cast(w, t), mask, ReduceOp::Sum, cStrides(a.shape()), keep);
  Tensor r = Tensor::empty(t, num.shape());
  for (int64_t i = 0; i < r.numElements(); ++i) {
    double d = den.elementAsDouble(i);
    if (d == 0) in.raise("ZeroDivisionError", "Weights sum to zero, can't be normalized");
    r.data<double>()[i] = num.elementAsDouble(i) / d;
  }
  if (in.truth(b["returned"])) return in.tuple({scalarOrArray(r), scalarOrArray(den)});
  return scalarOrArray(r);
}

Value bincount(Interpreter &in, const Bound &b) {
  Tensor x = asTensor(in, b["x"]);
  if (x.rank() != 1) in.raise("ValueError", "object too deep for desired array");
  if (!ir::isInteger(x.dtype()) && x.dtype() != DType::Bool && x.numElements() > 0)
    in.raise("TypeError", "Cannot cast array data from dtype('float64') to dtype('int64') according to the rule 'safe'");
  int64_t n = in.toIndex(b["minlength"]);
  for (int64_t i = 0; i < x.numElements(); ++i) {
    int64_t v = x.elementAsInt(i);
    if (v < 0) in.raise("ValueError", "'list' argument must have no negative elements");
    n = std::max(n, v + 1);
  }
  if (b.isNone("weights")) {
    Tensor out = Tensor::empty(DType::Int64, {n});
    std::fill(out.data<int64_t>(), out.data<int64_t>() + n, 0);
    for (int64_t i = 0; i < x.numElements(); ++i) out.data<int64_t>()[x.elementAsInt(i)] += 1;
    return newArray(out);
  }
  Tensor w = cast(asTensor(in, b["weights"]), DType::Float64);
  if (w.shape() != x.shape()) in.raise("ValueError", "The weights and list don't have the same length.");
  Tensor out = Tensor::empty(DType::Float64, {n});
  std::fill(out.data<double>(), out.data<double>() + n, 0.0);
  for (int64_t i = 0; i < x.numElements(); ++i) out.data<double>()[x.elementAsInt(i)] += w.data<double>()[i];
  return newArray(out);
}

}  // namespace

namespace {
// np.lexsort: a stable argsort by the last key, ties broken by the one
// before it, and so on (numpy's order: NaN last). Keys are 1-d arrays of one
// length, given as a sequence or as the rows of a 2-d array.
Value lexsort(Interpreter &in, const Bound &b) {
  std::vector<Tensor> keys;
  if (TensorObject *a = ndarrayOf(b["keys"]); a && a->eager.rank() == 2) {
    Tensor t = a->eager;
    int64_t n = t.shape()[1];
    for (int64_t k = 0; k < t.shape()[0]; ++k) {
      std::vector<int64_t> flat(static_cast<size_t>(n));
      for (int64_t i = 0; i < n; ++i) flat[size_t(i)] = k * n + i;
      keys.push_back(gather(t, {n}, flat));
    }
  } else {
    for (const Value &k : in.toList(b["keys"])) keys.push_back(asTensor(in, k));
  }
  if (keys.empty()) in.raise("TypeError", "need sequence of keys with len > 0 in lexsort");
  int64_t axis = in.toInt(b["axis"]);
  for (const Tensor &k : keys) {
    if (k.rank() != 1)
      in.raise("NotImplementedError", "np.lexsort of keys that are not 1-d is not supported by tfs");
    if (k.numElements() != keys[0].numElements()) in.raise("ValueError", "all keys need to be the same shape");
  }
  if (axis != -1 && axis != 0) raiseAxisError(in, axis, 1);
  int64_t n = keys[0].numElements();
  std::vector<int64_t> order(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) order[size_t(i)] = i;
  // Sorting by each key from the first to the last, stably, leaves the last
  // key primary.
  for (const Tensor &k : keys) {
    visitElementType(k.dtype() == DType::Float16 ? DType::Float32 : k.dtype(), [&](auto tag) {
      using T = decltype(tag);
      Tensor key = k.dtype() == DType::Float16 ? widenHalf(k) : k;
      const T *p = key.data<T>();
      std::stable_sort(order.begin(), order.end(), [p](int64_t x, int64_t y) { return lessThan(p[x], p[y]); });
    });
  }
  Tensor out = Tensor::empty(DType::Int64, {n});
  std::copy(order.begin(), order.end(), out.data<int64_t>());
  return newArray(out);
}
}  // namespace

void addSortFunctions(Defs &defs) {
  auto add = [&](const char *sig, SignedFn fn) { defs.push_back({sig, std::move(fn)}); };
  add("sort(a, axis=-1, kind=None, order=None)", sortFn);
  add("argsort(a, axis=-1, kind=None, order=None)", argsortFn);
  add("unique(ar, return_index=False, return_inverse=False, return_counts=False, axis=None, *, equal_nan=True)", unique);
  add("searchsorted(a, v, side='left', sorter=None)", searchsorted);
  add("median(a, axis=None, out=None, overwrite_input=False, keepdims=False)",
      [](Interpreter &in, const Bound &b) { return median(in, b, false); });
  add("nanmedian(a, axis=None, out=None, overwrite_input=False, keepdims=False)",
      [](Interpreter &in, const Bound &b) { return median(in, b, true); });
#define TFS_QUANTILE_SIGNATURE(name) \
  name "(a, q, axis=None, out=None, overwrite_input=False, method='linear', keepdims=False, *, interpolation=None)"
  add(TFS_QUANTILE_SIGNATURE("percentile"), [](Interpreter &in, const Bound &b) { return quantiles(in, b, true, false, "percentile"); });
  add(TFS_QUANTILE_SIGNATURE("quantile"), [](Interpreter &in, const Bound &b) { return quantiles(in, b, false, false, "quantile"); });
  add(TFS_QUANTILE_SIGNATURE("nanpercentile"), [](Interpreter &in, const Bound &b) { return quantiles(in, b, true, true, "nanpercentile"); });
  add(TFS_QUANTILE_SIGNATURE("nanquantile"), [](Interpreter &in, const Bound &b) { return quantiles(in, b, false, true, "nanquantile"); });
#undef TFS_QUANTILE_SIGNATURE
  add("average(a, axis=None, weights=None, returned=False, *, keepdims=False)", average);
  add("bincount(x, /, weights=None, minlength=0)", bincount);
  add("lexsort(keys, axis=-1)", lexsort);
}

}  // namespace tfs::runtime::tf::numpy
