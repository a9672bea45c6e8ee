// numpy's ufunc loops (see ufunc.h). Type resolution follows numpy 1.24:
// float functions of ints compute in float64, integer arithmetic wraps,
// bool + bool is logical or and bool - bool a TypeError; float floor
// division and remainder are numpy's npy_divmod, integer power is repeated
// squaring. float16 loops compute in float32 and round back, as numpy's do.
#include "lib/numpy/ufunc.h"
#include "runtime/interp/complex_object.h"

#include <cmath>
#include <fmt/format.h>

namespace tfs::runtime::tf::numpy {

namespace {

const char *const kUnaryNames[] = {
    "negative", "positive", "absolute", "sign", "sqrt", "square", "exp", "exp2", "expm1", "log", "log2", "log10",
    "log1p", "sin", "cos", "tan", "arcsin", "arccos", "arctan", "sinh", "cosh", "tanh", "arcsinh", "arccosh",
    "arctanh", "floor", "ceil", "trunc", "rint", "reciprocal", "cbrt", "deg2rad", "rad2deg", "isnan", "isinf",
    "isfinite", "signbit", "logical_not", "invert"};
const char *const kBinaryNames[] = {
    "add", "subtract", "multiply", "divide", "floor_divide", "remainder", "power", "maximum", "minimum",
    "fmax", "fmin", "equal", "not_equal", "less", "less_equal", "greater", "greater_equal", "logical_and",
    "logical_or", "logical_xor", "arctan2", "hypot", "bitwise_and", "bitwise_or", "bitwise_xor", "left_shift",
    "right_shift", "copysign", "logaddexp", "fmod", "float_power"};

// numpy.core._exceptions._UFuncNoLoopError (a TypeError): no loop for these types.
[[noreturn]] void noLoopForStrings(Interpreter &in, const char *name) {
  Ref<ClassObject> c;
  if (auto it = in.builtins()->vars.find("_UFuncNoLoopError"); it != in.builtins()->vars.end())
    c = Ref<ClassObject>(it->second.as<ClassObject>());
  if (!c) {
    c = in.newExceptionClass("_UFuncNoLoopError", "TypeError");
    c->module = "numpy.core._exceptions";
  }
  in.raiseValue(in.newException(c, fmt::format("ufunc '{}' did not contain a loop with signature matching types", name)));
}

[[noreturn]] void noLoop(Interpreter &in, const char *name) {
  in.raise("TypeError", fmt::format("ufunc '{}' not supported for the input types, and the inputs could not be safely "
                                    "coerced to any supported types according to the casting rule ''safe''",
                                    name));
}

bool isFloatFunction(Unary u) {
  switch (u) {
  case Unary::Negative: case Unary::Positive: case Unary::Absolute: case Unary::Sign: case Unary::Square:
  case Unary::Reciprocal: case Unary::IsNan: case Unary::IsInf: case Unary::IsFinite: case Unary::Signbit:
  case Unary::LogicalNot: case Unary::Invert:
    return false;
  default: return true;
  }
}

// Integer arithmetic in an unsigned type at least as wide as unsigned int,
// so it wraps instead of overflowing C++'s promoted int.
template <class T> using Wide = std::conditional_t<(sizeof(T) < sizeof(unsigned)), unsigned, std::make_unsigned_t<T>>;
template <class T> bool isNegative(T x) {
  if constexpr (std::is_signed_v<T>) return x < T(0);
  else return false;
}

template <class T> T unaryOp(Unary u, T x) {
  if constexpr (std::is_floating_point_v<T>) {
    switch (u) {
    case Unary::Negative: return -x;
    case Unary::Positive: return x;
    case Unary::Absolute: return std::fabs(x);
    case Unary::Sign: return std::isnan(x) ? x : T(x > 0 ? 1 : x < 0 ? -1 : 0);
    case Unary::Sqrt: return std::sqrt(x);
    case Unary::Square: return x * x;
    case Unary::Exp: return std::exp(x);
    case Unary::Exp2: return std::exp2(x);
    case Unary::Expm1: return std::expm1(x);
    case Unary::Log: return std::log(x);
    case Unary::Log2: return std::log2(x);
    case Unary::Log10: return std::log10(x);
    case Unary::Log1p: return std::log1p(x);
    case Unary::Sin: return std::sin(x);
    case Unary::Cos: return std::cos(x);
    case Unary::Tan: return std::tan(x);
    case Unary::Arcsin: return std::asin(x);
    case Unary::Arccos: return std::acos(x);
    case Unary::Arctan: return std::atan(x);
    case Unary::Sinh: return std::sinh(x);
    case Unary::Cosh: return std::cosh(x);
    case Unary::Tanh: return std::tanh(x);
    case Unary::Arcsinh: return std::asinh(x);
    case Unary::Arccosh: return std::acosh(x);
    case Unary::Arctanh: return std::atanh(x);
    case Unary::Floor: return std::floor(x);
    case Unary::Ceil: return std::ceil(x);
    case Unary::Trunc: return std::trunc(x);
    case Unary::Rint: return std::nearbyint(x);
    case Unary::Reciprocal: return T(1) / x;
    case Unary::Cbrt: return std::cbrt(x);
    case Unary::Deg2rad: return x * T(M_PI / 180.0);
    case Unary::Rad2deg: return x * T(180.0 / M_PI);
    default: return x;
    }
  } else if constexpr (std::is_same_v<T, bool>) {
    return u == Unary::Negative ? !x : x;
  } else {
    using W = Wide<T>;
    switch (u) {
    case Unary::Negative: return T(W(0) - W(x));
    case Unary::Absolute: return isNegative(x) ? T(W(0) - W(x)) : x;
    case Unary::Sign: return T(x > 0 ? 1 : isNegative(x) ? -1 : 0);
    case Unary::Square: return T(W(x) * W(x));
    case Unary::Reciprocal: return x == 0 ? std::numeric_limits<T>::min() : T(1 / x);
    case Unary::Invert: return T(~x);
    default: return x;
    }
  }
}

template <class T> bool predicate(Unary u, T x) {
  if constexpr (std::is_floating_point_v<T>) {
    switch (u) {
    case Unary::IsNan: return std::isnan(x);
    case Unary::IsInf: return std::isinf(x);
    case Unary::IsFinite: return std::isfinite(x);
    case Unary::Signbit: return std::signbit(x);
    default: return x == T(0);  // logical_not
    }
  } else {
    switch (u) {
    case Unary::IsNan: case Unary::IsInf: return false;
    case Unary::IsFinite: return true;
    case Unary::Signbit: return isNegative(x);
    default: return x == T(0);
    }
  }
}

template <class T, class R, class F> Tensor map1(const Tensor &a, DType out, F f) {
  Tensor r = Tensor::empty(out, a.shape());
  const T *pa = a.data<T>();
  R *pr = r.data<R>();
  for (int64_t i = 0; i < a.numElements(); ++i) pr[i] = f(pa[i]);
  return r;
}

template <class T, class R, class F> Tensor map2(const Tensor &a, const Tensor &b, DType out, F f) {
  Tensor r = Tensor::empty(out, a.shape());
  const T *pa = a.data<T>(), *pb = b.data<T>();
  R *pr = r.data<R>();
  for (int64_t i = 0; i < a.numElements(); ++i) pr[i] = f(pa[i], pb[i]);
  return r;
}

// numpy's npy_divmod for floats: floor quotient and remainder with the
// divisor's sign, exact where the naive floor(a / b) is not.
template <class T> std::pair<T, T> floatDivmod(T a, T b) {
  T mod = std::fmod(a, b);
  if (b == T(0)) return {a / b, mod};
  T div = (a - mod) / b;
  if (mod != T(0)) {
    if ((b < 0) != (mod < 0)) {
      mod += b;
      div -= T(1);
    }
  } else {
    mod = std::copysign(T(0), b);
  }
  T floordiv;
  if (div != T(0)) {
    floordiv = std::floor(div);
    if (div - floordiv > T(0.5)) floordiv += T(1);
  } else {
    floordiv = std::copysign(T(0), a / b);
  }
  return {floordiv, mod};
}

template <class T> T intPower(T base, T exp) {
  using U = Wide<T>;
  U result = 1, b = U(base);
  while (exp > 0) {
    if (exp & 1) result *= b;
    exp >>= 1;
    b *= b;
  }
  return T(result);
}

template <class T> T arith(Binary op, T x, T y) {
  if constexpr (std::is_floating_point_v<T>) {
    switch (op) {
    case Binary::Add: return x + y;
    case Binary::Subtract: return x - y;
    case Binary::Multiply: return x * y;
    case Binary::Divide: return x / y;
    // By zero only the quotient's (or fmod's) IEEE exception is raised, as
    // numpy's npy_floor_divide / npy_remainder raise only that one.
    case Binary::FloorDivide: return y == T(0) ? x / y : floatDivmod(x, y).first;
    case Binary::Remainder: return y == T(0) ? std::fmod(x, y) : floatDivmod(x, y).second;
    case Binary::Power: return std::pow(x, y);
    case Binary::Maximum: return std::isnan(x) || x >= y ? x : y;
    case Binary::Minimum: return std::isnan(x) || x <= y ? x : y;
    case Binary::Fmax: return std::isnan(y) || x >= y ? x : (std::isnan(x) ? y : y);
    case Binary::Fmin: return std::isnan(y) || x <= y ? x : (std::isnan(x) ? y : y);
    case Binary::Arctan2: return std::atan2(x, y);
    case Binary::Hypot: return std::hypot(x, y);
    case Binary::Copysign: return std::copysign(x, y);
    case Binary::Fmod: return std::fmod(x, y);
    case Binary::FloatPower: return std::pow(x, y);
    case Binary::Logaddexp: {
      if (x == y) return x + T(M_LN2);
      T d = x - y;
      return d > 0 ? x + std::log1p(std::exp(-d)) : d <= 0 ? y + std::log1p(std::exp(d)) : d;
    }
    default: return x;
    }
  } else {
    using U = Wide<T>;
    constexpr bool isSigned = std::is_signed_v<T>;
    switch (op) {
    case Binary::Add: return T(U(x) + U(y));
    case Binary::Subtract: return T(U(x) - U(y));
    case Binary::Multiply: return T(U(x) * U(y));
    case Binary::FloorDivide: {
      if (y == 0) return 0;
      if constexpr (isSigned) {
        if (y == T(-1)) return T(U(0) - U(x));  // wraps at the minimum
        T q = T(x / y);
        return ((x % y) != 0 && ((x < 0) != (y < 0))) ? T(q - 1) : q;
      } else {
        return T(x / y);
      }
    }
    case Binary::Remainder: {
      if constexpr (isSigned) {
        if (y == 0 || y == T(-1)) return 0;
        T r = T(x % y);
        return (r != 0 && ((r < 0) != (y < 0))) ? T(r + y) : r;
      } else {
        return y == 0 ? T(0) : T(x % y);
      }
    }
    case Binary::Fmod:  // C's sign: the dividend's
      if constexpr (isSigned) return y == 0 || y == T(-1) ? T(0) : T(x % y);
      else return y == 0 ? T(0) : T(x % y);
    case Binary::Power: return intPower(x, y);
    case Binary::Maximum: case Binary::Fmax: return x >= y ? x : y;
    case Binary::Minimum: case Binary::Fmin: return x <= y ? x : y;
    case Binary::BitwiseAnd: return T(x & y);
    case Binary::BitwiseOr: return T(x | y);
    case Binary::BitwiseXor: return T(x ^ y);
    case Binary::LeftShift: return isNegative(y) || y >= T(sizeof(T) * 8) ? T(0) : T(U(x) << y);
    case Binary::RightShift: return isNegative(y) || y >= T(sizeof(T) * 8) ? T(isNegative(x) ? -1 : 0) : T(x >> y);
    default: return x;
    }
  }
}

template <class T> bool comparison(Binary op, const T &x, const T &y) {
  switch (op) {
  case Binary::Equal: return x == y;
  case Binary::NotEqual: return x != y;
  case Binary::Less: return x < y;
  case Binary::LessEqual: return x <= y;
  case Binary::Greater: return x > y;
  default: return x >= y;
  }
}

bool isComparison(Binary b) { return b >= Binary::Equal && b <= Binary::GreaterEqual; }
bool isLogical(Binary b) { return b >= Binary::LogicalAnd && b <= Binary::LogicalXor; }
bool isBitwise(Binary b) { return b >= Binary::BitwiseAnd && b <= Binary::RightShift; }
// The first float type numpy's float loops (e, f, d) take t in safely:
// float16 for bool and 8-bit ints, float32 for 16-bit ints, else float64.
DType smallestFloatFor(DType t) {
  if (ir::isFloating(t)) return t;
  if (t == DType::Bool || t == DType::Int8 || t == DType::UInt8) return DType::Float16;
  if (t == DType::Int16 || t == DType::UInt16) return DType::Float32;
  return DType::Float64;
}

bool isFloatBinary(Binary b) {
  return b == Binary::Arctan2 || b == Binary::Hypot || b == Binary::Copysign || b == Binary::Logaddexp ||
         b == Binary::Divide;
}

}  // namespace

DType floatLoopType(DType t) { return smallestFloatFor(t); }

const char *ufuncName(Unary u) { return kUnaryNames[int(u)]; }
const char *ufuncName(Binary b) { return kBinaryNames[int(b)]; }

Tensor applyUnary(Interpreter &in, Unary u, const Value &xv, std::optional<DType> dtype) {
  Tensor x = asTensor(in, xv);
  const char *name = ufuncName(u);
  if (x.dtype() == DType::String) noLoopForStrings(in, name);
  DType t = x.dtype();
  if (ir::isComplex(t) && !dtype) return complexUnary(in, u, x);
  if (isFloatFunction(u)) t = smallestFloatFor(t);
  if (u == Unary::Negative && t == DType::Bool)
    in.raise("TypeError", "The numpy boolean negative, the `-` operator, is not supported, use the `~` operator or "
                          "the logical_not function instead.");
  if (u == Unary::Invert && ir::isFloating(t)) noLoop(in, name);
  if (u == Unary::Square && t == DType::Bool && !dtype) t = DType::Int8;
  if (dtype) t = *dtype;
  if (t == DType::Float16) return narrowLike(applyUnary(in, u, newArray(cast(x, DType::Float32)), DType::Float32), t);
  x = cast(x, t);
  bool pred = u == Unary::IsNan || u == Unary::IsInf || u == Unary::IsFinite || u == Unary::Signbit ||
              u == Unary::LogicalNot;
  if (u == Unary::Invert && t == DType::Bool) u = Unary::LogicalNot, pred = true;
  bool floatLoop = ir::isFloating(t) && !pred;
  if (floatLoop) clearFloatErrors();
  Tensor r = visitNumeric(in, t, name, [&](auto tag) {
    using T = decltype(tag);
    if (pred) return map1<T, bool>(x, DType::Bool, [u](T v) { return predicate(u, v); });
    return map1<T, T>(x, t, [u](T v) { return unaryOp(u, v); });
  });
  if (floatLoop) reportFloatErrors(in, name);
  return r;
}

Tensor applyBinary(Interpreter &in, Binary b, const Value &xv, const Value &yv, std::optional<DType> dtype) {
  const char *name = ufuncName(b);
  Tensor x = asTensor(in, xv), y = asTensor(in, yv);
  Shape shape = broadcastShapes(in, {x.shape(), y.shape()});
  DType t = dtype.value_or(resultType(in, {xv, yv}));
  bool strings = x.dtype() == DType::String || y.dtype() == DType::String;
  if (strings) {
    if (!isComparison(b) || x.dtype() != y.dtype()) {
      if (isComparison(b)) {
        // numpy compares a string array with numbers as "not equal" everywhere.
        if (b != Binary::Equal && b != Binary::NotEqual) noLoopForStrings(in, name);
        Tensor r = Tensor::empty(DType::Bool, shape);
        std::fill(r.data<bool>(), r.data<bool>() + r.numElements(), b == Binary::NotEqual);
        return r;
      }
      noLoopForStrings(in, name);
    }
    Tensor xs = broadcastTo(x, shape), ys = broadcastTo(y, shape);
    return map2<std::string, bool>(xs, ys, DType::Bool,
                                   [b](const std::string &p, const std::string &q) { return comparison(b, p, q); });
  }
  if (ir::isComplex(t) || ir::isComplex(x.dtype()) || ir::isComplex(y.dtype()))
    return complexBinary(in, b, x, y, ir::isComplex(t) ? t : DType::Complex128, shape);
  if (t == DType::Bool && !dtype) {
    if (b == Binary::Subtract)
      in.raise("TypeError", "numpy boolean subtract, the `-` operator, is not supported, use the bitwise_xor, the `^` "
                            "operator, or the logical_xor function instead.");
    if (b == Binary::FloorDivide || b == Binary::Remainder || b == Binary::Power || b == Binary::Fmod)
      t = DType::Int8;
    if (b == Binary::Add) b = Binary::LogicalOr;
    if (b == Binary::Multiply || b == Binary::BitwiseAnd) b = Binary::LogicalAnd;
    if (b == Binary::BitwiseOr) b = Binary::LogicalOr;
    if (b == Binary::BitwiseXor) b = Binary::LogicalXor;
  }
  if (isFloatBinary(b) && !ir::isFloating(t)) t = b == Binary::Divide ? DType::Float64 : smallestFloatFor(t);
  if (b == Binary::FloatPower && !dtype) t = DType::Float64;  // numpy's only real loop is float64
  if (isBitwise(b) && ir::isFloating(t)) noLoop(in, name);
  if (b == Binary::Power && ir::isInteger(t)) {
    Tensor e = cast(y, t);
    for (int64_t i = 0; i < e.numElements(); ++i)
      if (e.elementAsInt(i) < 0) in.raise("ValueError", "Integers to negative integer powers are not allowed.");
  }
  if (isLogical(b)) {
    Tensor xs = broadcastTo(cast(x, DType::Bool), shape), ys = broadcastTo(cast(y, DType::Bool), shape);
    return map2<bool, bool>(xs, ys, DType::Bool, [b](bool p, bool q) {
      return b == Binary::LogicalAnd ? p && q : b == Binary::LogicalOr ? p || q : p != q;
    });
  }
  if (t == DType::Float16) {  // numpy's float16 loops compute in float32
    Value xf = newArray(cast(x, DType::Float32)), yf = newArray(cast(y, DType::Float32));
    return narrowLike(applyBinary(in, b, xf, yf, DType::Float32), t);
  }
  Tensor xs = broadcastTo(cast(x, t), shape), ys = broadcastTo(cast(y, t), shape);
  // IEEE exceptions of float arithmetic become numpy's RuntimeWarnings.
  // (maximum and minimum compare with NaN, which raises FE_INVALID where
  // numpy's loops do not warn.)
  bool floatLoop = ir::isFloating(t) && !isComparison(b) && b != Binary::Maximum && b != Binary::Minimum &&
                   b != Binary::Fmax && b != Binary::Fmin;
  if (floatLoop) clearFloatErrors();
  bool integerOverflow = false;
  Tensor r = visitNumeric(in, t, name, [&](auto tag) {
    using T = decltype(tag);
    if (isComparison(b)) return map2<T, bool>(xs, ys, DType::Bool, [b](T p, T q) { return comparison(b, p, q); });
    if constexpr (std::is_same_v<T, bool>) {
      return map2<bool, bool>(xs, ys, t, [b](bool p, bool q) {
        switch (b) {
        case Binary::Maximum: case Binary::Fmax: return p || q;
        case Binary::Minimum: case Binary::Fmin: return p && q;
        default: return p;
        }
      });
    } else {
      if constexpr (std::is_integral_v<T>)
        if (ScalarMathScope::active() && xs.numElements() == 1 &&
            (b == Binary::Add || b == Binary::Subtract || b == Binary::Multiply)) {
          T p = xs.data<T>()[0], q = ys.data<T>()[0], out;
          bool overflow = b == Binary::Add        ? __builtin_add_overflow(p, q, &out)
                          : b == Binary::Subtract ? __builtin_sub_overflow(p, q, &out)
                                                  : __builtin_mul_overflow(p, q, &out);
          if (overflow) integerOverflow = true;
        }
      return map2<T, T>(xs, ys, t, [b](T p, T q) { return arith(b, p, q); });
    }
  });
  if (integerOverflow) reportIntegerOverflow(in, name);
  if (floatLoop) reportFloatErrors(in, name);
  return r;
}

namespace {

std::optional<Binary> binaryOf(BinOp op) {
  switch (op) {
  case BinOp::Add: return Binary::Add;
  case BinOp::Sub: return Binary::Subtract;
  case BinOp::Mul: return Binary::Multiply;
  case BinOp::Div: return Binary::Divide;
  case BinOp::FloorDiv: return Binary::FloorDivide;
  case BinOp::Mod: return Binary::Remainder;
  case BinOp::Pow: return Binary::Power;
  case BinOp::And: return Binary::BitwiseAnd;
  case BinOp::Or: return Binary::BitwiseOr;
  case BinOp::Xor: return Binary::BitwiseXor;
  case BinOp::LShift: return Binary::LeftShift;
  case BinOp::RShift: return Binary::RightShift;
  default: return std::nullopt;
  }
}

bool operandOk(const Value &v) {
  // A Python complex reaches the loops, which name complex arrays as not supported.
  return v.isInt() || v.isFloat() || v.isBool() || v.as<TensorObject>() || v.as<ListObject>() || v.as<TupleObject>() ||
         v.as<ComplexObject>();
}

}  // namespace

std::optional<Value> ndarrayBinaryOp(Interpreter &in, BinOp op, const Value &a, const Value &b) {
  if (!operandOk(a) || !operandOk(b)) return std::nullopt;
  if (op == BinOp::MatMul) return matmulValues(in, a, b);
  auto u = binaryOf(op);
  if (!u) return std::nullopt;
  auto isArray = [](const Value &v) {
    auto *t = v.as<TensorObject>();
    return t && t->numpy && (t->zeroDimArray || !t->eager.shape().empty());
  };
  ScalarMathScope scalars(!isArray(a) && !isArray(b));
  return scalarOrArray(applyBinary(in, *u, a, b));
}

std::optional<Value> ndarrayCompare(Interpreter &in, CmpOp op, const Value &a, const Value &b) {
  if (!operandOk(a) || !operandOk(b)) {
    if (auto *bytes = b.as<BytesObject>(); bytes && operandOk(a) && (op == CmpOp::Eq || op == CmpOp::Ne)) {
      // bytes against a bytes array ('|S', or TF's .numpy() of a string
      // tensor, dtype=object): elementwise. A '<U' or number array gives
      // numpy's scalar answer (Python's fallback).
      TensorObject *x = a.as<TensorObject>();
      if (!x || x->symbolic() || x->eager.dtype() != DType::String || x->text.kind == 'U') return std::nullopt;
      Tensor s = Tensor::scalar(bytes->s);
      return scalarOrArray(applyBinary(in, op == CmpOp::Eq ? Binary::Equal : Binary::NotEqual, a, wrap(s, true)));
    }
    if (b.as<StrObject>() || b.isNone()) {
      // numpy: == with a string or None is elementwise False (!= True).
      if (op != CmpOp::Eq && op != CmpOp::Ne) return std::nullopt;
      Tensor x = asTensor(in, a);
      // TF's .numpy() of a string tensor (dtype=object) holds bytes, never equal to a str.
      TensorObject *xa = a.as<TensorObject>();
      bool objectBytes = xa && x.dtype() == DType::String && !xa->text.kind;
      // A '|S' array against a str: numpy's scalar False (Python's fallback).
      if (xa && x.dtype() == DType::String && xa->text.kind == 'S' && b.as<StrObject>()) return std::nullopt;
      if (x.dtype() == DType::String && b.as<StrObject>() && !objectBytes) {
        Tensor s = Tensor::scalar(b.as<StrObject>()->s);
        return scalarOrArray(applyBinary(in, op == CmpOp::Eq ? Binary::Equal : Binary::NotEqual, a, wrap(s, true)));
      }
      Tensor r = Tensor::empty(DType::Bool, x.shape());
      std::fill(r.data<bool>(), r.data<bool>() + r.numElements(), op == CmpOp::Ne);
      return scalarOrArray(r);
    }
    return std::nullopt;
  }
  Binary kinds[] = {Binary::Less, Binary::LessEqual, Binary::Equal, Binary::NotEqual, Binary::Greater,
                    Binary::GreaterEqual};
  return scalarOrArray(applyBinary(in, kinds[int(op)], a, b));
}

std::optional<Value> ndarrayUnaryOp(Interpreter &in, UnaryOp op, const Value &a) {
  switch (op) {
  case UnaryOp::Neg: return scalarOrArray(applyUnary(in, Unary::Negative, a));
  case UnaryOp::Pos: return scalarOrArray(applyUnary(in, Unary::Positive, a));
  case UnaryOp::Invert: return scalarOrArray(applyUnary(in, Unary::Invert, a));
  }
  return std::nullopt;
}

Value ndarrayInplace(Interpreter &in, TensorObject &a, BinOp op, const Value &b) {
  Value self{Ref<Object>(&a)};
  if (op == BinOp::MatMul)  // numpy 1.24's ndarray.__imatmul__
    in.raise("TypeError", "In-place matrix multiplication is not (yet) supported. Use 'a = a @ b' instead of 'a @= b'.");
  auto u = binaryOf(op);
  if (!u) in.raise("TypeError", "unsupported in-place operator for ndarray");
  return storeOut(in, self, applyBinary(in, *u, self, b), ufuncName(*u));
}

}  // namespace tfs::runtime::tf::numpy
