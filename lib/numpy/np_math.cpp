// np.<ufunc> functions (add, exp, maximum, ...) and numpy's elementwise
// helpers built on them: round / around, clip, where, isclose, allclose,
// array_equal, nan_to_num, and the one-argument where (nonzero).
#include "lib/numpy/ufunc.h"
#include "lib/numpy/ufunc_kwargs.h"

#include <cmath>
#include <complex>
#include <deque>
#include <fmt/format.h>
#include <limits>

namespace tfs::runtime::tf::numpy {

namespace {

// numpy's ufunc keyword arguments (where=, casting=, order=, subok=:
// np_ufunc_kwargs.cpp); a ufunc signature= or extobj= is not implemented.
#define UFUNC_KW "out=None, *, where=True, casting='same_kind', order='K', dtype=None, subok=True, signature=!None, extobj=!None"

struct UnarySpec {
  const char *name;
  Unary op;
};
constexpr UnarySpec kUnary[] = {
    {"negative", Unary::Negative}, {"positive", Unary::Positive}, {"absolute", Unary::Absolute},
    {"abs", Unary::Absolute}, {"fabs", Unary::Absolute}, {"sign", Unary::Sign}, {"sqrt", Unary::Sqrt},
    {"square", Unary::Square}, {"exp", Unary::Exp}, {"exp2", Unary::Exp2}, {"expm1", Unary::Expm1},
    {"log", Unary::Log}, {"log2", Unary::Log2}, {"log10", Unary::Log10}, {"log1p", Unary::Log1p},
    {"sin", Unary::Sin}, {"cos", Unary::Cos}, {"tan", Unary::Tan}, {"arcsin", Unary::Arcsin},
    {"arccos", Unary::Arccos}, {"arctan", Unary::Arctan}, {"sinh", Unary::Sinh}, {"cosh", Unary::Cosh},
    {"tanh", Unary::Tanh}, {"arcsinh", Unary::Arcsinh}, {"arccosh", Unary::Arccosh}, {"arctanh", Unary::Arctanh},
    {"floor", Unary::Floor}, {"ceil", Unary::Ceil}, {"trunc", Unary::Trunc}, {"fix", Unary::Trunc},
    {"rint", Unary::Rint}, {"reciprocal", Unary::Reciprocal}, {"cbrt", Unary::Cbrt}, {"deg2rad", Unary::Deg2rad},
    {"radians", Unary::Deg2rad}, {"rad2deg", Unary::Rad2deg}, {"degrees", Unary::Rad2deg},
    {"isnan", Unary::IsNan}, {"isinf", Unary::IsInf}, {"isfinite", Unary::IsFinite}, {"signbit", Unary::Signbit},
    {"logical_not", Unary::LogicalNot}, {"invert", Unary::Invert}, {"bitwise_not", Unary::Invert},
};

struct BinarySpec {
  const char *name;
  Binary op;
};
constexpr BinarySpec kBinary[] = {
    {"add", Binary::Add}, {"subtract", Binary::Subtract}, {"multiply", Binary::Multiply},
    {"divide", Binary::Divide}, {"true_divide", Binary::Divide}, {"floor_divide", Binary::FloorDivide},
    {"remainder", Binary::Remainder}, {"mod", Binary::Remainder}, {"power", Binary::Power},
    {"maximum", Binary::Maximum}, {"minimum", Binary::Minimum}, {"fmax", Binary::Fmax}, {"fmin", Binary::Fmin},
    {"equal", Binary::Equal}, {"not_equal", Binary::NotEqual}, {"less", Binary::Less},
    {"less_equal", Binary::LessEqual}, {"greater", Binary::Greater}, {"greater_equal", Binary::GreaterEqual},
    {"logical_and", Binary::LogicalAnd}, {"logical_or", Binary::LogicalOr}, {"logical_xor", Binary::LogicalXor},
    {"arctan2", Binary::Arctan2}, {"hypot", Binary::Hypot}, {"bitwise_and", Binary::BitwiseAnd},
    {"bitwise_or", Binary::BitwiseOr}, {"bitwise_xor", Binary::BitwiseXor}, {"left_shift", Binary::LeftShift},
    {"right_shift", Binary::RightShift}, {"copysign", Binary::Copysign}, {"logaddexp", Binary::Logaddexp},
    {"fmod", Binary::Fmod}, {"float_power", Binary::FloatPower},
};

// Signature texts must outlive the table (Def keeps a pointer; a deque
// never moves its elements).
const char *keep(std::string s) {
  static std::deque<std::string> texts;
  texts.push_back(std::move(s));
  return texts.back().c_str();
}

// np.round / np.around: numpy's rint(x * 10**d) / 10**d in the array's type.
Value roundValues(Interpreter &in, const Value &av, int64_t decimals, const Value &out) {
  Tensor x = asTensor(in, av);
  if (ir::isComplex(x.dtype())) {
    // numpy rounds the real and the imaginary parts as real arrays.
    Tensor re = asTensor(in, roundValues(in, newArray(runKernel(ir::OpKind::Real, std::vector<Tensor>{x}, {})[0]), decimals, Value()));
    Tensor im = asTensor(in, roundValues(in, newArray(runKernel(ir::OpKind::Imag, std::vector<Tensor>{x}, {})[0]), decimals, Value()));
    Tensor r = Tensor::empty(x.dtype(), x.shape());
    auto join = [&](auto tag) {
      using R = decltype(tag);
      for (int64_t i = 0; i < r.numElements(); ++i) r.data<std::complex<R>>()[i] = {re.data<R>()[i], im.data<R>()[i]};
    };
    if (x.dtype() == DType::Complex64) join(float{});
    else join(double{});
    return storeOut(in, out, r, "rint");
  }
  Tensor r = x.copy();
  if (x.dtype() == DType::Float16) {
    // numpy's float16 multiply, rint and divide, each rounded to float16.
    using ir::half;
    half f = half(float(std::pow(10.0, double(decimals < 0 ? -decimals : decimals))));
    half *p = r.data<half>();
    for (int64_t i = 0; i < r.numElements(); ++i) {
      half scaled = decimals >= 0 ? half(float(p[i]) * float(f)) : half(float(p[i]) / float(f));
      half whole = half(std::nearbyint(float(scaled)));
      p[i] = decimals >= 0 ? half(float(whole) / float(f)) : half(float(whole) * float(f));
    }
    return storeOut(in, out, r, "rint");
  }
  visitNumeric(in, x.dtype(), "round", [&](auto tag) {
    using T = decltype(tag);
    T *p = r.data<T>();
    if constexpr (std::is_floating_point_v<T>) {
      if (decimals >= 0) {
        T f = T(std::pow(10.0, double(decimals)));
        for (int64_t i = 0; i < r.numElements(); ++i) p[i] = std::nearbyint(p[i] * f) / f;
      } else {
        T f = T(std::pow(10.0, double(-decimals)));
        for (int64_t i = 0; i < r.numElements(); ++i) p[i] = std::nearbyint(p[i] / f) * f;
      }
    } else if constexpr (!std::is_same_v<T, bool>) {
      if (decimals < 0) {
        double f = std::pow(10.0, double(-decimals));
        for (int64_t i = 0; i < r.numElements(); ++i) p[i] = T(std::nearbyint(double(p[i]) / f) * f);
      }
    }
  });
  return storeOut(in, out, r, "rint");
}

// np.clip: minimum(maximum(a, a_min), a_max) with numpy's result type.
Value clip(Interpreter &in, const Value &a, const Value &lo, const Value &hi, const Value &out) {
  if (lo.isNone() && hi.isNone()) in.raise("ValueError", "One of max or min must be given");
  std::vector<Value> ops{a};
  if (!lo.isNone()) ops.push_back(lo);
  if (!hi.isNone()) ops.push_back(hi);
  DType t = resultType(in, ops);
  Value r = newArray(cast(asTensor(in, a), t));
  if (!lo.isNone()) r = newArray(applyBinary(in, Binary::Maximum, r, lo, t));
  if (!hi.isNone()) r = newArray(applyBinary(in, Binary::Minimum, r, hi, t));
  return storeOut(in, out, asTensor(in, r), "clip");
}

Value nonzeroTuple(Interpreter &in, const Value &av) {
  Tensor x = asTensor(in, av);
  if (x.rank() == 0) in.raise("ValueError", "Calling nonzero on 0d arrays is not allowed. Use np.atleast_1d(scalar).nonzero() instead.");
  Tensor b = x.dtype() == DType::String ? Tensor() : cast(x, DType::Bool);
  if (!b.valid()) in.raise("TypeError", "nonzero of a string array is not supported by tfs");
  Shape cs = cStrides(x.shape());
  std::vector<std::vector<int64_t>> coords(x.rank());
  for (int64_t i = 0; i < b.numElements(); ++i)
    if (b.data<bool>()[i])
      for (size_t d = 0; d < x.rank(); ++d) coords[d].push_back((i / cs[d]) % x.shape()[d]);
  std::vector<Value> out;
  for (auto &c : coords) {
    Tensor t = Tensor::empty(DType::Int64, {int64_t(c.size())});
    std::copy(c.begin(), c.end(), t.data<int64_t>());
    out.push_back(newArray(t));
  }
  return in.tuple(out);
}

Value where(Interpreter &in, const Bound &b) {
  bool hasX = b.given("x"), hasY = b.given("y");
  if (!hasX && !hasY) return nonzeroTuple(in, b["condition"]);
  if (hasX != hasY) in.raise("ValueError", "either both or neither of x and y should be given");
  Tensor c = cast(asTensor(in, b["condition"]), DType::Bool);
  Tensor x = asTensor(in, b["x"]), y = asTensor(in, b["y"]);
  DType t = resultType(in, {b["x"], b["y"]});
  Shape shape = broadcastShapes(in, {c.shape(), x.shape(), y.shape()});
  Tensor cs = broadcastTo(c, shape), xs = broadcastTo(cast(x, t), shape), ys = broadcastTo(cast(y, t), shape);
  Tensor r = Tensor::empty(t, shape);
  visitElementType(t, [&](auto tag) {
    using T = decltype(tag);
    for (int64_t i = 0; i < r.numElements(); ++i)
      r.data<T>()[i] = cs.data<bool>()[i] ? xs.data<T>()[i] : ys.data<T>()[i];
  });
  return newArray(r);
}

// isclose in a complex type t: numpy's complex subtract and absolute, the
// tolerance in the real type; non-finite elements (either part) compare by ==.
Tensor complexIsclose(Interpreter &in, const Tensor &a, const Tensor &b, DType t, const Shape &shape, double rtol,
                      double atol, bool equalNan) {
  Tensor xs = broadcastTo(cast(a, t), shape), ys = broadcastTo(cast(b, t), shape);
  Tensor diff = complexUnary(in, Unary::Absolute, complexBinary(in, Binary::Subtract, xs, ys, t, shape));
  Tensor ay = complexUnary(in, Unary::Absolute, ys);
  Tensor r = Tensor::empty(DType::Bool, shape);
  auto run = [&](auto tag) {
    using R = decltype(tag);
    using C = std::complex<R>;
    for (int64_t i = 0; i < r.numElements(); ++i) {
      C x = xs.data<C>()[i], y = ys.data<C>()[i];
      bool finite = std::isfinite(x.real()) && std::isfinite(x.imag()) && std::isfinite(y.real()) && std::isfinite(y.imag());
      bool close;
      if (finite) close = diff.data<R>()[i] <= R(R(atol) + R(R(rtol) * ay.data<R>()[i]));
      else close = x.real() == y.real() && x.imag() == y.imag();
      bool xNan = std::isnan(x.real()) || std::isnan(x.imag()), yNan = std::isnan(y.real()) || std::isnan(y.imag());
      r.data<bool>()[i] = close || (equalNan && xNan && yNan);
    }
  };
  if (t == DType::Complex64) run(float{});
  else run(double{});
  return r;
}

// numpy's isclose: |a - b| <= atol + rtol * |b| in the promoted float type;
// infinities equal only to themselves, NaNs equal when equal_nan.
Tensor isclose(Interpreter &in, const Value &av, const Value &bv, const Value &rtolV, const Value &atolV,
               bool equalNan) {
  Tensor a = asTensor(in, av), bt = asTensor(in, bv);
  DType yt = resultType(in, {bv, Value::real(1.0)});
  DType t = resultType(in, {av, newArray(cast(bt, yt)), rtolV, atolV});
  Shape shape = broadcastShapes(in, {a.shape(), bt.shape()});
  if (ir::isComplex(t)) return complexIsclose(in, a, bt, t, shape, in.toFloat(rtolV), in.toFloat(atolV), equalNan);
  if (!ir::isFloating(t)) t = DType::Float64;
  Tensor xs = broadcastTo(cast(a, t), shape), ys = broadcastTo(cast(bt, t), shape);
  double rtol = in.toFloat(rtolV), atol = in.toFloat(atolV);
  Tensor r = Tensor::empty(DType::Bool, shape);
  visitElementType(t, [&](auto tag) {
    using T = decltype(tag);
    if constexpr (std::is_floating_point_v<T>) {
      for (int64_t i = 0; i < r.numElements(); ++i) {
        T x = xs.data<T>()[i], y = ys.data<T>()[i];
        bool close;
        if (std::isfinite(x) && std::isfinite(y)) close = std::fabs(x - y) <= T(T(atol) + T(T(rtol) * std::fabs(y)));
        else close = x == y || (equalNan && std::isnan(x) && std::isnan(y));
        r.data<bool>()[i] = close;
      }
    }
  });
  return r;
}

Value nanToNum(Interpreter &in, const Bound &b) {
  Tensor x = asTensor(in, b["x"]);
  bool copy = in.truth(b["copy"]);
  Tensor r = x.copy();
  visitElementType(x.dtype(), [&](auto tag) {
    using T = decltype(tag);
    if constexpr (std::is_floating_point_v<T>) {
      T nan = T(in.toFloat(b["nan"]));
      T posinf = b.isNone("posinf") ? std::numeric_limits<T>::max() : T(in.toFloat(b["posinf"]));
      T neginf = b.isNone("neginf") ? std::numeric_limits<T>::lowest() : T(in.toFloat(b["neginf"]));
      for (int64_t i = 0; i < r.numElements(); ++i) {
        T &v = r.data<T>()[i];
        if (std::isnan(v)) v = nan;
        else if (std::isinf(v)) v = v > 0 ? posinf : neginf;
      }
    }
  });
  if (!copy)
    if (TensorObject *a = ndarrayOf(b["x"])) {
      assignAll(in, *a, r);
      return b["x"];
    }
  return scalarOrArray(r);
}

}  // namespace

void addUfuncFunctions(Defs &defs) {
  for (const auto &s : kUnary) {
    Unary op = s.op;
    bool fabs = std::string(s.name) == "fabs";
    defs.push_back({keep(fmt::format("{}(x, /, " UFUNC_KW ")", s.name)), [op, fabs](Interpreter &in, const Bound &b) {
                      if (fabs && ir::isComplex(asTensor(in, b["x"]).dtype()))  // fabs has real loops only
                        in.raise("TypeError", "ufunc 'fabs' not supported for the input types, and the inputs could "
                                              "not be safely coerced to any supported types according to the casting "
                                              "rule ''safe''");
                      std::optional<DType> dt = dtypeParam(in, b["dtype"]);
                      // fabs has float loops only (e, f, d): an integer or bool input
                      // takes the float type sqrt would, np.fabs(3) is 3.0.
                      // a predicate's dtype= is its output's (np.isnan(x, dtype=bool))
                      bool predicate = op == Unary::IsNan || op == Unary::IsInf || op == Unary::IsFinite ||
                                       op == Unary::Signbit || op == Unary::LogicalNot;
                      checkUfuncInputs(in, b, ufuncName(op), {b["x"]}, predicate ? std::nullopt : dt);
                      if (fabs && !dt) dt = floatLoopType(asTensor(in, b["x"]).dtype());
                      Tensor r = applyUnary(in, op, b["x"], dt);
                      return finishUfunc(in, b, r, ufuncName(op));
                    }});
  }
  for (const auto &s : kBinary) {
    Binary op = s.op;
    defs.push_back({keep(fmt::format("{}(x1, x2, /, " UFUNC_KW ")", s.name)), [op](Interpreter &in, const Bound &b) {
                      std::optional<DType> dt = dtypeParam(in, b["dtype"]);
                      // a comparison's dtype= is its output's (np.equal(a, b, dtype=bool))
                      bool predicate = op == Binary::Equal || op == Binary::NotEqual || op == Binary::Less ||
                                       op == Binary::LessEqual || op == Binary::Greater ||
                                       op == Binary::GreaterEqual || op == Binary::LogicalAnd ||
                                       op == Binary::LogicalOr || op == Binary::LogicalXor;
                      checkUfuncInputs(in, b, ufuncName(op), {b["x1"], b["x2"]}, predicate ? std::nullopt : dt);
                      Tensor r = applyBinary(in, op, b["x1"], b["x2"], dt);
                      return finishUfunc(in, b, r, ufuncName(op));
                    }});
  }
}

void addMathFunctions(Defs &defs) {
  addUfuncFunctions(defs);
  auto add = [&](const char *sig, SignedFn fn) { defs.push_back({sig, std::move(fn)}); };
  for (const char *sig : {"round(a, decimals=0, out=None)", "around(a, decimals=0, out=None)",
                          "round_(a, decimals=0, out=None)"})
    add(sig, [](Interpreter &in, const Bound &b) { return roundValues(in, b["a"], in.toInt(b["decimals"]), b["out"]); });
  // np.clip is a ufunc: where= keeps out='s elements outside the mask.
  add("clip(a, a_min, a_max, " UFUNC_KW ")", [](Interpreter &in, const Bound &b) {
    std::optional<DType> d = dtypeParam(in, b["dtype"]);
    std::vector<Value> inputs{b["a"]};
    for (const char *k : {"a_min", "a_max"})
      if (!b.isNone(k)) inputs.push_back(b[k]);
    checkUfuncInputs(in, b, "clip", inputs, d);
    Tensor r = asTensor(in, clip(in, b["a"], b["a_min"], b["a_max"], Value()));
    if (d) r = cast(r, *d);
    // numpy 1.24 still clips into an out= of a narrower kind without
    // casting= (with a DeprecationWarning), as with casting='unsafe'.
    return finishUfunc(in, b, r, "clip", "unsafe");
  });
  add("where(condition, x=None, y=None, /)", where);
  add("nonzero(a)", [](Interpreter &in, const Bound &b) { return nonzeroTuple(in, b["a"]); });
  add("flatnonzero(a)", [](Interpreter &in, const Bound &b) {
    Tensor x = asTensor(in, b["a"]);
    return in.toList(nonzeroTuple(in, newArray(x.reshaped({x.numElements()}))))[0];
  });
  add("argwhere(a)", [](Interpreter &in, const Bound &b) {
    Tensor x = asTensor(in, b["a"]);
    if (x.rank() == 0) x = x.reshaped({1});
    std::vector<Value> cols = in.toList(nonzeroTuple(in, newArray(x)));
    int64_t n = cols.empty() ? 0 : asTensor(in, cols[0]).numElements();
    Tensor r = Tensor::empty(DType::Int64, {n, int64_t(cols.size())});
    for (size_t d = 0; d < cols.size(); ++d) {
      Tensor c = asTensor(in, cols[d]);
      for (int64_t i = 0; i < n; ++i) r.data<int64_t>()[i * int64_t(cols.size()) + int64_t(d)] = c.data<int64_t>()[i];
    }
    return newArray(r);
  });
  add("isclose(a, b, rtol=1e-05, atol=1e-08, equal_nan=False)", [](Interpreter &in, const Bound &b) {
    return scalarOrArray(isclose(in, b["a"], b["b"], b["rtol"], b["atol"], in.truth(b["equal_nan"])));
  });
  add("allclose(a, b, rtol=1e-05, atol=1e-08, equal_nan=False)", [](Interpreter &in, const Bound &b) {
    Tensor r = isclose(in, b["a"], b["b"], b["rtol"], b["atol"], in.truth(b["equal_nan"]));
    for (int64_t i = 0; i < r.numElements(); ++i)
      if (!r.data<bool>()[i]) return Value::boolean(false);
    return Value::boolean(true);
  });
  add("array_equal(a1, a2, equal_nan=False)", [](Interpreter &in, const Bound &b) {
    Tensor x = asTensor(in, b["a1"]), y = asTensor(in, b["a2"]);
    if (x.shape() != y.shape()) return Value::boolean(false);
    bool nanEq = in.truth(b["equal_nan"]);
    if (x.dtype() == DType::String || y.dtype() == DType::String) {
      if (x.dtype() != y.dtype()) return Value::boolean(false);
      for (int64_t i = 0; i < x.numElements(); ++i)
        if (x.data<std::string>()[i] != y.data<std::string>()[i]) return Value::boolean(false);
      return Value::boolean(true);
    }
    if (ir::isComplex(x.dtype()) || ir::isComplex(y.dtype())) {  // both parts equal (NaN in either part: a NaN)
      DType t = promoteTypes(x.dtype(), y.dtype());
      Tensor xc = cast(cast(x, t), DType::Complex128), yc = cast(cast(y, t), DType::Complex128);
      for (int64_t i = 0; i < x.numElements(); ++i) {
        ir::complex128 p = xc.data<ir::complex128>()[i], q = yc.data<ir::complex128>()[i];
        bool pn = std::isnan(p.real()) || std::isnan(p.imag()), qn = std::isnan(q.real()) || std::isnan(q.imag());
        if (!((p.real() == q.real() && p.imag() == q.imag()) || (nanEq && pn && qn))) return Value::boolean(false);
      }
      return Value::boolean(true);
    }
    for (int64_t i = 0; i < x.numElements(); ++i) {
      double p = x.elementAsDouble(i), q = y.elementAsDouble(i);
      if (ir::isInteger(x.dtype()) && ir::isInteger(y.dtype())) {
        if (x.elementAsInt(i) != y.elementAsInt(i)) return Value::boolean(false);
      } else if (!(p == q || (nanEq && std::isnan(p) && std::isnan(q)))) {
        return Value::boolean(false);
      }
    }
    return Value::boolean(true);
  });
  add("nan_to_num(x, copy=True, nan=0.0, posinf=None, neginf=None)", nanToNum);
}

}  // namespace tfs::runtime::tf::numpy
