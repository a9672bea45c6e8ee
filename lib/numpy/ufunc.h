// numpy's universal functions on tfs arrays: elementwise unary and binary
// operations with numpy's type resolution (value-based casting for Python
// scalars), broadcasting and arithmetic (integer ops wrap, x // 0 is 0 for
// ints, float floor division and remainder as numpy's divmod computes them,
// NaN-propagating maximum), used by np.add & co. and by ndarray operators.
#pragma once

#include "lib/numpy/ndarray.h"

namespace tfs::runtime::tf::numpy {

enum class Unary {
  Negative, Positive, Absolute, Sign, Sqrt, Square, Exp, Exp2, Expm1, Log, Log2, Log10, Log1p, Sin, Cos, Tan,
  Arcsin, Arccos, Arctan, Sinh, Cosh, Tanh, Arcsinh, Arccosh, Arctanh, Floor, Ceil, Trunc, Rint, Reciprocal,
  Cbrt, Deg2rad, Rad2deg, IsNan, IsInf, IsFinite, Signbit, LogicalNot, Invert,
};

enum class Binary {
  Add, Subtract, Multiply, Divide, FloorDivide, Remainder, Power, Maximum, Minimum, Fmax, Fmin, Equal, NotEqual,
  Less, LessEqual, Greater, GreaterEqual, LogicalAnd, LogicalOr, LogicalXor, Arctan2, Hypot, BitwiseAnd,
  BitwiseOr, BitwiseXor, LeftShift, RightShift, Copysign, Logaddexp, Fmod, FloatPower,
};

// The ufunc's numpy name ("add", "true_divide", ...), for messages.
const char *ufuncName(Unary u);
const char *ufuncName(Binary b);

// The float type a float-only loop (sqrt, fabs) computes t in: t itself for
// floats, float16 for bool and 8-bit ints, float32 for 16-bit, else float64.
DType floatLoopType(DType t);

// Computes the ufunc on array-likes. `dtype`: numpy's dtype= (the loop's type).
Tensor applyUnary(Interpreter &in, Unary u, const Value &x, std::optional<DType> dtype = std::nullopt);
Tensor applyBinary(Interpreter &in, Binary b, const Value &x, const Value &y,
                   std::optional<DType> dtype = std::nullopt);
// The complex loops (ufunc_complex.cpp): x and y cast to complex dtype t and
// broadcast to `shape`; NotImplementedError for a ufunc without one.
Tensor complexBinary(Interpreter &in, Binary b, const Tensor &x, const Tensor &y, DType t, const Shape &shape);
Tensor complexUnary(Interpreter &in, Unary u, const Tensor &x);

// ndarray operators (the engine's hooks): `a + b`, `a < b`, `-a`, `a += b`.
std::optional<Value> ndarrayBinaryOp(Interpreter &in, BinOp op, const Value &a, const Value &b);
std::optional<Value> ndarrayCompare(Interpreter &in, CmpOp op, const Value &a, const Value &b);
std::optional<Value> ndarrayUnaryOp(Interpreter &in, UnaryOp op, const Value &a);
// `a op= b`: computed, cast to a's dtype under numpy's same_kind rule and
// written into a (so every name and view of a sees it); returns a.
Value ndarrayInplace(Interpreter &in, TensorObject &a, BinOp op, const Value &b);

void addUfuncFunctions(Defs &defs);

// The IEEE exceptions of a float loop as numpy's RuntimeWarnings (or
// FloatingPointError), per np.seterr (np_errstate.cpp): clear before the
// loop, report after it.
void clearFloatErrors();
void reportFloatErrors(Interpreter &in, const char *ufunc);
// numpy's scalar integer math warns on overflow ("overflow encountered in
// scalar add"), through the same error state; arrays wrap silently.
void reportIntegerOverflow(Interpreter &in, const char *ufunc);
// Marks an operator on numpy scalars (reports say "scalar divide").
class ScalarMathScope {
public:
  explicit ScalarMathScope(bool on);
  ~ScalarMathScope();
  ScalarMathScope(const ScalarMathScope &) = delete;
  ScalarMathScope &operator=(const ScalarMathScope &) = delete;
  static bool active();

private:
  bool previous_;
};

}  // namespace tfs::runtime::tf::numpy
