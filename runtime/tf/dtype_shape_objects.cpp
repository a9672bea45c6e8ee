// DTypeObject and TensorShapeObject as Python values: tf.float32's
// attributes, printing and comparisons, np.float32(x)-style calls; a
// TensorShape's attributes, indexing, merging and printing (TF's as_shape
// rules). Split from tensor_object.cpp.
#include "runtime/interp/big_int.h"
#include "ir/element_types.h"
#include "runtime/tf/tf.h"
#include "runtime/interp/signature.h"

#include <algorithm>
#include <fmt/format.h>

namespace tfs::runtime::tf {

// --- dtypes and shapes --------------------------------------------------------

Value dtypeValue(DType t) { return make<DTypeObject>(t); }

std::optional<Value> DTypeObject::getAttr(Interpreter &in, const std::string &name) {
  if (name == "name") return in.str(ir::dtypeName(dtype));
  if (name == "is_floating") return Value::boolean(ir::isFloating(dtype));
  if (name == "is_integer") return Value::boolean(ir::isInteger(dtype));
  if (name == "is_unsigned") return Value::boolean(ir::isUnsigned(dtype));
  if (name == "is_complex") return Value::boolean(ir::isComplex(dtype));
  if (name == "is_bool") return Value::boolean(dtype == DType::Bool);
  if (name == "is_quantized") return Value::boolean(false);
  if (name == "is_numpy_compatible") return Value::boolean(dtype != DType::BFloat16);
  if (name == "base_dtype") return Value(Ref<Object>(this));
  // numpy's scalar type (np.float32, np.bool_; object for strings), which
  // TF's DType is not (it is not callable).
  if (name == "as_numpy_dtype") {
    if (dtype == DType::String) return in.getAttr(in.importModule("builtins"), "object");
    if (!numpyScalarClass(dtype)) in.importModule("numpy");
    if (ClassObject *c = numpyScalarClass(dtype)) return Value(Ref<Object>(c));
    in.raise("NotImplementedError",
             fmt::format("tf.{}.as_numpy_dtype is not supported by tfs", ir::dtypeName(dtype)));
  }
  if (name == "real_dtype") return dtypeValue(ir::realDType(dtype));
  if (name == "size") return Value::integer(dtype == DType::String ? 1 : int64_t(ir::dtypeSize(dtype)));
  if (name == "as_datatype_enum") return Value::integer(ir::dtypeEnumValue(dtype));
  if (name == "min" || name == "max" || name == "limits") {
    // TF: the representable range (floats: finite extremes); bool/string/complex raise.
    if (dtype == DType::String || dtype == DType::Bool || ir::isComplex(dtype))
      raiseTf(in, "TypeError", fmt::format("Cannot find minimum value of {}.", in.repr(Value(Ref<Object>(this)))));
    Value lo, hi;
    ir::visitNumericDType(dtype, [&]<class T>() {
      if constexpr (ir::isIntType<T>) {
        lo = Value::integer(int64_t(std::numeric_limits<T>::lowest()));
        // uint64's maximum is past int64: a big Python int.
        if constexpr (std::is_same_v<T, uint64_t>) {
          hi = intValue(mpz_class(static_cast<unsigned long>(std::numeric_limits<T>::max())));
        } else {
          hi = Value::integer(int64_t(std::numeric_limits<T>::max()));
        }
      } else if constexpr (!ir::isComplexType<T> && !std::is_same_v<T, bool>) {
        lo = Value::real(double(ir::numericCast<T, double>(std::numeric_limits<T>::lowest())));
        hi = Value::real(double(ir::numericCast<T, double>(std::numeric_limits<T>::max())));
      }
    });
    if (name == "min") return lo;
    if (name == "max") return hi;
    return in.tuple({lo, hi});
  }
  if (name == "is_compatible_with") {
    DType self = dtype;
    return in.native(name, [self](Interpreter &in, Args a, const Kwargs &) -> Value {
      if (a.size() != 1) in.raise("TypeError", "is_compatible_with() takes 1 argument");
      return Value::boolean(dtypeArg(in, a[0]) == self);
    });
  }
  return std::nullopt;
}
std::optional<Value> DTypeObject::compare(Interpreter &in, CmpOp op, const Value &other) {
  if (op != CmpOp::Eq && op != CmpOp::Ne) return std::nullopt;
  std::optional<DType> o;
  if (auto *d = other.as<DTypeObject>()) o = d->dtype;
  else if (auto *s = other.as<StrObject>()) o = ir::parseDTypeName(s->s);
  // TF's DType.__eq__ converts the other side with as_dtype: tf.float32 ==
  // np.float32, == np.dtype("float32") and == float are all True.
  else if (auto *nd = other.as<NumpyDTypeObject>()) o = nd->dtype;
  else if (auto *c = other.as<ClassObject>()) {
    for (int t = 0; t < ir::kNumDTypes && !o; ++t)
      if (numpyScalarClass(DType(t)) == c) o = DType(t);
    if (!o && (c->module.empty() || c->module == "builtins") &&
        (c->name == "float" || c->name == "int" || c->name == "bool" || c->name == "str" || c->name == "complex"))
      o = dtypeArg(in, other);
  }
  bool eq = o && *o == dtype;
  return Value::boolean(op == CmpOp::Eq ? eq : !eq);
}
std::optional<std::string> DTypeObject::repr(Interpreter &) { return fmt::format("tf.{}", ir::dtypeName(dtype)); }
// TF's DType.__str__ (print(t.dtype)); repr stays "tf.float32".
std::optional<std::string> DTypeObject::str(Interpreter &) { return fmt::format("<dtype: '{}'>", ir::dtypeName(dtype)); }
std::optional<Value> DTypeObject::call(Interpreter &in, Args, const Kwargs &) {
  // TF's DType is not callable (unlike numpy's scalar types): tf.float32(1)
  // is Python's TypeError.
  in.raise("TypeError", "'DType' object is not callable");
}

// A TensorShape, a list/tuple of dims (None unknown) or None (unknown rank),
// as TF's as_shape accepts.
static ir::Shape shapeOfValue(Interpreter &in, const Value &v) {
  if (v.isNone()) return ir::Shape::unranked();
  if (auto *s = v.as<TensorShapeObject>()) return s->shape;
  // TF's as_shape(3) is TensorShape(3): a non-iterable dimension is a
  // shape of rank 1 (Keras's `shape[:-1].concatenate(units)`).
  if (v.isInt()) return ir::Shape(std::vector<int64_t>{v.asInt()});
  std::vector<int64_t> dims;
  for (auto &d : in.toList(v)) dims.push_back(d.isNone() ? -1 : in.toInt(d));
  return ir::Shape(dims);
}

// TensorShape.merge_with: the most specific shape compatible with both, or
// TF's ValueError when they conflict.
static ir::Shape mergeShapes(Interpreter &in, const ir::Shape &a, const ir::Shape &b) {
  if (!a.ranked) return b;
  if (!b.ranked) return a;
  if (!a.isCompatibleWith(b))
    in.raise("ValueError", fmt::format("Shapes {} and {} are not compatible", a.tfString(), b.tfString()));
  ir::Shape out = a;
  for (size_t i = 0; i < out.dims.size(); ++i)
    if (out.dims[i] < 0) out.dims[i] = b.dims[i];
  return out;
}

std::optional<Value> TensorShapeObject::getAttr(Interpreter &in, const std::string &name) {
  Ref<TensorShapeObject> self(this);
  // The deprecated `dims`: tf.compat.v1.Dimension objects (None for an
  // unknown rank), as TF 2.15's TensorShape.dims.
  if (name == "dims") {
    if (!shape.ranked) return Value();
    Value v1 = in.getAttr(in.getAttr(in.importModule("tensorflow"), "compat"), "v1");
    Value dimension = in.getAttr(v1, "Dimension");
    std::vector<Value> dims;
    for (int64_t d : shape.dims) dims.push_back(in.call(dimension, std::vector<Value>{d < 0 ? Value() : Value::integer(d)}));
    return in.list(dims);
  }
  if (name == "is_compatible_with")
    return nativeWithSignature(in, "is_compatible_with(other)", [self](Interpreter &in, const Bound &a) {
      return Value::boolean(self->shape.isCompatibleWith(shapeOfValue(in, a["other"])));
    });
  if (name == "assert_is_compatible_with")
    return nativeWithSignature(in, "assert_is_compatible_with(other)", [self](Interpreter &in, const Bound &a) {
      ir::Shape other = shapeOfValue(in, a["other"]);
      if (!self->shape.isCompatibleWith(other))
        in.raise("ValueError", fmt::format("Shapes {} and {} are incompatible", self->shape.tfString(), other.tfString()));
      return Value();
    });
  // TF's TensorShape asserts (an unknown rank passes the rank checks).
  if (name == "assert_has_rank")
    return nativeWithSignature(in, "assert_has_rank(rank)", [self](Interpreter &in, const Bound &a) {
      int64_t rank = in.toInt(a["rank"]);
      if (self->shape.ranked && int64_t(self->shape.rank()) != rank)
        in.raise("ValueError", fmt::format("Shape {} must have rank {}", self->shape.tfString(), rank));
      return Value();
    });
  if (name == "assert_same_rank")
    return nativeWithSignature(in, "assert_same_rank(other)", [self](Interpreter &in, const Bound &a) {
      ir::Shape other = shapeOfValue(in, a["other"]);
      if (self->shape.ranked && other.ranked && self->shape.rank() != other.rank())
        in.raise("ValueError", fmt::format("Shapes {} and {} must have the same rank", self->shape.tfString(),
                                           other.tfString()));
      return Value();
    });
  if (name == "assert_is_fully_defined")
    return nativeWithSignature(in, "assert_is_fully_defined()", [self](Interpreter &in, const Bound &) {
      if (!self->shape.ranked || !self->shape.fullyDefined())
        in.raise("ValueError", fmt::format("Shape {} is not fully defined", self->shape.tfString()));
      return Value();
    });
  if (name == "merge_with")
    return nativeWithSignature(in, "merge_with(other)", [self](Interpreter &in, const Bound &a) -> Value {
      return make<TensorShapeObject>(mergeShapes(in, self->shape, shapeOfValue(in, a["other"])));
    });
  if (name == "is_fully_defined")
    return nativeWithSignature(in, "is_fully_defined()", [self](Interpreter &, const Bound &) {
      return Value::boolean(self->shape.ranked && self->shape.fullyDefined());
    });
  if (name == "concatenate")
    return nativeWithSignature(in, "concatenate(other)", [self](Interpreter &in, const Bound &a) -> Value {
      ir::Shape other = shapeOfValue(in, a["other"]);
      if (!self->shape.ranked || !other.ranked) return make<TensorShapeObject>(ir::Shape::unranked());
      std::vector<int64_t> dims = self->shape.dims;
      dims.insert(dims.end(), other.dims.begin(), other.dims.end());
      return make<TensorShapeObject>(ir::Shape(dims));
    });
  // with_rank / with_rank_at_least / with_rank_at_most: the shape itself
  // (an unknown rank becomes `rank` unknown dimensions for with_rank), or
  // TF's ValueError naming the required rank.
  if (name == "with_rank")
    return nativeWithSignature(in, "with_rank(rank)", [self](Interpreter &in, const Bound &a) -> Value {
      int64_t rank = in.toInt(a["rank"]);
      if (!self->shape.ranked) return make<TensorShapeObject>(ir::Shape(std::vector<int64_t>(size_t(rank), -1)));
      if (int64_t(self->shape.rank()) != rank)
        in.raise("ValueError", fmt::format("Shape {} must have rank {}", self->shape.tfString(), rank));
      return Value(Ref<Object>(self));
    });
  if (name == "with_rank_at_least" || name == "with_rank_at_most") {
    bool least = name == "with_rank_at_least";
    return nativeWithSignature(in, name + "(rank)", [self, least](Interpreter &in, const Bound &a) -> Value {
      int64_t rank = in.toInt(a["rank"]);
      if (self->shape.ranked && (least ? int64_t(self->shape.rank()) < rank : int64_t(self->shape.rank()) > rank))
        in.raise("ValueError", fmt::format("Shape {} must have rank at {} {}", self->shape.tfString(),
                                           least ? "least" : "most", rank));
      return Value(Ref<Object>(self));
    });
  }
  if (name == "as_list")
    return in.native(name, [self](Interpreter &in, Args, const Kwargs &) {
      std::vector<Value> dims;
      for (int64_t d : self->shape.dims) dims.push_back(d < 0 ? Value() : Value::integer(d));
      return in.list(dims);
    });
  if (name == "rank" || name == "ndims") return shape.ranked ? Value::integer(int64_t(shape.rank())) : Value();
  if (name == "num_elements") return in.native(name, [self](Interpreter &, Args, const Kwargs &) {
      int64_t n = self->shape.numElements();
      return n < 0 ? Value() : Value::integer(n);
    });
  return std::nullopt;
}
std::optional<int64_t> TensorShapeObject::length(Interpreter &in) {
  if (!shape.ranked) in.raise("ValueError", "Cannot take the length of shape with unknown rank.");
  return int64_t(shape.rank());
}
std::optional<Value> TensorShapeObject::getItem(Interpreter &in, const Value &key) {
  if (auto *s = key.as<SliceObject>()) {
    std::vector<Value> dims;
    for (int64_t d : shape.dims) dims.push_back(Value::integer(d));
    Value sub = in.getItem(in.list(dims), key);
    std::vector<int64_t> out;
    for (auto &v : in.toList(sub)) out.push_back(v.asInt());
    (void)s;
    return Value(make<TensorShapeObject>(ir::Shape(out)));
  }
  int64_t i = in.toIndex(key), n = int64_t(shape.rank());
  if (i < 0) i += n;
  if (i < 0 || i >= n) in.raise("IndexError", "list index out of range");
  int64_t d = shape.dims[size_t(i)];
  return d < 0 ? Value() : Value::integer(d);
}
std::optional<Value> TensorShapeObject::iter(Interpreter &in) {
  std::vector<Value> dims;
  for (int64_t d : shape.dims) dims.push_back(d < 0 ? Value() : Value::integer(d));
  return in.iter(in.list(dims));
}
std::optional<Value> TensorShapeObject::compare(Interpreter &in, CmpOp op, const Value &other) {
  if (op != CmpOp::Eq && op != CmpOp::Ne) return std::nullopt;
  std::vector<int64_t> o;
  if (auto *s = other.as<TensorShapeObject>()) o = s->shape.dims;
  else if (other.as<ListObject>() || other.as<TupleObject>())
    for (auto &v : in.toList(other)) o.push_back(v.isNone() ? -1 : in.toInt(v));
  else return std::nullopt;
  bool eq = o == shape.dims;
  return Value::boolean(op == CmpOp::Eq ? eq : !eq);
}
std::optional<std::string> TensorShapeObject::repr(Interpreter &) {
  if (!shape.ranked) return std::string("TensorShape(None)");
  std::string s = "TensorShape([";
  for (size_t i = 0; i < shape.dims.size(); ++i) s += (i ? ", " : "") + (shape.dims[i] < 0 ? std::string("None") : std::to_string(shape.dims[i]));
  return s + "])";
}
std::optional<std::string> TensorShapeObject::str(Interpreter &) { return shape.tfString(); }

}  // namespace tfs::runtime::tf
