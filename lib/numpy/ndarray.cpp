// numpy's conversion, promotion and shape rules (see ndarray.h).
#include "lib/numpy/ndarray.h"
#include "runtime/interp/complex_object.h"
#include "lib/numpy/object_array.h"
#include "lib/numpy/ndarray_text.h"
#include "lib/numpy/strided_gather.h"

#include "runtime/tensor/allocator.h"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>

namespace tfs::runtime::tf::numpy {

namespace {

// A shape as Python prints the tuple, "(2, 3)": numpy's MemoryError formats
// the shape in Python (its C messages use shapeText's "(2,3)").
std::string pyTupleText(const Shape &shape) {
  if (shape.size() == 1) return fmt::format("({},)", shape[0]);
  return fmt::format("({})", fmt::join(shape, ", "));
}
// numpy's kind order for value-based casting: b < i/u < f < S.
int kindOf(DType d) {
  if (d == DType::Bool) return 0;
  if (ir::isInteger(d)) return 1;
  if (ir::isFloating(d)) return 2;
  return 3;
}
int64_t bitsOf(DType d) { return int64_t(ir::dtypeSize(d)) * 8; }
// The bits of mantissa (with the implicit one) a float type holds.
int mantissaBits(DType d) { return d == DType::Float16 ? 11 : d == DType::Float32 ? 24 : 53; }

// numpy's 'safe' casting between numeric types.
bool canCastSafely(DType from, DType to) {
  if (from == to || from == DType::Bool) return true;
  if (to == DType::Bool) return false;
  // complex64 holds what float32 holds, complex128 what float64 holds
  if (ir::isComplex(from)) return ir::isComplex(to) && bitsOf(to) >= bitsOf(from);
  if (ir::isComplex(to)) return canCastSafely(from, to == DType::Complex64 ? DType::Float32 : DType::Float64);
  if (ir::isFloating(from)) return ir::isFloating(to) && bitsOf(to) >= bitsOf(from);
  bool fromUnsigned = ir::isUnsigned(from);
  if (ir::isFloating(to)) {
    // int64 / uint64 to float64 counts as safe in numpy.
    int64_t valueBits = bitsOf(from) - (fromUnsigned ? 0 : 1);
    return to == DType::Float64 || valueBits < mantissaBits(to);
  }
  if (ir::isUnsigned(to)) return fromUnsigned && bitsOf(to) >= bitsOf(from);
  return fromUnsigned ? bitsOf(to) > bitsOf(from) : bitsOf(to) >= bitsOf(from);
}

// numpy's type numbers' order: promote_types finds the first type here both
// operands cast to safely.
constexpr DType kPromotionOrder[] = {DType::Bool,   DType::Int8,   DType::UInt8,   DType::Int16,
                                     DType::UInt16, DType::Int32,  DType::UInt32,  DType::Int64,
                                     DType::UInt64, DType::Float16, DType::Float32, DType::Float64};

// The integer type of the same size with the other signedness.
DType signedOf(DType u) {
  switch (u) {
  case DType::UInt8: return DType::Int8;
  case DType::UInt16: return DType::Int16;
  case DType::UInt32: return DType::Int32;
  default: return DType::Int64;
  }
}

// numpy's min_scalar_type of a scalar operand: the smallest type of its kind
// that holds its value. `smallUnsigned`: a non-negative integer that also
// fits the signed type of that size (numpy then treats it as signed beside
// signed operands).
DType minScalarType(const Tensor &t, bool &smallUnsigned) {
  smallUnsigned = false;
  DType d = t.dtype();
  if (ir::isInteger(d)) {
    if (d == DType::UInt64 && t.data<uint64_t>()[0] > uint64_t(INT64_MAX)) return DType::UInt64;
    int64_t v = t.elementAsInt(0);
    if (v >= 0) {
      for (DType u : {DType::UInt8, DType::UInt16, DType::UInt32}) {
        if (v < (int64_t(1) << bitsOf(u))) {
          smallUnsigned = v < (int64_t(1) << (bitsOf(u) - 1));
          return u;
        }
      }
      smallUnsigned = true;
      return DType::UInt64;
    }
    for (DType s : {DType::Int8, DType::Int16, DType::Int32})
      if (v >= -(int64_t(1) << (bitsOf(s) - 1))) return s;
    return DType::Int64;
  }
  if (ir::isFloating(d)) {
    double v = t.elementAsDouble(0);
    if (!std::isfinite(v) || (v > -65000.0 && v < 65000.0)) return DType::Float16;
    if (v > -3.4e38 && v < 3.4e38) return DType::Float32;
    return DType::Float64;
  }
  if (ir::isComplex(d)) {  // complex64 when both parts are in float32's range
    std::complex<double> z = d == DType::Complex64 ? std::complex<double>(t.data<ir::complex64>()[0])
                                                   : t.data<ir::complex128>()[0];
    auto fits = [](double v) { return !std::isfinite(v) || (v > -3.4e38 && v < 3.4e38); };
    return fits(z.real()) && fits(z.imag()) ? DType::Complex64 : DType::Complex128;
  }
  return d;
}
}  // namespace

DType promoteTypes(DType a, DType b) {
  if (a == b) return a;
  if (a == DType::String || b == DType::String) return DType::String;
  if (ir::isComplex(a) || ir::isComplex(b)) {
    // complex64 holds bool, 8/16-bit ints and float16/32 exactly; wider needs complex128.
    auto fits64 = [](DType t) {
      return t == DType::Complex64 || t == DType::Float32 || t == DType::Float16 || t == DType::Bool ||
             t == DType::Int8 || t == DType::Int16 || t == DType::UInt8 || t == DType::UInt16;
    };
    return fits64(a) && fits64(b) ? DType::Complex64 : DType::Complex128;
  }
  for (DType t : kPromotionOrder)
    if (canCastSafely(a, t) && canCastSafely(b, t)) return t;
  return DType::Float64;
}

DType resultType(Interpreter &in, const std::vector<Value> &operands) {
  struct Operand {
    DType dtype;
    bool scalar;
    Tensor value;  // a scalar's value (numpy's value-based casting)
  };
  std::vector<Operand> ops;
  for (const Value &v : operands) {
    if (v.isBool()) ops.push_back({DType::Bool, true, Tensor::scalar(v.asBool())});
    else if (v.isInt()) ops.push_back({DType::Int64, true, Tensor::scalar(v.asInt())});
    else if (v.isFloat()) ops.push_back({DType::Float64, true, Tensor::scalar(v.asFloat())});
    else {
      auto *t = v.as<TensorObject>();
      Tensor x = t && !t->symbolic() ? t->eager : asTensor(in, v);
      ops.push_back({x.dtype(), x.rank() == 0, x});
    }
  }
  int arrayKind = -1, scalarKind = -1;
  for (const auto &o : ops) (o.scalar ? scalarKind : arrayKind) = std::max(o.scalar ? scalarKind : arrayKind, kindOf(o.dtype));
  DType base = DType::Bool;
  bool first = true;
  auto join = [&](DType d) {
    base = first ? d : promoteTypes(base, d);
    first = false;
  };
  if (arrayKind < 0 || scalarKind > arrayKind) {
    bool unused = false;  // a Python complex beside arrays counts by its value (float32 * 1j is complex64)
    for (const auto &o : ops) join(o.scalar && ir::isComplex(o.dtype) && arrayKind >= 0 ? minScalarType(o.value, unused) : o.dtype);
    return first ? DType::Float64 : base;
  }
  for (const auto &o : ops)
    if (!o.scalar) join(o.dtype);
  for (const auto &o : ops) {
    if (!o.scalar) continue;
    if (o.dtype == DType::String) {
      join(o.dtype);
      continue;
    }
    bool smallUnsigned = false;
    DType m = minScalarType(o.value, smallUnsigned);
    if (smallUnsigned && ir::isInteger(base) && !ir::isUnsigned(base)) m = signedOf(m);
    join(m);
  }
  return base;
}

bool canCastSameKind(DType from, DType to) {
  if (from == to) return true;
  if (to == DType::String || from == DType::String) return false;
  // signed to unsigned is a kind change ('i' to 'u'), unsigned to signed is not.
  if (ir::isInteger(from) && ir::isUnsigned(to) && !ir::isUnsigned(from)) return false;
  return kindOf(from) <= kindOf(to);
}

bool canCastSafe(DType from, DType to) {
  if (from == DType::String || to == DType::String) return from == to;
  return canCastSafely(from, to);
}

Tensor widenHalf(const Tensor &t) { return t.dtype() == DType::Float16 ? cast(t, DType::Float32) : t; }

Tensor narrowLike(const Tensor &result, DType like) {
  return like == DType::Float16 && result.dtype() == DType::Float32 ? cast(result, DType::Float16) : result;
}

// --- conversions -----------------------------------------------------------------

TensorObject *ndarrayOf(const Value &v) {
  auto *t = v.as<TensorObject>();
  return t && t->numpy && !t->symbolic() ? t : nullptr;
}

namespace {
// np.array([...]) over arrays and numpy scalars: numpy promotes the leaves'
// dtypes (no value-based casting here: Python bools/ints/floats/complex
// count as bool/int64/float64/complex128), so a list of int32 arrays is
// int32. Sets anyArray when some leaf is an array or numpy scalar.
void joinLeafDTypes(const Value &v, std::optional<DType> &acc, bool &anyArray, bool &anyText, int depth) {
  auto join = [&](DType d) { acc = acc ? promoteTypes(*acc, d) : d; };
  if (auto *t = v.as<TensorObject>(); t && !t->symbolic()) {
    anyArray = true;
    if (t->eager.dtype() == DType::String) anyText = true;
    else join(t->eager.dtype());
  } else if (auto *var = v.as<VariableObject>()) {
    anyArray = true;
    join(var->dtype);
  } else if ((v.as<ListObject>() || v.as<TupleObject>()) && depth < 64) {
    for (const Value &x : v.as<ListObject>() ? v.as<ListObject>()->items : v.as<TupleObject>()->items)
      joinLeafDTypes(x, acc, anyArray, anyText, depth + 1);
  } else if (v.isBool()) {
    join(DType::Bool);
  } else if (v.isInt()) {
    join(DType::Int64);
  } else if (v.isFloat()) {
    join(DType::Float64);
  } else if (v.as<ComplexObject>()) {
    join(DType::Complex128);
  } else {
    anyText = true;  // text or anything else: tensorFromPython decides
  }
}
}  // namespace

Tensor asTensor(Interpreter &in, const Value &v, std::optional<DType> dtype) {
  if (dtype) requireNumpyDType(in, *dtype);
  // A fully known TensorShape is a sequence of ints to numpy (a partially
  // known one holds None: an object array, object_array.cpp).
  if (auto *s = v.as<TensorShapeObject>(); s && s->shape.ranked &&
                                           std::none_of(s->shape.dims.begin(), s->shape.dims.end(),
                                                        [](int64_t d) { return d < 0; })) {
    std::vector<Value> dims;
    for (int64_t d : s->shape.dims) dims.push_back(Value::integer(d));
    return asTensor(in, in.list(dims), dtype);
  }
  if (!dtype && (v.as<ListObject>() || v.as<TupleObject>())) {
    std::optional<DType> leaves;
    bool anyArray = false, anyText = false;
    joinLeafDTypes(v, leaves, anyArray, anyText, 0);
    if (anyArray && !anyText && leaves) dtype = leaves;
  }
  Tensor t;
  if (auto *o = v.as<TensorObject>()) {
    if (o->symbolic())
      in.raise("NotImplementedError",
               fmt::format("Cannot convert a symbolic tf.Tensor ({}) to a numpy array.", o->tensorName()));
    t = o->eager;
  } else if (auto *var = v.as<VariableObject>()) {
    t = *var->value;
  } else if (v.isNone()) {
    in.raise("TypeError", "tfs: None (numpy's object arrays) is not supported by tfs");
  } else {
    if (dtype && *dtype != DType::String) {
      // Python floats into an int array truncate (numpy's unsafe cast).
      Tensor inferred = tensorFromPython(in, v, std::nullopt, true);
      // Python complex numbers into a real array: numpy converts each with
      // float() / int(), which refuse them.
      if (ir::isComplex(inferred.dtype()) && !ir::isComplex(*dtype) && *dtype != DType::Bool)
        in.raise("TypeError", ir::isInteger(*dtype)
                                  ? "int() argument must be a string, a bytes-like object or a real number, not 'complex'"
                                  : "float() argument must be a string or a real number, not 'complex'");
      return inferred.dtype() == *dtype ? inferred : cast(inferred, *dtype);
    }
    t = tensorFromPython(in, v, dtype, true);
  }
  requireNumpyDType(in, t.dtype());
  if (dtype && *dtype != t.dtype()) {
    if ((*dtype == DType::String) != (t.dtype() == DType::String))
      in.raise("ValueError", fmt::format("could not convert array of {} to {}", numpyDTypeName(t.dtype()),
                                         numpyDTypeName(*dtype)));
    t = cast(t, *dtype);
  }
  return t;
}

std::optional<DType> dtypeParam(Interpreter &in, const Value &v) {
  if (v.isNone()) return std::nullopt;
  // numpy's structured and subarray dtypes ([('a', 'i4'), ('b', 'f8')],
  // {'names': ..., 'formats': ...}, 'i4,f8', (np.float32, (2,))): records
  // tfs's arrays cannot hold.
  auto *text = v.as<StrObject>();
  if (v.as<ListObject>() || v.as<TupleObject>() || v.as<DictObject>() || (text && text->s.find(',') != std::string::npos))
    in.raise("NotImplementedError",
             fmt::format("structured dtypes (numpy record arrays) such as {} are not supported by tfs", in.repr(v)));
  if (isObjectDType(v))  // the functions that make object arrays check before they get here
    in.raise("NotImplementedError", "dtype=object (numpy object arrays) is not supported by tfs in this function");
  if (textDTypeParam(in, v)) return DType::String;  // 'U5', np.str_, ... (ndarray_text.h)
  // Time arrays are .tfs objects (lib/numpy/_np_time_array.tfs) that the numpy
  // functions send there before they read a dtype (np_time_dispatch.cpp).
  auto *cls = v.as<ClassObject>();
  bool timeClass = false;
  if (cls && (cls->name == "datetime64" || cls->name == "timedelta64"))
    if (auto module = cls->lookup("__module__"); module && module->as<StrObject>())
      timeClass = module->as<StrObject>()->s == "numpy";
  if (timeClass || (text && text->s.find_first_of("Mm") != std::string::npos &&
                    (text->s.find("datetime64") != std::string::npos || text->s.find("timedelta64") != std::string::npos ||
                     text->s.find("M8") != std::string::npos || text->s.find("m8") != std::string::npos)))
    in.raise("NotImplementedError", fmt::format("datetime64/timedelta64 arrays (dtype {}) are not supported by tfs "
                                                "in this function", in.repr(v)));
  if (auto *s = v.as<StrObject>()) {
    if (auto d = parseNumpyDTypeName(s->s)) return d;
    in.raise("TypeError", fmt::format("data type {} not understood", in.repr(v)));
  }
  if (auto *c = v.as<ClassObject>(); c && c->module.empty()) {
    // Python's types stand for numpy's defaults.
    if (c->name == "float") return DType::Float64;
    if (c->name == "int") return DType::Int64;
    if (c->name == "bool") return DType::Bool;
    if (c->name == "complex") return DType::Complex128;
    if (c->name == "str" || c->name == "bytes") return DType::String;
  }
  return dtypeArg(in, v);
}

Value newArray(Tensor t) {
  Value v = wrap(std::move(t), true);
  v.as<TensorObject>()->zeroDimArray = true;
  return v;
}

Value scalarOrArray(Tensor t) { return t.rank() == 0 ? wrap(std::move(t), true) : newArray(std::move(t)); }

Tensor cast(const Tensor &t, DType d) {
  if (t.dtype() == d) return t;
  // numpy drops the imaginary part with a ComplexWarning; tfs has no warning
  // to give, and most callers here compute in a real type: refuse instead of
  // a silently real result (np.real / .real take the real part).
  if (ir::isComplex(t.dtype()) && !ir::isComplex(d) && d != DType::Bool)
    throw ir::OpError{"NotImplementedError",
                      fmt::format("this numpy operation on a {} array (a cast to {} that drops the imaginary part) is "
                                  "not supported by tfs", numpyDTypeName(t.dtype()), numpyDTypeName(d))};
  return runKernel(ir::OpKind::Cast, std::vector<Tensor>{t}, ir::Attrs{{"dtype", d}})[0];
}

// --- shapes and axes -----------------------------------------------------------------

Shape cStrides(const Shape &shape) {
  Shape s(shape.size(), 1);
  for (size_t d = shape.size(); d-- > 1;) s[d - 1] = s[d] * shape[d];
  return s;
}

int64_t elementCount(const Shape &shape) {
  int64_t n = 1;
  for (int64_t d : shape) n *= d;
  return n;
}

int64_t checkedCount(Interpreter &in, const Shape &shape, DType d) {
  int64_t n = 1, bytes = 0;
  bool tooLarge = false;
  for (int64_t x : shape) tooLarge |= x < 0 || __builtin_mul_overflow(n, x, &n);
  tooLarge |= __builtin_mul_overflow(n, int64_t(ir::dtypeSize(d)), &bytes);
  int64_t limit = memoryLimit();
  if (tooLarge || (limit > 0 && bytes > limit))
    in.raise("MemoryError", fmt::format("Unable to allocate an array with shape {} and data type {}", pyTupleText(shape),
                                        numpyDTypeName(d)));
  return n;
}

// numpy's C-level shape text in its error messages: "(2,3)", "(4,)".
std::string shapeText(const Shape &shape) {
  if (shape.size() == 1) return fmt::format("({},)", shape[0]);
  return fmt::format("({})", fmt::join(shape, ","));
}

Shape shapeParam(Interpreter &in, const Value &v) {
  Shape s;
  if (v.as<ListObject>() || v.as<TupleObject>() || ndarrayOf(v) ||
      v.as<TensorShapeObject>()) {  // a TensorShape is a sequence of ints
    for (const Value &d : in.toList(v)) s.push_back(in.toIndex(d));
  } else {
    s.push_back(in.toIndex(v));
  }
  for (int64_t d : s)
    if (d < 0) in.raise("ValueError", "negative dimensions are not allowed");
  return s;
}

Ref<ClassObject> axisErrorClass(Interpreter &in) {
  // numpy.AxisError is both a ValueError and an IndexError.
  if (auto it = in.builtins()->vars.find("AxisError"); it != in.builtins()->vars.end())
    if (auto *c = it->second.as<ClassObject>()) return Ref<ClassObject>(c);
  Ref<ClassObject> c = in.newExceptionClass("AxisError", "ValueError");
  c->module = "numpy";
  Ref<ClassObject> indexError = in.exceptionClass("IndexError");
  auto at = std::find(c->mro.begin(), c->mro.end(), in.exceptionClass("Exception").get());
  c->mro.insert(at, indexError.get());
  c->bases.push_back(indexError);
  return c;
}

void raiseAxisError(Interpreter &in, int64_t axis, int64_t ndim) {
  in.raiseValue(in.newException(axisErrorClass(in), fmt::format("axis {} is out of bounds for array of dimension {}",
                                                                 axis, ndim)));
}

int64_t normalizeAxis(Interpreter &in, int64_t axis, int64_t ndim) {
  if (axis < -ndim || axis >= ndim) raiseAxisError(in, axis, ndim);
  return axis < 0 ? axis + ndim : axis;
}

std::vector<bool> axisMask(Interpreter &in, const Value &axis, size_t ndim) {
  std::vector<bool> mask(ndim, axis.isNone());
  if (axis.isNone()) return mask;
  std::vector<Value> items = axis.as<TupleObject>() || axis.as<ListObject>() ? in.toList(axis) : std::vector<Value>{axis};
  for (const Value &a : items) {
    if (a.isFloat()) in.raise("TypeError", "'float' object cannot be interpreted as an integer");
    int64_t d = normalizeAxis(in, in.toIndex(a), int64_t(ndim));
    if (mask[size_t(d)]) in.raise("ValueError", "duplicate value in 'axis'");
    mask[size_t(d)] = true;
  }
  return mask;
}

Shape broadcastShapes(Interpreter &in, const std::vector<Shape> &shapes) {
  size_t rank = 0;
  for (const auto &s : shapes) rank = std::max(rank, s.size());
  Shape out(rank, 1);
  for (const auto &s : shapes) {
    for (size_t i = 0; i < s.size(); ++i) {
      int64_t &o = out[rank - s.size() + i];
      int64_t d = s[i];
      if (d == o || d == 1) continue;
      if (o == 1) {
        o = d;
        continue;
      }
      std::string text;
      for (const auto &t : shapes) text += shapeText(t) + " ";
      in.raise("ValueError", "operands could not be broadcast together with shapes " + text);
    }
  }
  return out;
}

// --- moving elements -----------------------------------------------------------------

Tensor gather(const Tensor &src, const Shape &shape, const std::vector<int64_t> &flat) {
  Tensor out = Tensor::empty(src.dtype(), shape);
  // An internal invariant, checked because a miscomputed position would
  // read (and for strings, free) memory that is not an element.
  bool inRange = int64_t(flat.size()) == out.numElements();
  for (int64_t p : flat) inRange &= p >= 0 && p < src.numElements();
  if (!inRange) throw ir::OpError{"InternalError", "tfs: internal error: element position out of range"};
  visitElementType(src.dtype(), [&](auto tag) {
    using T = decltype(tag);
    const T *s = src.data<T>();
    T *o = out.data<T>();
    for (size_t i = 0; i < flat.size(); ++i) o[i] = s[flat[i]];
  });
  return out;
}

std::vector<int64_t> stridedPositions(const Shape &shape, int64_t offset, const Shape &strides) {
  int64_t n = elementCount(shape);
  std::vector<int64_t> pos(size_t(std::max<int64_t>(n, 0)));
  if (n == 0) return pos;
  std::vector<int64_t> idx(shape.size(), 0);
  int64_t cur = offset;
  for (int64_t k = 0; k < n; ++k) {
    pos[size_t(k)] = cur;
    for (size_t d = shape.size(); d-- > 0;) {
      if (++idx[d] < shape[d]) {
        cur += strides[d];
        break;
      }
      cur -= strides[d] * (shape[d] - 1);
      idx[d] = 0;
    }
  }
  return pos;
}

// stridedGather (strided_gather.h): no position per element (8 bytes each:
// a broadcast or a transpose of a 150 MB uint8 array would build 1.2 GB of
// them).
Tensor stridedGather(const Tensor &src, const Shape &shape, int64_t offset, const Shape &strides) {
  Tensor out = Tensor::empty(src.dtype(), shape);
  int64_t n = out.numElements();
  if (n == 0) return out;
  // Every position lies between the lowest and the highest one reachable.
  int64_t lo = offset, hi = offset;
  for (size_t d = 0; d < shape.size(); ++d) (strides[d] < 0 ? lo : hi) += strides[d] * (shape[d] - 1);
  if (lo < 0 || hi >= src.numElements())
    throw ir::OpError{"InternalError", "tfs: internal error: element position out of range"};
  size_t rank = shape.size();
  int64_t inner = rank ? shape[rank - 1] : 1, innerStride = rank ? strides[rank - 1] : 0;
  visitElementType(src.dtype(), [&](auto tag) {
    using T = decltype(tag);
    const T *s = src.data<T>();
    T *o = out.data<T>();
    std::vector<int64_t> idx(rank ? rank - 1 : 0, 0);
    int64_t cur = offset;
    for (int64_t k = 0; k < n; k += inner) {
      for (int64_t j = 0; j < inner; ++j) o[k + j] = s[cur + j * innerStride];
      // The next row: the outer index moves on like an odometer.
      for (size_t d = idx.size(); d-- > 0;) {
        if (++idx[d] < shape[d]) {
          cur += strides[d];
          break;
        }
        cur -= strides[d] * (shape[d] - 1);
        idx[d] = 0;
      }
    }
  });
  return out;
}

Tensor broadcastTo(const Tensor &src, const Shape &shape) {
  if (src.shape() == shape) return src;
  bool ok = src.rank() <= shape.size();
  for (size_t i = 0; ok && i < src.rank(); ++i) {
    int64_t d = src.shape()[src.rank() - 1 - i];
    ok = d == 1 || d == shape[shape.size() - 1 - i];
  }
  if (!ok)  // a caller's bug would otherwise read out of bounds
    throw ir::OpError{"ValueError", fmt::format("could not broadcast input array from shape {} into shape {}",
                                                shapeText(src.shape()), shapeText(shape))};
  Shape srcStrides = cStrides(src.shape()), strides(shape.size(), 0);
  size_t lead = shape.size() - src.rank();
  for (size_t i = 0; i < src.rank(); ++i) strides[lead + i] = src.shape()[i] == 1 ? 0 : srcStrides[i];
  return stridedGather(src, shape, 0, strides);
}

Tensor transposed(const Tensor &src, const std::vector<int64_t> &perm) {
  Shape srcStrides = cStrides(src.shape()), shape, strides;
  for (int64_t p : perm) {
    shape.push_back(src.shape()[size_t(p)]);
    strides.push_back(srcStrides[size_t(p)]);
  }
  return stridedGather(src, shape, 0, strides);
}

}  // namespace tfs::runtime::tf::numpy
