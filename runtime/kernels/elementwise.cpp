// Elementwise kernels: binary arithmetic/comparison/logical ops with numpy
// broadcasting (fast paths for equal shapes and scalar operands, strides
// otherwise), select, unary math and cast. Python semantics for floordiv
// and mod; TF's "Integer division by zero" error. float32 exp/log/tanh/
// sin/cos/pow/sigmoid use SLEEF (vector_math.h, Note [Vector math]).
#include "runtime/kernels/kernel_util.h"
#include "runtime/kernels/vector_math.h"

#include <cmath>
#include <type_traits>

namespace tfs::runtime::kernels {

namespace {

template <class T> constexpr bool isInt = ir::isIntType<T>;
template <class T> constexpr bool isSignedInt = isInt<T> && std::is_signed_v<T>;
template <class T> constexpr bool isComplex = ir::isComplexType<T>;
template <class T> bool isNegative(T x) {
  if constexpr (std::is_unsigned_v<T>) return false;
  else return x < T(0);
}

// out[i] = f(a[i'], b[i'']) with broadcasting.
template <class T, class R, class F>
void binaryLoop(const Tensor &a, const Tensor &b, Tensor &out, F f) {
  const T *pa = a.data<T>();
  const T *pb = b.data<T>();
  R *po = out.data<R>();
  int64_t n = out.numElements();
  if (a.numElements() == n && b.numElements() == n && a.shape() == b.shape()) {
    for (int64_t i = 0; i < n; ++i) po[i] = f(pa[i], pb[i]);
    return;
  }
  if (a.numElements() == n && b.numElements() == 1 && a.shape() == out.shape()) {
    T y = pb[0];
    for (int64_t i = 0; i < n; ++i) po[i] = f(pa[i], y);
    return;
  }
  if (b.numElements() == n && a.numElements() == 1 && b.shape() == out.shape()) {
    T x = pa[0];
    for (int64_t i = 0; i < n; ++i) po[i] = f(x, pb[i]);
    return;
  }
  forEachBroadcast<2>(out.shape(), {&a.shape(), &b.shape()},
                      [&](int64_t i, const std::array<int64_t, 2> &o) {
                        po[i] = f(pa[o[0]], pb[o[1]]);
                      });
}

// Integer arithmetic wraps in two's complement, as TF's CPU kernels do in
// practice (and as the JIT's LLVM code does); signed overflow in C++ is
// undefined, so it is done in the unsigned type.
template <class T> T wrapAdd(T x, T y) {
  if constexpr (isInt<T>) return T(std::make_unsigned_t<T>(x) + std::make_unsigned_t<T>(y));
  else return T(x + y);
}
template <class T> T wrapSub(T x, T y) {
  if constexpr (isInt<T>) return T(std::make_unsigned_t<T>(x) - std::make_unsigned_t<T>(y));
  else return T(x - y);
}
template <class T> T wrapMul(T x, T y) {
  if constexpr (isInt<T>) return T(std::make_unsigned_t<T>(x) * std::make_unsigned_t<T>(y));
  else return T(x * y);
}

template <class T> T wrapNeg(T x) {
  if constexpr (isInt<T>) return wrapSub<T>(T(0), x);
  else return T(-x);  // -0.0 for 0.0, unlike 0 - x
}

// x / y for integers; y == -1 is -x (wrapping: INT_MIN / -1 traps on x86).
// int8/int16 arithmetic promotes to int, so only the result wraps.
template <class T> T intDiv(OpKind k, T x, T y) {
  if (y == 0) fail(k, "Integer division by zero");
  if constexpr (isSignedInt<T>)
    if (y == T(-1)) return wrapSub<T>(T(0), x);
  return T(x / y);
}

template <class T> T floorDiv(OpKind k, T x, T y) {
  if constexpr (isInt<T>) {
    if (y == 0) fail(k, "Integer division by zero");
    if constexpr (isSignedInt<T>)
      if (y == T(-1)) return wrapSub<T>(T(0), x);
    T q = T(x / y);
    if ((x % y != 0) && (isNegative(x) != isNegative(y))) --q;
    return q;
  } else {
    return std::floor(x / y);
  }
}

template <class T> T floorMod(OpKind k, T x, T y) {
  if constexpr (isInt<T>) {
    if (y == 0) fail(k, "Integer division by zero");
    if constexpr (isSignedInt<T>)
      if (y == T(-1)) return T(0);
    T r = T(x % y);
    if (r != 0 && (isNegative(r) != isNegative(y))) r = T(r + y);
    return r;
  } else {
    T r = std::fmod(x, y);
    if (r != 0 && ((r < 0) != (y < 0))) r += y;
    return r;
  }
}

// C's remainder (the sign of x), TF's TruncateMod; x % -1 is 0 (INT_MIN % -1
// traps on x86).
template <class T> T truncMod(OpKind k, T x, T y) {
  if (y == 0) fail(k, "Integer division by zero");
  if constexpr (isSignedInt<T>)
    if (y == T(-1)) return T(0);
  return T(x % y);
}

template <class T> T intPow(OpKind k, T base, T exp) {
  if (isNegative(exp)) fail(k, "Integers to negative integer powers are not allowed");
  T result = 1;
  while (exp) {
    if (exp & 1) result = wrapMul<T>(result, base);
    base = wrapMul<T>(base, base);
    exp >>= 1;
  }
  return result;
}

template <OpKind K> std::vector<Tensor> binaryArith(std::span<const Tensor> in, const ir::Attrs &attrs) {
  std::vector<Tensor> out = allocateOutputs(K, in, attrs);
  const Tensor &a = in[0], &b = in[1];
  if (a.dtype() == DType::String) {  // only Add: concatenation
    binaryLoop<std::string, std::string>(a, b, out[0],
                                         [](const std::string &x, const std::string &y) { return x + y; });
    return out;
  }
  dispatchWithComplex(a.dtype(), [&]<class T>() {
    auto run = [&](auto f) { binaryLoop<T, T>(a, b, out[0], f); };
    if constexpr (std::is_same_v<T, bool>) {
      fail(K, "bool operands are not supported");
    } else if constexpr (isComplex<T>) {
      // The type rules admit complex operands only for these ops.
      if constexpr (K == OpKind::Add) run([](T x, T y) { return x + y; });
      else if constexpr (K == OpKind::Sub) run([](T x, T y) { return x - y; });
      else if constexpr (K == OpKind::Mul) run([](T x, T y) { return x * y; });
      else if constexpr (K == OpKind::Div) run([](T x, T y) { return x / y; });
      else if constexpr (K == OpKind::Pow) run([](T x, T y) { return std::pow(x, y); });
      else if constexpr (K == OpKind::SquaredDifference) run([](T x, T y) { return (x - y) * std::conj(x - y); });
      else fail(K, fmt::format("{} operands are not supported", ir::dtypeName(a.dtype())));
    } else {
      if constexpr (K == OpKind::Add) run([](T x, T y) { return wrapAdd<T>(x, y); });
      else if constexpr (K == OpKind::Sub) run([](T x, T y) { return wrapSub<T>(x, y); });
      else if constexpr (K == OpKind::Mul) run([](T x, T y) { return wrapMul<T>(x, y); });
      else if constexpr (K == OpKind::Div) {
        if constexpr (isInt<T>) run([](T x, T y) { return intDiv<T>(K, x, y); });
        else run([](T x, T y) { return T(x / y); });
      } else if constexpr (K == OpKind::FloorDiv) run([](T x, T y) { return floorDiv<T>(K, x, y); });
      else if constexpr (K == OpKind::FloorMod) run([](T x, T y) { return floorMod<T>(K, x, y); });
      else if constexpr (K == OpKind::Pow) {
        if constexpr (isInt<T>) run([](T x, T y) { return intPow<T>(K, x, y); });
        else if constexpr (std::is_same_v<T, float>) run([](T x, T y) { return vmath::scalar2(vmath::Fn::Pow, x, y); });
        else run([](T x, T y) { return T(std::pow(x, y)); });
      } else if constexpr (K == OpKind::Maximum) run([](T x, T y) { return x >= y || std::isnan(double(x)) ? x : y; });
      else if constexpr (K == OpKind::Minimum) run([](T x, T y) { return x <= y || std::isnan(double(x)) ? x : y; });
      else if constexpr (K == OpKind::SquaredDifference) run([](T x, T y) { return wrapMul<T>(wrapSub<T>(x, y), wrapSub<T>(x, y)); });
      else if constexpr (K == OpKind::Atan2) run([](T y, T x) { return T(std::atan2(y, x)); });
      else if constexpr (K == OpKind::TruncateDiv) {
        if constexpr (isInt<T>) run([](T x, T y) { return intDiv<T>(K, x, y); });
      } else if constexpr (K == OpKind::TruncateMod) {
        if constexpr (isInt<T>) run([](T x, T y) { return truncMod<T>(K, x, y); });
        else run([](T x, T y) { return T(std::fmod(x, y)); });
      }
    }
  });
  return out;
}

template <OpKind K> std::vector<Tensor> compare(std::span<const Tensor> in, const ir::Attrs &attrs) {
  std::vector<Tensor> out = allocateOutputs(K, in, attrs);
  auto run = [&]<class T>() {
    auto go = [&](auto f) { binaryLoop<T, bool>(in[0], in[1], out[0], f); };
    if constexpr (K == OpKind::Equal) go([](const T &x, const T &y) { return x == y; });
    else if constexpr (K == OpKind::NotEqual) go([](const T &x, const T &y) { return x != y; });
    else if constexpr (K == OpKind::Less) go([](const T &x, const T &y) { return x < y; });
    else if constexpr (K == OpKind::LessEqual) go([](const T &x, const T &y) { return x <= y; });
    else if constexpr (K == OpKind::Greater) go([](const T &x, const T &y) { return x > y; });
    else if constexpr (K == OpKind::GreaterEqual) go([](const T &x, const T &y) { return x >= y; });
  };
  if (in[0].dtype() == DType::String) {
    run.template operator()<std::string>();
  } else if (ir::isComplex(in[0].dtype())) {  // the type rule admits only (not_)equal
    dispatchWithComplex(in[0].dtype(), [&]<class T>() {
      auto go = [&](auto f) { binaryLoop<T, bool>(in[0], in[1], out[0], f); };
      if constexpr (K == OpKind::Equal) go([](const T &x, const T &y) { return x == y; });
      else if constexpr (K == OpKind::NotEqual) go([](const T &x, const T &y) { return x != y; });
      else fail(K, "complex operands are not supported");
    });
  } else {
    dispatchNumeric(in[0].dtype(), run);
  }
  return out;
}

template <OpKind K> std::vector<Tensor> logical(std::span<const Tensor> in, const ir::Attrs &attrs) {
  std::vector<Tensor> out = allocateOutputs(K, in, attrs);
  if constexpr (K == OpKind::LogicalNot) {
    const bool *p = in[0].data<bool>();
    bool *o = out[0].data<bool>();
    for (int64_t i = 0; i < out[0].numElements(); ++i) o[i] = !p[i];
  } else {
    binaryLoop<bool, bool>(in[0], in[1], out[0], [](bool x, bool y) {
      return K == OpKind::LogicalAnd ? (x && y) : (x || y);
    });
  }
  return out;
}

std::vector<Tensor> selectKernel(std::span<const Tensor> in, const ir::Attrs &attrs) {
  std::vector<Tensor> out = allocateOutputs(OpKind::Select, in, attrs);
  const bool *c = in[0].data<bool>();
  Tensor &o = out[0];
  forEachBroadcast<3>(o.shape(), {&in[0].shape(), &in[1].shape(), &in[2].shape()},
                      [&](int64_t i, const std::array<int64_t, 3> &off) {
                        if (c[off[0]]) copyElement(in[1], off[1], o, i);
                        else copyElement(in[2], off[2], o, i);
                      });
  return out;
}

template <OpKind K> std::vector<Tensor> unary(std::span<const Tensor> in, const ir::Attrs &attrs) {
  std::vector<Tensor> out = allocateOutputs(K, in, attrs);
  if (in[0].dtype() == DType::String) {  // identity
    for (int64_t i = 0; i < in[0].numElements(); ++i) copyElement(in[0], i, out[0], i);
    return out;
  }
  dispatchWithComplex(in[0].dtype(), [&]<class T>() {
    const T *p = in[0].data<T>();
    int64_t n = out[0].numElements();
    if constexpr (isComplex<T> && K == OpKind::Abs) {  // |x|, a real tensor (TF's ComplexAbs)
      auto *o = out[0].data<typename T::value_type>();
      for (int64_t i = 0; i < n; ++i) o[i] = std::abs(p[i]);
      return;
    } else {
      T *o = out[0].data<T>();
      auto run = [&](auto f) { for (int64_t i = 0; i < n; ++i) o[i] = f(p[i]); };
      // float32 transcendentals: SLEEF on whole arrays, tanh and sigmoid
      // as TF computes them (Note [Vector math]).
      if constexpr (std::is_same_v<T, float>) {
        if constexpr (K == OpKind::Exp || K == OpKind::Log || K == OpKind::Sin || K == OpKind::Cos) {
          constexpr vmath::Fn fn = K == OpKind::Exp ? vmath::Fn::Exp
                                   : K == OpKind::Log ? vmath::Fn::Log
                                   : K == OpKind::Sin ? vmath::Fn::Sin
                                                      : vmath::Fn::Cos;
          vmath::apply(fn, p, o, n);
          return;
        } else if constexpr (K == OpKind::Tanh) {
          vmath::tanhArray(p, o, n);
          return;
        } else if constexpr (K == OpKind::Sigmoid) {
          vmath::sigmoidArray(p, o, n);
          return;
        }
      }
      if constexpr (std::is_same_v<T, bool>) {
        if constexpr (K == OpKind::ZerosLike) run([](bool) { return false; });
        else if constexpr (K == OpKind::OnesLike) run([](bool) { return true; });
        else run([](bool x) { return x; });
      } else if constexpr (isComplex<T>) {
        using R = typename T::value_type;
        if constexpr (K == OpKind::Identity) run([](T x) { return x; });
        else if constexpr (K == OpKind::Neg) run([](T x) { return -x; });
        else if constexpr (K == OpKind::Sign) run([](T x) { return x == T(0) ? T(0) : x / std::abs(x); });
        else if constexpr (K == OpKind::Square) run([](T x) { return x * x; });
        else if constexpr (K == OpKind::ZerosLike) run([](T) { return T(0); });
        else if constexpr (K == OpKind::OnesLike) run([](T) { return T(1); });
        else if constexpr (K == OpKind::Sqrt) run([](T x) { return std::sqrt(x); });
        else if constexpr (K == OpKind::Rsqrt) run([](T x) { return R(1) / std::sqrt(x); });
        else if constexpr (K == OpKind::Exp) run([](T x) { return std::exp(x); });
        else if constexpr (K == OpKind::Log) run([](T x) { return std::log(x); });
        else if constexpr (K == OpKind::Sin) run([](T x) { return std::sin(x); });
        else if constexpr (K == OpKind::Cos) run([](T x) { return std::cos(x); });
        else if constexpr (K == OpKind::Tanh) run([](T x) { return std::tanh(x); });
        else if constexpr (K == OpKind::Sigmoid) run([](T x) { return R(1) / (R(1) + std::exp(-x)); });
        else if constexpr (K == OpKind::Acos) run([](T x) { return std::acos(x); });
        else if constexpr (K == OpKind::Asin) run([](T x) { return std::asin(x); });
        else if constexpr (K == OpKind::Atan) run([](T x) { return std::atan(x); });
        else if constexpr (K == OpKind::Acosh) run([](T x) { return std::acosh(x); });
        else if constexpr (K == OpKind::Asinh) run([](T x) { return std::asinh(x); });
        else if constexpr (K == OpKind::Atanh) run([](T x) { return std::atanh(x); });
        else fail(K, fmt::format("{} operands are not supported", ir::dtypeName(in[0].dtype())));
      } else {
        if constexpr (K == OpKind::Identity) run([](T x) { return x; });
        else if constexpr (K == OpKind::Neg) run([](T x) { return wrapNeg<T>(x); });
        else if constexpr (K == OpKind::Abs) run([](T x) { return isNegative(x) ? wrapNeg<T>(x) : x; });
        else if constexpr (K == OpKind::Sign) run([](T x) { return x != x ? x : T((x > T(0)) - isNegative(x)); });  // NaN stays NaN (TF 2, np.sign)
        else if constexpr (K == OpKind::Square) run([](T x) { return wrapMul<T>(x, x); });
        else if constexpr (K == OpKind::Relu) run([](T x) { return !(x <= T(0)) ? x : T(0); });  // NaN stays NaN (TF, np.maximum)
        else if constexpr (K == OpKind::ZerosLike) run([](T) { return T(0); });
        else if constexpr (K == OpKind::OnesLike) run([](T) { return T(1); });
        else if constexpr (K == OpKind::Sqrt) run([](T x) { return T(std::sqrt(x)); });
        else if constexpr (K == OpKind::Rsqrt) run([](T x) { return T(1 / std::sqrt(x)); });
        else if constexpr (K == OpKind::Exp) run([](T x) { return T(std::exp(x)); });
        else if constexpr (K == OpKind::Log) run([](T x) { return T(std::log(x)); });
        else if constexpr (K == OpKind::Sin) run([](T x) { return T(std::sin(x)); });
        else if constexpr (K == OpKind::Cos) run([](T x) { return T(std::cos(x)); });
        else if constexpr (K == OpKind::Tanh) run([](T x) { return T(std::tanh(x)); });
        else if constexpr (K == OpKind::Sigmoid) run([](T x) { return T(1 / (1 + std::exp(-x))); });
        else if constexpr (K == OpKind::Erf) run([](T x) { return T(std::erf(x)); });
        else if constexpr (K == OpKind::Acos) run([](T x) { return T(std::acos(x)); });
        else if constexpr (K == OpKind::Asin) run([](T x) { return T(std::asin(x)); });
        else if constexpr (K == OpKind::Atan) run([](T x) { return T(std::atan(x)); });
        else if constexpr (K == OpKind::Acosh) run([](T x) { return T(std::acosh(x)); });
        else if constexpr (K == OpKind::Asinh) run([](T x) { return T(std::asinh(x)); });
        else if constexpr (K == OpKind::Atanh) run([](T x) { return T(std::atanh(x)); });
      }
    }
  });
  return out;
}

std::vector<Tensor> reluGrad(std::span<const Tensor> in, const ir::Attrs &attrs) {
  // relu_grad(dy, x): dy where x > 0.
  std::vector<Tensor> out = allocateOutputs(OpKind::ReluGrad, in, attrs);
  dispatchNumeric(in[0].dtype(), [&]<class T>() {
    if constexpr (!std::is_same_v<T, bool>)
      binaryLoop<T, T>(in[0], in[1], out[0], [](T g, T x) { return x > 0 ? g : T(0); });
  });
  return out;
}

std::vector<Tensor> castKernel(std::span<const Tensor> in, const ir::Attrs &attrs) {
  std::vector<Tensor> out = allocateOutputs(OpKind::Cast, in, attrs);
  const Tensor &x = in[0];
  Tensor &o = out[0];
  int64_t n = x.numElements();
  if (x.dtype() == DType::String) {
    for (int64_t i = 0; i < n; ++i) copyElement(x, i, o, i);
    return out;
  }
  // Every pair of dtypes, float16/bfloat16 and complex included (the one
  // kernel that sees half floats directly).
  ir::visitNumericDType(x.dtype(), [&]<class From>() {
    const From *p = x.data<From>();
    ir::visitNumericDType(o.dtype(), [&]<class To>() {
      To *q = o.data<To>();
      for (int64_t i = 0; i < n; ++i) q[i] = ir::numericCast<From, To>(p[i]);
    });
  });
  return out;
}

}  // namespace

void registerElementwise(KernelTable &t) {
  t[size_t(OpKind::Add)] = binaryArith<OpKind::Add>;
  t[size_t(OpKind::Sub)] = binaryArith<OpKind::Sub>;
  t[size_t(OpKind::Mul)] = binaryArith<OpKind::Mul>;
  t[size_t(OpKind::Div)] = binaryArith<OpKind::Div>;
  t[size_t(OpKind::FloorDiv)] = binaryArith<OpKind::FloorDiv>;
  t[size_t(OpKind::FloorMod)] = binaryArith<OpKind::FloorMod>;
  t[size_t(OpKind::Pow)] = binaryArith<OpKind::Pow>;
  t[size_t(OpKind::Maximum)] = binaryArith<OpKind::Maximum>;
  t[size_t(OpKind::Minimum)] = binaryArith<OpKind::Minimum>;
  t[size_t(OpKind::SquaredDifference)] = binaryArith<OpKind::SquaredDifference>;
  t[size_t(OpKind::Equal)] = compare<OpKind::Equal>;
  t[size_t(OpKind::NotEqual)] = compare<OpKind::NotEqual>;
  t[size_t(OpKind::Less)] = compare<OpKind::Less>;
  t[size_t(OpKind::LessEqual)] = compare<OpKind::LessEqual>;
  t[size_t(OpKind::Greater)] = compare<OpKind::Greater>;
  t[size_t(OpKind::GreaterEqual)] = compare<OpKind::GreaterEqual>;
  t[size_t(OpKind::LogicalAnd)] = logical<OpKind::LogicalAnd>;
  t[size_t(OpKind::LogicalOr)] = logical<OpKind::LogicalOr>;
  t[size_t(OpKind::LogicalNot)] = logical<OpKind::LogicalNot>;
  t[size_t(OpKind::Select)] = selectKernel;
  t[size_t(OpKind::Identity)] = unary<OpKind::Identity>;
  t[size_t(OpKind::Neg)] = unary<OpKind::Neg>;
  t[size_t(OpKind::Abs)] = unary<OpKind::Abs>;
  t[size_t(OpKind::Sign)] = unary<OpKind::Sign>;
  t[size_t(OpKind::Square)] = unary<OpKind::Square>;
  t[size_t(OpKind::Sqrt)] = unary<OpKind::Sqrt>;
  t[size_t(OpKind::Rsqrt)] = unary<OpKind::Rsqrt>;
  t[size_t(OpKind::Exp)] = unary<OpKind::Exp>;
  t[size_t(OpKind::Log)] = unary<OpKind::Log>;
  t[size_t(OpKind::Sin)] = unary<OpKind::Sin>;
  t[size_t(OpKind::Cos)] = unary<OpKind::Cos>;
  t[size_t(OpKind::Tanh)] = unary<OpKind::Tanh>;
  t[size_t(OpKind::Sigmoid)] = unary<OpKind::Sigmoid>;
  t[size_t(OpKind::Erf)] = unary<OpKind::Erf>;
  t[size_t(OpKind::Acos)] = unary<OpKind::Acos>;
  t[size_t(OpKind::Asin)] = unary<OpKind::Asin>;
  t[size_t(OpKind::Atan)] = unary<OpKind::Atan>;
  t[size_t(OpKind::Acosh)] = unary<OpKind::Acosh>;
  t[size_t(OpKind::Asinh)] = unary<OpKind::Asinh>;
  t[size_t(OpKind::Atanh)] = unary<OpKind::Atanh>;
  t[size_t(OpKind::Atan2)] = binaryArith<OpKind::Atan2>;
  t[size_t(OpKind::TruncateDiv)] = binaryArith<OpKind::TruncateDiv>;
  t[size_t(OpKind::TruncateMod)] = binaryArith<OpKind::TruncateMod>;
  t[size_t(OpKind::Relu)] = unary<OpKind::Relu>;
  t[size_t(OpKind::ZerosLike)] = unary<OpKind::ZerosLike>;
  t[size_t(OpKind::OnesLike)] = unary<OpKind::OnesLike>;
  t[size_t(OpKind::ReluGrad)] = reluGrad;
  t[size_t(OpKind::Cast)] = castKernel;
}

}  // namespace tfs::runtime::kernels
