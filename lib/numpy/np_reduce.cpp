// numpy's reductions: sum, prod, mean, std, var, max, min, argmax, argmin,
// all, any, ptp, cumsum, cumprod, count_nonzero, average, and the nan*
// variants, with numpy's axis / keepdims / dtype / out / initial arguments
// and result dtypes (ints sum as int64, means of ints are float64, float32
// stays float32). mean/var/std follow numpy's _methods.py step by step
// (sum, then divide; var sums the squared deviations) so the floats match.
#include "ir/element_types.h"
#include "lib/numpy/reduce_engine.h"
#include "lib/numpy/ufunc.h"

#include <cmath>
#include <fmt/format.h>

namespace tfs::runtime::tf::numpy {

namespace {

struct Input {
  Tensor t;
  Shape mem;  // memory strides (the walk order)
};

Input input(Interpreter &in, const Value &v) {
  Input r{asTensor(in, v), {}};
  if (auto *a = ndarrayOf(v); a && a->view) r.mem = a->view->strides;
  else r.mem = cStrides(r.t.shape());
  return r;
}

DType sumDType(Interpreter &in, DType d) {
  if (d == DType::String) in.raise("TypeError", "cannot perform reduce with flexible type");
  // numpy adds small integers in the platform's long (unsigned ones in its
  // unsigned long).
  if (d == DType::Bool || d == DType::Int8 || d == DType::Int16 || d == DType::Int32) return DType::Int64;
  if (d == DType::UInt8 || d == DType::UInt16 || d == DType::UInt32) return DType::UInt64;
  return d;
}

int64_t reducedCount(const Shape &shape, const std::vector<bool> &mask) {
  int64_t n = 1;
  for (size_t i = 0; i < shape.size(); ++i)
    if (mask[i]) n *= shape[i];
  return n;
}

std::optional<double> initialParam(Interpreter &in, const Bound &a) {
  if (a.isNone("initial")) return std::nullopt;
  return in.toFloat(a["initial"]);
}

const char *opName(ReduceOp op) {
  switch (op) {
  case ReduceOp::Sum: return "add";
  case ReduceOp::Prod: return "multiply";
  case ReduceOp::Max: return "maximum";
  case ReduceOp::Min: return "minimum";
  case ReduceOp::All: return "logical_and";
  case ReduceOp::Any: return "logical_or";
  }
  return "";
}

// A reduction's where= mask broadcast to the array's shape; nullopt for
// where=True (everything counts).
std::optional<Tensor> whereMask(Interpreter &in, const Bound &a, const Shape &shape) {
  const Value &w = a["where"];
  if (w.isBool() && w.asBool()) return std::nullopt;
  Tensor m = asTensor(in, w);
  if (m.dtype() == DType::String) in.raise("TypeError", "Cannot cast array data from dtype('<U') to dtype('bool')");
  m = cast(m, DType::Bool);
  if (broadcastShapes(in, {m.shape(), shape}) != shape)
    in.raise("ValueError", fmt::format("operands could not be broadcast together with shapes {} {}", shapeText(m.shape()),
                                       shapeText(shape)));
  return broadcastTo(m, shape);
}

// x with the elements outside the where= mask replaced by `fill` (the
// reduction's identity or initial value): numpy's masked loop skips them.
// (numpy adds each run of unmasked elements pairwise; with the masked
// elements as zeros the pairwise blocks differ, so float sums of more than
// eight elements may differ from numpy's in the last bit.)
Tensor masked(const Tensor &x, const std::optional<Tensor> &where, double fill) {
  if (!where) return x;
  Tensor out = x.copy();
  const bool *keep = where->data<bool>();
  numpy::visitElementType(x.dtype(), [&](auto tag) {
    using T = decltype(tag);
    if constexpr (!std::is_same_v<T, std::string>) {
      T *p = out.data<T>();
      for (int64_t i = 0; i < out.numElements(); ++i)
        if (!keep[i]) p[i] = ir::numericCast<double, T>(fill);
    }
  });
  return out;
}

// How many elements of each reduced slice the where= mask keeps.
Tensor keptCounts(const std::optional<Tensor> &where, const Shape &shape, const std::vector<bool> &mask, const Shape &mem,
                  bool keepdims) {
  Tensor ones = Tensor::empty(DType::Int64, shape);
  for (int64_t i = 0; i < ones.numElements(); ++i) ones.data<int64_t>()[i] = where ? where->data<bool>()[i] : 1;
  return reduceArray(ones, mask, ReduceOp::Sum, mem, keepdims);
}

Value sumLike(Interpreter &in, const Bound &a, ReduceOp op) {
  Input x = input(in, a["a"]);
  std::optional<DType> d = dtypeParam(in, a["dtype"]);
  DType acc = d.value_or(sumDType(in, x.t.dtype()));
  auto mask = axisMask(in, a["axis"], x.t.rank());
  auto where = whereMask(in, a, x.t.shape());
  Tensor r = reduceArray(masked(cast(x.t, acc), where, op == ReduceOp::Sum ? 0 : 1), mask, op, x.mem,
                         in.truth(a["keepdims"]), initialParam(in, a));
  return storeOut(in, a["out"], r, opName(op));
}

Value extremum(Interpreter &in, const Bound &a, ReduceOp op) {
  Input x = input(in, a["a"]);
  if (x.t.dtype() == DType::String) in.raise("TypeError", "cannot perform reduce with flexible type");
  auto mask = axisMask(in, a["axis"], x.t.rank());
  auto init = initialParam(in, a);
  auto where = whereMask(in, a, x.t.shape());
  if (where && !init)
    in.raise("ValueError", fmt::format("reduction operation '{}' does not have an identity, so to use a where mask one "
                                       "has to specify 'initial'",
                                       opName(op)));
  if (reducedCount(x.t.shape(), mask) == 0 && !init)
    in.raise("ValueError", fmt::format("zero-size array to reduction operation {} which has no identity", opName(op)));
  Tensor r = reduceArray(masked(x.t, where, init.value_or(0)), mask, op, x.mem, in.truth(a["keepdims"]), init);
  return storeOut(in, a["out"], r, opName(op));
}

Value logical(Interpreter &in, const Bound &a, ReduceOp op) {
  Input x = input(in, a["a"]);
  auto mask = axisMask(in, a["axis"], x.t.rank());
  Tensor b = x.t.dtype() == DType::String ? Tensor() : cast(x.t, DType::Bool);
  if (!b.valid()) in.raise("TypeError", "cannot perform reduce with flexible type");
  b = masked(b, whereMask(in, a, x.t.shape()), op == ReduceOp::All ? 1 : 0);
  Tensor r = reduceArray(b, mask, op, x.mem, in.truth(a["keepdims"]));
  return storeOut(in, a["out"], r, opName(op));
}

// sum / count as numpy's _mean divides: arrays by true_divide in the sum's
// dtype, a scalar sum through float64 and back (`ret.dtype.type(ret / n)`).
Tensor divideBy(const Tensor &sum, double count, bool scalar) {
  Tensor out = Tensor::empty(sum.dtype(), sum.shape());
  numpy::visitElementType(sum.dtype(), [&](auto tag) {
    using T = decltype(tag);
    if constexpr (!std::is_same_v<T, std::string>) {
      const T *s = sum.data<T>();
      T *o = out.data<T>();
      for (int64_t i = 0; i < sum.numElements(); ++i) {
        if constexpr (ir::isComplexType<T>) {
          // numpy's complex true_divide by (count + 0j): scaled by the reciprocal.
          using R = typename T::value_type;
          R rat = R(0) / R(count), scl = R(1) / (R(count) + R(0) * rat);
          o[i] = T((s[i].real() + s[i].imag() * rat) * scl, (s[i].imag() - s[i].real() * rat) * scl);
        }
        else if constexpr (std::is_same_v<T, float>) o[i] = scalar ? float(double(s[i]) / count) : s[i] / float(count);
        else o[i] = ir::numericCast<double, T>(double(s[i]) / count);
      }
    }
  });
  return out;
}

// sum / counts elementwise, as numpy's _mean divides when where= makes the
// count an array (true_divide by an intp array: float64 division, cast
// back). An empty slice gives NaN with numpy's warning.
Tensor divideByCounts(Interpreter &in, const Tensor &sum, const Tensor &counts) {
  Tensor out = Tensor::empty(sum.dtype(), sum.shape());
  bool empty = false;
  for (int64_t i = 0; i < sum.numElements(); ++i) {
    int64_t c = counts.data<int64_t>()[i];
    empty |= c <= 0;
    Tensor one = Tensor::empty(sum.dtype(), {});
    numpy::visitElementType(sum.dtype(), [&](auto tag) {
      using T = decltype(tag);
      if constexpr (!std::is_same_v<T, std::string>) one.data<T>()[0] = sum.data<T>()[i];
    });
    one = divideBy(one, double(c), true);
    numpy::visitElementType(sum.dtype(), [&](auto tag) {
      using T = decltype(tag);
      if constexpr (!std::is_same_v<T, std::string>) out.data<T>()[i] = one.data<T>()[0];
    });
  }
  if (empty) {
    frontend::SourceSpan here = in.currentSpan();
    Value warnings = in.importModule("warnings");
    in.restoreSpan(here);
    in.call(in.getAttr(warnings, "warn"),
            std::vector<Value>{in.str("Mean of empty slice."), in.builtins()->vars["RuntimeWarning"]});
    in.restoreSpan(here);
  }
  return out;
}

// numpy's _mean / _var accumulate ints in float64 and float16 in float32
// (the result is cast back to float16).
DType meanDType(Interpreter &in, DType d, std::optional<DType> requested) {
  if (requested) return *requested;
  if (d == DType::String) in.raise("TypeError", "cannot perform reduce with flexible type");
  if (d == DType::Float16) return DType::Float32;
  return ir::isFloating(d) || ir::isComplex(d) ? d : DType::Float64;
}

Value mean(Interpreter &in, const Bound &a) {
  Input x = input(in, a["a"]);
  DType acc = meanDType(in, x.t.dtype(), dtypeParam(in, a["dtype"]));
  auto mask = axisMask(in, a["axis"], x.t.rank());
  bool keepdims = in.truth(a["keepdims"]);
  auto where = whereMask(in, a, x.t.shape());
  Tensor sum = reduceArray(masked(cast(x.t, acc), where, 0), mask, ReduceOp::Sum, x.mem, keepdims);
  Tensor r = where ? divideByCounts(in, sum, keptCounts(where, x.t.shape(), mask, x.mem, keepdims))
                   : divideBy(sum, double(reducedCount(x.t.shape(), mask)), sum.rank() == 0);
  if (a.isNone("dtype")) r = narrowLike(r, x.t.dtype());
  return storeOut(in, a["out"], r, "true_divide");
}

// numpy's _var: mean with keepdims, squared deviations, their sum / (n - ddof).
Tensor variance(Interpreter &in, const Bound &a, Input &x, std::vector<bool> &mask) {
  std::optional<DType> requested = dtypeParam(in, a["dtype"]);
  if (x.t.dtype() == DType::String) in.raise("TypeError", "cannot perform reduce with flexible type");
  // float16 stays float16 throughout (numpy's _var has no float32 step).
  bool complex = ir::isComplex(x.t.dtype());
  if (!requested && !ir::isFloating(x.t.dtype()) && !complex) requested = DType::Float64;
  DType acc = requested.value_or(x.t.dtype());
  auto where = whereMask(in, a, x.t.shape());
  Tensor meanSum = reduceArray(masked(cast(x.t, acc), where, 0), mask, ReduceOp::Sum, x.mem, true);
  double n = double(reducedCount(x.t.shape(), mask));
  Tensor m = where ? divideByCounts(in, meanSum, keptCounts(where, x.t.shape(), mask, x.mem, true))
                   : divideBy(meanSum, n, false);
  DType devType = promoteTypes(x.t.dtype(), m.dtype());
  Tensor xs = cast(x.t, devType), ms = broadcastTo(cast(m, devType), x.t.shape());
  // A complex deviation d counts as |d|^2 = re*re + im*im in the real type
  // (numpy's _var squares the two halves and adds them).
  DType sqType = devType == DType::Complex64 ? DType::Float32 : devType == DType::Complex128 ? DType::Float64 : devType;
  Tensor dev = Tensor::empty(sqType, x.t.shape());
  numpy::visitElementType(devType, [&](auto tag) {
    using T = decltype(tag);
    if constexpr (ir::isComplexType<T>) {
      using R = typename T::value_type;
      for (int64_t i = 0; i < dev.numElements(); ++i) {
        T d = xs.data<T>()[i];
        T mv = ms.data<T>()[i];
        R re = d.real() - mv.real(), im = d.imag() - mv.imag();
        dev.data<R>()[i] = re * re + im * im;
      }
    } else if constexpr (!std::is_same_v<T, std::string> && !std::is_same_v<T, bool>) {
      for (int64_t i = 0; i < dev.numElements(); ++i) {
        T d = T(xs.data<T>()[i] - ms.data<T>()[i]);
        dev.data<T>()[i] = T(d * d);
      }
    }
  });
  bool keepdims = in.truth(a["keepdims"]);
  Tensor sq = reduceArray(masked(complex ? dev : cast(dev, requested.value_or(devType)), where, 0), mask, ReduceOp::Sum,
                          x.mem, keepdims);
  int64_t ddof = in.toInt(a["ddof"]);
  if (where) {
    Tensor counts = keptCounts(where, x.t.shape(), mask, x.mem, keepdims);
    for (int64_t i = 0; i < counts.numElements(); ++i)
      counts.data<int64_t>()[i] = std::max<int64_t>(counts.data<int64_t>()[i] - ddof, 0);
    return divideByCounts(in, sq, counts);
  }
  double count = std::max(n - double(ddof), 0.0);
  return divideBy(sq, count, sq.rank() == 0);
}

Value var(Interpreter &in, const Bound &a) {
  Input x = input(in, a["a"]);
  auto mask = axisMask(in, a["axis"], x.t.rank());
  return storeOut(in, a["out"], variance(in, a, x, mask), "true_divide");
}

Value stddev(Interpreter &in, const Bound &a) {
  Input x = input(in, a["a"]);
  auto mask = axisMask(in, a["axis"], x.t.rank());
  Tensor v = variance(in, a, x, mask);
  numpy::visitElementType(v.dtype(), [&](auto tag) {
    using T = decltype(tag);
    if constexpr (std::is_floating_point_v<T>)
      for (int64_t i = 0; i < v.numElements(); ++i) v.data<T>()[i] = std::sqrt(v.data<T>()[i]);
    else if constexpr (ir::isHalfType<T>)
      for (int64_t i = 0; i < v.numElements(); ++i) v.data<T>()[i] = T(std::sqrt(float(v.data<T>()[i])));
  });
  return storeOut(in, a["out"], v, "sqrt");
}

// argmax / argmin along one axis (None: of the flattened array); the first
// extreme wins, and the first NaN beats everything.
Value argExtreme(Interpreter &in, const Bound &a, bool isMax, std::optional<Tensor> input = std::nullopt) {
  Tensor x = widenHalf(input ? *input : asTensor(in, a["a"]));
  bool flat = a.isNone("axis");
  Shape origShape = x.shape();
  if (flat) x = x.reshaped({x.numElements()});
  int64_t axis = flat ? 0 : normalizeAxis(in, in.toIndex(a["axis"]), int64_t(x.rank()));
  if (x.rank() == 0) x = x.reshaped({1});
  const Shape &shape = x.shape();
  int64_t len = shape[size_t(axis)];
  if (len == 0)
    in.raise("ValueError", fmt::format("attempt to get {} of an empty sequence", isMax ? "argmax" : "argmin"));
  int64_t outer = 1, inner = 1;
  for (int64_t d = 0; d < axis; ++d) outer *= shape[size_t(d)];
  for (size_t d = size_t(axis) + 1; d < shape.size(); ++d) inner *= shape[d];
  Shape outShape;
  for (size_t d = 0; d < shape.size(); ++d)
    if (int64_t(d) != axis) outShape.push_back(shape[d]);
  Tensor out = Tensor::empty(DType::Int64, outShape);
  auto search = [&](auto tag) {
    using T = decltype(tag);
    const T *p = x.data<T>();
    for (int64_t o = 0; o < outer; ++o)
      for (int64_t i = 0; i < inner; ++i) {
        int64_t best = 0;
        T bv = p[o * len * inner + i];
        for (int64_t k = 1; k < len; ++k) {
          T v = p[(o * len + k) * inner + i];
          bool better;
          if constexpr (ir::isComplexType<T>) {
            // numpy's complex argmax: lexicographic, the first NaN (in either part) wins.
            if (std::isnan(bv.real()) || std::isnan(bv.imag())) break;
            auto above = [](T p, T q) { return p.real() > q.real() || (p.real() == q.real() && p.imag() > q.imag()); };
            better = (isMax ? above(v, bv) : above(bv, v)) || std::isnan(v.real()) || std::isnan(v.imag());
          } else {
            if constexpr (std::is_floating_point_v<T>)
              if (std::isnan(bv)) break;
            better = isMax ? v > bv : v < bv;
            if constexpr (std::is_floating_point_v<T>) better = better || std::isnan(v);
          }
          if (better) {
            best = k;
            bv = v;
          }
        }
        out.data<int64_t>()[o * inner + i] = best;
      }
  };
  if (x.dtype() == DType::Complex64) search(ir::complex64{});
  else if (x.dtype() == DType::Complex128) search(ir::complex128{});
  else numpy::visitNumeric(in, x.dtype(), "argmax", search);
  if (in.truth(a["keepdims"])) {
    Shape kept = flat ? Shape(origShape.size(), 1) : shape;
    if (!flat) kept[size_t(axis)] = 1;
    out = out.reshaped(kept);
  }
  return storeOut(in, a["out"], out, isMax ? "argmax" : "argmin");
}

// cumsum / cumprod: sequential along the axis (None: flattened).
Value cumulative(Interpreter &in, const Bound &a, bool product, std::optional<Tensor> input = std::nullopt) {
  Tensor x = input ? *input : asTensor(in, a["a"]);
  std::optional<DType> d = dtypeParam(in, a["dtype"]);
  x = cast(x, d.value_or(sumDType(in, x.dtype())));
  bool flat = a.isNone("axis");
  if (flat) x = x.reshaped({x.numElements()});
  if (x.rank() == 0) x = x.reshaped({1});
  int64_t axis = flat ? 0 : normalizeAxis(in, in.toIndex(a["axis"]), int64_t(x.rank()));
  const Shape &shape = x.shape();
  int64_t len = shape[size_t(axis)], outer = 1, inner = 1;
  for (int64_t k = 0; k < axis; ++k) outer *= shape[size_t(k)];
  for (size_t k = size_t(axis) + 1; k < shape.size(); ++k) inner *= shape[k];
  Tensor out = Tensor::empty(x.dtype(), shape);
  auto run = [&](auto tag) {
    using T = decltype(tag);
    auto step = [product](T acc, T v) {
      if constexpr (ir::isComplexType<T>) {  // numpy's complex add / multiply loops
        if (product) return T(acc.real() * v.real() - acc.imag() * v.imag(), acc.real() * v.imag() + acc.imag() * v.real());
        return T(acc.real() + v.real(), acc.imag() + v.imag());
      } else {
        return product ? T(acc * v) : T(acc + v);
      }
    };
    if constexpr (!std::is_same_v<T, bool>) {
      for (int64_t o = 0; o < outer; ++o)
        for (int64_t i = 0; i < inner; ++i) {
          T acc = product ? T(1) : T(0);
          for (int64_t k = 0; k < len; ++k) {
            int64_t at = (o * len + k) * inner + i;
            acc = step(acc, x.data<T>()[at]);
            out.data<T>()[at] = acc;
          }
        }
    }
  };
  if (x.dtype() == DType::Complex64) run(ir::complex64{});
  else if (x.dtype() == DType::Complex128) run(ir::complex128{});
  else numpy::visitNumeric(in, x.dtype(), "cumsum", run);
  return storeOut(in, a["out"], out, product ? "multiply" : "add", false);
}

Value ptp(Interpreter &in, const Bound &a) {
  Input x = input(in, a["a"]);
  auto mask = axisMask(in, a["axis"], x.t.rank());
  if (reducedCount(x.t.shape(), mask) == 0)
    in.raise("ValueError", "zero-size array to reduction operation maximum which has no identity");
  bool keep = in.truth(a["keepdims"]);
  Tensor hi = reduceArray(x.t, mask, ReduceOp::Max, x.mem, keep), lo = reduceArray(x.t, mask, ReduceOp::Min, x.mem, keep);
  Tensor r = runKernel(ir::OpKind::Sub, std::vector<Tensor>{hi, lo}, {})[0];
  return storeOut(in, a["out"], r, "subtract");
}

Value countNonzero(Interpreter &in, const Bound &a) {
  Input x = input(in, a["a"]);
  auto mask = axisMask(in, a["axis"], x.t.rank());
  Tensor b = x.t.dtype() == DType::String ? Tensor::empty(DType::Bool, x.t.shape()) : cast(x.t, DType::Bool);
  if (x.t.dtype() == DType::String)
    for (int64_t i = 0; i < b.numElements(); ++i) b.data<bool>()[i] = !x.t.data<std::string>()[i].empty();
  Tensor r = reduceArray(cast(b, DType::Int64), mask, ReduceOp::Sum, x.mem, in.truth(a["keepdims"]));
  if (a.isNone("axis") && !in.truth(a["keepdims"])) return Value::integer(r.data<int64_t>()[0]);
  return scalarOrArray(r);
}

// nansum / nanmean / nanmax / nanmin: NaNs replaced by the identity (or
// skipped) as numpy's nanfunctions do.
Tensor withoutNans(const Tensor &x, double replacement) {
  if (!ir::isFloating(x.dtype())) return x;
  Tensor out = x.copy();
  numpy::visitElementType(x.dtype(), [&](auto tag) {
    using T = decltype(tag);
    if constexpr (std::is_floating_point_v<T> || ir::isHalfType<T>)
      for (int64_t i = 0; i < out.numElements(); ++i)
        if (std::isnan(float(out.data<T>()[i]))) out.data<T>()[i] = T(replacement);
  });
  return out;
}

Value nanReduce(Interpreter &in, const Bound &a, ReduceOp op) {
  Input x = input(in, a["a"]);
  auto mask = axisMask(in, a["axis"], x.t.rank());
  bool keep = in.truth(a["keepdims"]);
  if (op == ReduceOp::Sum || op == ReduceOp::Prod) {
    DType acc = dtypeParam(in, a["dtype"]).value_or(sumDType(in, x.t.dtype()));
    double identity = op == ReduceOp::Sum ? 0 : 1;
    Tensor filled = masked(cast(withoutNans(x.t, identity), acc), whereMask(in, a, x.t.shape()), identity);
    return storeOut(in, a["out"], reduceArray(filled, mask, op, x.mem, keep), opName(op));
  }
  double fill = op == ReduceOp::Max ? -INFINITY : INFINITY;
  DType original = x.t.dtype();
  x.t = widenHalf(x.t);  // extrema are exact in float32
  Tensor r = reduceArray(withoutNans(x.t, fill), mask, op, x.mem, keep);
  // All-NaN slices give NaN (numpy also warns).
  if (ir::isFloating(x.t.dtype())) {
    Tensor isnan = Tensor::empty(DType::Bool, x.t.shape());
    for (int64_t i = 0; i < x.t.numElements(); ++i) isnan.data<bool>()[i] = std::isnan(x.t.elementAsDouble(i));
    Tensor allNan = reduceArray(isnan, mask, ReduceOp::All, x.mem, keep);
    for (int64_t i = 0; i < r.numElements(); ++i)
      if (allNan.data<bool>()[i] && x.t.numElements() > 0) {
        if (r.dtype() == DType::Float32) r.data<float>()[i] = NAN;
        else r.data<double>()[i] = NAN;
      }
  }
  return storeOut(in, a["out"], narrowLike(r, original), op == ReduceOp::Max ? "fmax" : "fmin");
}

Value nanMean(Interpreter &in, const Bound &a) {
  Input x = input(in, a["a"]);
  auto mask = axisMask(in, a["axis"], x.t.rank());
  bool keep = in.truth(a["keepdims"]);
  // numpy's nanmean sums float16 in float16 (np.sum), not float32 as np.mean does.
  std::optional<DType> requested = dtypeParam(in, a["dtype"]);
  DType acc = !requested && x.t.dtype() == DType::Float16 ? DType::Float16 : meanDType(in, x.t.dtype(), requested);
  auto where = whereMask(in, a, x.t.shape());
  Tensor sum = reduceArray(masked(cast(withoutNans(x.t, 0), acc), where, 0), mask, ReduceOp::Sum, x.mem, keep);
  Tensor valid = Tensor::empty(DType::Int64, x.t.shape());
  for (int64_t i = 0; i < x.t.numElements(); ++i)
    valid.data<int64_t>()[i] = !std::isnan(x.t.elementAsDouble(i)) && (!where || where->data<bool>()[i]);
  Tensor counts = reduceArray(valid, mask, ReduceOp::Sum, x.mem, keep);
  Tensor out = Tensor::empty(sum.dtype(), sum.shape());
  for (int64_t i = 0; i < sum.numElements(); ++i) {
    Tensor one = divideBy(Tensor::fromDoubles(sum.dtype(), {}, {sum.elementAsDouble(i)}), double(counts.data<int64_t>()[i]),
                          sum.rank() == 0);
    numpy::visitElementType(sum.dtype(), [&](auto tag) {
      using T = decltype(tag);
      out.data<T>()[i] = one.data<T>()[0];
    });
  }
  return storeOut(in, a["out"], out, "true_divide");
}

Tensor isNanMask(const Tensor &x) {
  Tensor m = Tensor::empty(DType::Bool, x.shape());
  for (int64_t i = 0; i < x.numElements(); ++i) m.data<bool>()[i] = std::isnan(x.elementAsDouble(i));
  return m;
}

// numpy's nanvar step by step (nanfunctions.py): NaNs become 0, the mean of
// the rest (sum / count, kept dims), deviations with NaNs zeroed, their
// squares summed and divided by count - ddof (NaN where that is <= 0).
Tensor nanVariance(Interpreter &in, const Bound &a, Input &x, std::vector<bool> &mask) {
  if (!ir::isFloating(x.t.dtype())) return variance(in, a, x, mask);
  std::optional<DType> requested = dtypeParam(in, a["dtype"]);
  Tensor isnan = isNanMask(x.t);
  Tensor arr = withoutNans(x.t, 0);
  DType acc = requested.value_or(arr.dtype());
  Tensor notNan = Tensor::empty(DType::Int64, x.t.shape());
  for (int64_t i = 0; i < notNan.numElements(); ++i) notNan.data<int64_t>()[i] = !isnan.data<bool>()[i];
  Tensor cnt = reduceArray(notNan, mask, ReduceOp::Sum, x.mem, true);
  Tensor avg = reduceArray(cast(arr, acc), mask, ReduceOp::Sum, x.mem, true);
  Tensor avgDiv = Tensor::empty(avg.dtype(), avg.shape());
  for (int64_t i = 0; i < avg.numElements(); ++i) {
    Tensor one = divideBy(Tensor::fromDoubles(avg.dtype(), {}, {avg.elementAsDouble(i)}), double(cnt.data<int64_t>()[i]), false);
    visitElementType(avg.dtype(), [&](auto tag) {
      using T = decltype(tag);
      avgDiv.data<T>()[i] = one.data<T>()[0];
    });
  }
  // np.subtract(arr, avg, out=arr, casting='unsafe'), then NaN places zeroed.
  Tensor dev = cast(applyBinary(in, Binary::Subtract, newArray(arr), newArray(avgDiv)), arr.dtype());
  for (int64_t i = 0; i < dev.numElements(); ++i)
    if (isnan.data<bool>()[i]) visitElementType(dev.dtype(), [&](auto tag) {
        using T = decltype(tag);
        if constexpr (!std::is_same_v<T, std::string>) dev.data<T>()[i] = T(0);
      });
  Tensor sqr = applyBinary(in, Binary::Multiply, newArray(dev), newArray(dev));
  bool keep = in.truth(a["keepdims"]);
  Tensor var = reduceArray(cast(sqr, acc), mask, ReduceOp::Sum, x.mem, keep);
  int64_t ddof = in.toInt(a["ddof"]);
  Tensor out = Tensor::empty(var.dtype(), var.shape());
  for (int64_t i = 0; i < var.numElements(); ++i) {
    int64_t dof = cnt.data<int64_t>()[i] - ddof;
    Tensor one = divideBy(Tensor::fromDoubles(var.dtype(), {}, {var.elementAsDouble(i)}), double(dof), var.rank() == 0);
    if (dof <= 0) one = Tensor::fromDoubles(var.dtype(), {}, {NAN});
    visitElementType(var.dtype(), [&](auto tag) {
      using T = decltype(tag);
      out.data<T>()[i] = one.data<T>()[0];
    });
  }
  return out;
}

Value nanVar(Interpreter &in, const Bound &a, bool root) {
  Input x = input(in, a["a"]);
  auto mask = axisMask(in, a["axis"], x.t.rank());
  Tensor v = nanVariance(in, a, x, mask);
  if (root) v = applyUnary(in, Unary::Sqrt, newArray(v));
  return storeOut(in, a["out"], v, root ? "sqrt" : "true_divide");
}

// nanargmax / nanargmin: NaNs become -inf / +inf; an all-NaN slice is an error.
Value nanArgExtreme(Interpreter &in, const Bound &a, bool isMax) {
  Tensor x = asTensor(in, a["a"]);
  if (!ir::isFloating(x.dtype())) return argExtreme(in, a, isMax);
  Tensor isnan = isNanMask(x);
  std::vector<bool> mask = a.isNone("axis") ? std::vector<bool>(x.rank(), true) : axisMask(in, a["axis"], x.rank());
  Tensor allNan = reduceArray(isnan, mask, ReduceOp::All, cStrides(x.shape()), false);
  for (int64_t i = 0; i < allNan.numElements(); ++i)
    if (allNan.data<bool>()[i] && x.numElements() > 0) in.raise("ValueError", "All-NaN slice encountered");
  return argExtreme(in, a, isMax, withoutNans(x, isMax ? -INFINITY : INFINITY));
}

}  // namespace

void addReductionFunctions(Defs &defs) {
  auto add = [&](const char *sig, SignedFn fn) { defs.push_back({sig, std::move(fn)}); };
  add("sum(a, axis=None, dtype=None, out=None, keepdims=False, initial=None, where=True)",
      [](Interpreter &in, const Bound &a) { return sumLike(in, a, ReduceOp::Sum); });
  add("prod(a, axis=None, dtype=None, out=None, keepdims=False, initial=None, where=True)",
      [](Interpreter &in, const Bound &a) { return sumLike(in, a, ReduceOp::Prod); });
  for (const char *sig : {"max(a, axis=None, out=None, keepdims=False, initial=None, where=True)",
                          "amax(a, axis=None, out=None, keepdims=False, initial=None, where=True)"})
    add(sig, [](Interpreter &in, const Bound &a) { return extremum(in, a, ReduceOp::Max); });
  for (const char *sig : {"min(a, axis=None, out=None, keepdims=False, initial=None, where=True)",
                          "amin(a, axis=None, out=None, keepdims=False, initial=None, where=True)"})
    add(sig, [](Interpreter &in, const Bound &a) { return extremum(in, a, ReduceOp::Min); });
  add("all(a, axis=None, out=None, keepdims=False, *, where=True)",
      [](Interpreter &in, const Bound &a) { return logical(in, a, ReduceOp::All); });
  add("any(a, axis=None, out=None, keepdims=False, *, where=True)",
      [](Interpreter &in, const Bound &a) { return logical(in, a, ReduceOp::Any); });
  add("mean(a, axis=None, dtype=None, out=None, keepdims=False, *, where=True)", mean);
  add("var(a, axis=None, dtype=None, out=None, ddof=0, keepdims=False, *, where=True)", var);
  add("std(a, axis=None, dtype=None, out=None, ddof=0, keepdims=False, *, where=True)", stddev);
  add("argmax(a, axis=None, out=None, *, keepdims=False)",
      [](Interpreter &in, const Bound &a) { return argExtreme(in, a, true); });
  add("argmin(a, axis=None, out=None, *, keepdims=False)",
      [](Interpreter &in, const Bound &a) { return argExtreme(in, a, false); });
  add("cumsum(a, axis=None, dtype=None, out=None)",
      [](Interpreter &in, const Bound &a) { return cumulative(in, a, false); });
  add("cumprod(a, axis=None, dtype=None, out=None)",
      [](Interpreter &in, const Bound &a) { return cumulative(in, a, true); });
  add("ptp(a, axis=None, out=None, keepdims=False)", ptp);
  add("count_nonzero(a, axis=None, *, keepdims=False)", countNonzero);
  add("nansum(a, axis=None, dtype=None, out=None, keepdims=False, initial=!None, where=True)",
      [](Interpreter &in, const Bound &a) { return nanReduce(in, a, ReduceOp::Sum); });
  add("nanmax(a, axis=None, out=None, keepdims=False, initial=!None, where=!True)",
      [](Interpreter &in, const Bound &a) { return nanReduce(in, a, ReduceOp::Max); });
  add("nanmin(a, axis=None, out=None, keepdims=False, initial=!None, where=!True)",
      [](Interpreter &in, const Bound &a) { return nanReduce(in, a, ReduceOp::Min); });
  add("nanmean(a, axis=None, dtype=None, out=None, keepdims=False, *, where=True)", nanMean);
  add("nanprod(a, axis=None, dtype=None, out=None, keepdims=False, initial=!None, where=True)",
      [](Interpreter &in, const Bound &a) { return nanReduce(in, a, ReduceOp::Prod); });
  add("nanvar(a, axis=None, dtype=None, out=None, ddof=0, keepdims=False, *, where=!True)",
      [](Interpreter &in, const Bound &a) { return nanVar(in, a, false); });
  add("nanstd(a, axis=None, dtype=None, out=None, ddof=0, keepdims=False, *, where=!True)",
      [](Interpreter &in, const Bound &a) { return nanVar(in, a, true); });
  add("nanargmax(a, axis=None, out=None, *, keepdims=False)",
      [](Interpreter &in, const Bound &a) { return nanArgExtreme(in, a, true); });
  add("nanargmin(a, axis=None, out=None, *, keepdims=False)",
      [](Interpreter &in, const Bound &a) { return nanArgExtreme(in, a, false); });
  add("nancumsum(a, axis=None, dtype=None, out=None)", [](Interpreter &in, const Bound &a) {
    return cumulative(in, a, false, withoutNans(asTensor(in, a["a"]), 0));
  });
  add("nancumprod(a, axis=None, dtype=None, out=None)", [](Interpreter &in, const Bound &a) {
    return cumulative(in, a, true, withoutNans(asTensor(in, a["a"]), 1));
  });
}

}  // namespace tfs::runtime::tf::numpy
