// The numpy library's shared vocabulary: converting arguments to arrays and
// dtypes with numpy's rules, shapes and axes, numpy's type promotion, moving
// elements between arrays, views and writes through them, and the table of
// numpy functions each file contributes (declared by numpy's own parameter
// lists, runtime/interp/signature.h).
//
// ndarrays are the engine's TensorObjects with `numpy = true` whose `eager`
// tensor holds the elements in C order. A numpy scalar (np.float64(2.5)) is
// a 0-d one without `zeroDimArray`. Views (ndarray_view.cpp) share a root
// array's elements as numpy's views do.
#pragma once

#include "ir/element_types.h"
#include "lib/tf/tf_lib.h"
#include "runtime/interp/signature.h"
#include "runtime/kernels/kernels.h"

#include <cstdint>
#include <string>
#include <vector>

namespace tfs::runtime::tf::numpy {

using Shape = std::vector<int64_t>;

// --- element types -----------------------------------------------------------

// Calls f(T{}) with T the C++ element type of d (bool, the integers,
// Eigen::half for float16, float, double, std::string).
template <class F> decltype(auto) visitElementType(DType d, F &&f) {
  switch (d) {
  case DType::Bool: return f(bool{});
  case DType::Int8: return f(int8_t{});
  case DType::Int16: return f(int16_t{});
  case DType::Int32: return f(int32_t{});
  case DType::Int64: return f(int64_t{});
  case DType::UInt8: return f(uint8_t{});
  case DType::UInt16: return f(uint16_t{});
  case DType::UInt32: return f(uint32_t{});
  case DType::UInt64: return f(uint64_t{});
  case DType::Float16: return f(ir::half{});
  case DType::Float32: return f(float{});
  case DType::Float64: return f(double{});
  case DType::Complex64: return f(ir::complex64{});
  case DType::Complex128: return f(ir::complex128{});
  case DType::String: break;
  default: break;  // dtypes tfs's numpy lacks never reach arrays (requireNumpyDType)
  }
  return f(std::string{});
}
// The same for numeric dtypes computed on directly (bool, the integers,
// float, double). Strings raise numpy's TypeError for `what`; float16 raises
// NotImplementedError naming `what` (the functions that take float16 arrays
// compute them in float32 first: widenHalf / narrowLike).
template <class F> decltype(auto) visitNumeric(Interpreter &in, DType d, const char *what, F &&f);
// visitNumeric that also takes complex64 / complex128 (ir::complex64/128).
template <class F> decltype(auto) visitNumericOrComplex(Interpreter &in, DType d, const char *what, F &&f) {
  if (d == DType::Complex64) return f(ir::complex64{});
  if (d == DType::Complex128) return f(ir::complex128{});
  return visitNumeric(in, d, what, std::forward<F>(f));
}
// numpy's complex multiply loop, (ac - bd, ad + bc), for any element type.
template <class T> T numpyMultiply(T a, T b) {
  if constexpr (ir::isComplexType<T>)
    return T(a.real() * b.real() - a.imag() * b.imag(), a.real() * b.imag() + a.imag() * b.real());
  else return T(a * b);
}
// float16 computed as numpy's float16 loops do: in float32, rounded back.
Tensor widenHalf(const Tensor &t);
// A float32 result of a computation on `like`'s dtype, back in float16
// when `like` was float16.
Tensor narrowLike(const Tensor &result, DType like);

// np.promote_types over the engine's dtypes.
DType promoteTypes(DType a, DType b);
// numpy 1.24's result dtype of an operation on these operands: arrays by
// their dtype, Python scalars by value kind only (bool < int < float), so
// `int32_array + 1` stays int32 and `float32_array * 0.5` stays float32.
DType resultType(Interpreter &in, const std::vector<Value> &operands);
// numpy's 'same_kind' casting rule (in-place operators, out= arguments).
bool canCastSameKind(DType from, DType to);
// numpy's 'safe' casting rule (np.can_cast's default).
bool canCastSafe(DType from, DType to);

// --- conversions ----------------------------------------------------------------

// An array-like argument as a tensor: ndarrays and eager tf tensors as they
// are (shared, never written), Python scalars and nested sequences with
// numpy's defaults (int64, float64), cast to `dtype` when given.
Tensor asTensor(Interpreter &in, const Value &v, std::optional<DType> dtype = std::nullopt);
// A numpy `dtype=` argument (None: nullopt): np.float32, np.dtype(...),
// 'float32' / 'f4', float / int / bool / str, tf.float32.
std::optional<DType> dtypeParam(Interpreter &in, const Value &v);
// An ndarray holding t (0-d stays a 0-d array, as np.array(3) does).
Value newArray(Tensor t);
// A ufunc / reduction result: a numpy scalar when 0-d, else an ndarray.
Value scalarOrArray(Tensor t);
// t converted to dtype d elementwise (numpy's astype, unsafe casting).
Tensor cast(const Tensor &t, DType d);
// The ndarray a Value is (null for anything else).
TensorObject *ndarrayOf(const Value &v);

// --- shapes and axes -------------------------------------------------------------

Shape cStrides(const Shape &shape);
int64_t elementCount(const Shape &shape);
// The element count of a new array of this shape, with numpy's errors:
// MemoryError past the memory budget (or overflow), before anything is built.
int64_t checkedCount(Interpreter &in, const Shape &shape, DType d);
// numpy's shape text: "(2, 3)", "(3,)", "()".
std::string shapeText(const Shape &shape);
// A shape argument: an int or a sequence of ints (negative: ValueError).
Shape shapeParam(Interpreter &in, const Value &v);
// axis in [-ndim, ndim) made non-negative; numpy.AxisError outside.
int64_t normalizeAxis(Interpreter &in, int64_t axis, int64_t ndim);
// An `axis=` argument of a reduction as a per-dimension mask: None (all),
// an int, or a tuple of ints (repeats: ValueError "duplicate value in 'axis'").
std::vector<bool> axisMask(Interpreter &in, const Value &axis, size_t ndim);
[[noreturn]] void raiseAxisError(Interpreter &in, int64_t axis, int64_t ndim);
// The broadcast shape of several shapes (ValueError "operands could not be
// broadcast together with shapes (2,) (3,) ").
Shape broadcastShapes(Interpreter &in, const std::vector<Shape> &shapes);

// --- moving elements ----------------------------------------------------------------

// A tensor of shape `shape` whose element k is src's element at flat[k].
Tensor gather(const Tensor &src, const Shape &shape, const std::vector<int64_t> &flat);
// src broadcast to `shape` (assumes the shapes are compatible).
Tensor broadcastTo(const Tensor &src, const Shape &shape);
// Axes permuted: result dim i is src dim perm[i].
Tensor transposed(const Tensor &src, const std::vector<int64_t> &perm);
// The flat positions of a strided layout, in C order of `shape`.
std::vector<int64_t> stridedPositions(const Shape &shape, int64_t offset, const Shape &strides);

// --- views and writes (ndarray_view.cpp) ---------------------------------------------

// Where an ndarray's elements live: its root array and the root positions
// of its elements (offset + sum(index * strides)).
struct Layout {
  TensorObject *root;
  int64_t offset;
  Shape strides;
};
Layout layoutOf(TensorObject &a);
// A view of `a`'s root with this shape and strided placement.
Value makeView(TensorObject &a, const Shape &shape, int64_t offset, const Shape &strides);
// a.flat: a 1-D view in C order (read-only when the array is not one strided run).
Value flatView(Interpreter &in, TensorObject &a);
// Is the array laid out in C order without gaps (its reshape is a view)?
bool isCContiguous(TensorObject &a);
// Writes values (broadcast to the target shape, cast to a's dtype) to a's
// elements at the given flat (C order) positions of a, and refreshes every
// view sharing them. ValueError when a is read-only.
void writeElements(Interpreter &in, TensorObject &a, const std::vector<int64_t> &positions, const Shape &targetShape,
                   const Tensor &values);
// a[...] = values.
void assignAll(Interpreter &in, TensorObject &a, const Tensor &values);
// numpy's `out=` argument: result written into `out` (same_kind casting,
// its shape must match) and `out` returned; None: the result itself.
Value storeOut(Interpreter &in, const Value &out, const Tensor &result, const char *ufunc, bool scalarResult = true);
// storeOut under another casting rule (a ufunc's casting= argument): `rule`
// names it in the error.
Value storeOutCasting(Interpreter &in, const Value &out, const Tensor &result, const char *ufunc,
                      bool (*castable)(DType, DType), const char *rule, bool scalarResult = true);
// numpy's UFuncTypeError (what a casting rule refuses).
Ref<ClassObject> castingErrorClass(Interpreter &in);

// --- indexing (ndarray_index.cpp) ------------------------------------------------------

std::optional<Value> getItem(Interpreter &in, TensorObject &a, const Value &key);
bool setItem(Interpreter &in, TensorObject &a, const Value &key, const Value &value);

// --- the function table ------------------------------------------------------------------

// One numpy function: its numpy 1.24 parameter list and its body.
struct Def {
  const char *signature;
  SignedFn fn;
};
using Defs = std::vector<Def>;
// Each file's functions (np.<name>), in the module numpy_module.cpp builds.
void addCreationFunctions(Defs &defs);
void addReductionFunctions(Defs &defs);
void addShapeFunctions(Defs &defs);
void addJoinFunctions(Defs &defs);
void addMathFunctions(Defs &defs);
void addSortFunctions(Defs &defs);
void addLinalgFunctions(Defs &defs);      // np.dot, np.matmul, ... (np.linalg: linalgSubmodule)
Defs linalgModuleFunctions();
// ndarray attributes and methods (ndarray_methods.cpp): the getAttr hook.
std::optional<Value> ndarrayAttribute(Interpreter &in, TensorObject &a, const std::string &name);
// np.matmul / np.dot of two array-likes (np_linalg.cpp).
Value matmulValues(Interpreter &in, const Value &a, const Value &b);
Value dotValues(Interpreter &in, const Value &a, const Value &b);
// Sorting along one axis (np_sort.cpp).
Tensor sortedAlong(Interpreter &in, const Tensor &x, int64_t axis, bool stable);
Tensor argsortAlong(Interpreter &in, const Tensor &x, int64_t axis, bool stable);
// The body of np.<name> from the table (methods that are `np.name(self, ...)`).
const Def *findFunction(const std::string &name);

// Registers the exception classes numpy raises (numpy.AxisError) in this run.
Ref<ClassObject> axisErrorClass(Interpreter &in);

template <class F> decltype(auto) visitNumeric(Interpreter &in, DType d, const char *what, F &&f) {
  if (d == DType::String) in.raise("TypeError", std::string(what) + " is not supported for string arrays");
  switch (d) {
  case DType::Bool: return f(bool{});
  case DType::Int8: return f(int8_t{});
  case DType::Int16: return f(int16_t{});
  case DType::Int32: return f(int32_t{});
  case DType::Int64: return f(int64_t{});
  case DType::UInt8: return f(uint8_t{});
  case DType::UInt16: return f(uint16_t{});
  case DType::UInt32: return f(uint32_t{});
  case DType::UInt64: return f(uint64_t{});
  case DType::Float32: return f(float{});
  case DType::Float64: break;
  default: in.raise("NotImplementedError", std::string(what) + " of " + numpyDTypeName(d) + " arrays is not supported by tfs");
  }
  return f(double{});
}

}  // namespace tfs::runtime::tf::numpy
