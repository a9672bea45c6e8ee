// TensorObject: how tensors behave as
// Python values -- operators (TF's conversion rules; numpy's for ndarrays),
// printing exactly like TF/numpy, indexing with TF slicing semantics,
// conversions of scalars, and the graph-mode errors of bool()/iteration.
#include "ir/element_types.h"
#include "runtime/kernels/kernels.h"
#include "runtime/tensor/format.h"
#include "ir/shape_args.h"
#include "runtime/tf/tf.h"
#include "runtime/interp/complex_object.h"
#include "runtime/interp/pyformat.h"
#include "runtime/tf/tensor_equality.h"
#include "runtime/tf/tensor_set_shape.h"
#include "runtime/tf/numpy_behavior.h"
#include "runtime/tf/ndarray_set_attr.h"
#include "runtime/interp/signature.h"

#include <algorithm>
#include <fmt/format.h>

namespace tfs::runtime::tf {

using ir::OpKind;

namespace {
// TF 2.15's Tensor._disallow wording (one text whether or not AutoGraph ran).
#define TFS_DISALLOWED                                                                                          \
  " is not allowed. You can attempt the following resolutions to the problem: If you are running in Graph "    \
  "mode, use Eager execution mode or decorate this function with @tf.function. If you are using AutoGraph, you " \
  "can try decorating this function with @tf.function. If that does not work, then you may be using an "        \
  "unsupported feature or your source code may not be visible to AutoGraph. See "                               \
  "https://github.com/tensorflow/tensorflow/blob/master/tensorflow/python/autograph/g3doc/reference/"           \
  "limitations.md#access-to-source-code for more information."
const char *kBoolError = "Using a symbolic `tf.Tensor` as a Python `bool`" TFS_DISALLOWED;
const char *kIterError = "Iterating over a symbolic `tf.Tensor`" TFS_DISALLOWED;
#undef TFS_DISALLOWED

DType numpyPromote(DType a, DType b) {
  if (a == b) return a;
  if (ir::isComplex(a) || ir::isComplex(b)) {
    // complex64 holds bool, 8/16-bit ints and float16/32; anything wider needs complex128.
    auto fits64 = [](DType t) {
      return t == DType::Complex64 || t == DType::Float32 || t == DType::Float16 || t == DType::Bool ||
             t == DType::Int8 || t == DType::Int16 || t == DType::UInt8 || t == DType::UInt16;
    };
    return fits64(a) && fits64(b) ? DType::Complex64 : DType::Complex128;
  }
  auto rank = [](DType t) {
    switch (t) {
    case DType::Bool: return 0;
    case DType::Int32: return 1;
    case DType::Int64: return 2;
    case DType::Float32: return 3;
    case DType::Float64: return 4;
    default: return 5;
    }
  };
  if (ir::isFloating(a) != ir::isFloating(b)) {
    DType f = ir::isFloating(a) ? a : b, i = ir::isFloating(a) ? b : a;
    if (f == DType::Float32 && (i == DType::Int32 || i == DType::Int64)) return DType::Float64;
    return f;
  }
  return rank(a) > rank(b) ? a : b;
}

Tensor castTo(const Tensor &t, DType d) {
  if (t.dtype() == d) return t;
  return runKernel(OpKind::Cast, std::vector<Tensor>{t}, ir::Attrs{{"dtype", d}})[0];
}

// numpy arithmetic: promote, run the kernel eagerly, return an ndarray.
Value numpyBinary(Interpreter &in, BinOp op, const Value &a, const Value &b) {
  auto asArray = [&](const Value &v, std::optional<DType> peer) -> Tensor {
    if (auto *t = v.as<TensorObject>()) {
      if (t->symbolic()) raiseTf(in, "TypeError", "cannot mix numpy arrays with symbolic tensors");
      return t->eager;
    }
    if (auto *var = v.as<VariableObject>()) return *var->value;
    // Python scalars adopt the array's kind (numpy value-based casting).
    if (peer && (v.isInt() || v.isBool()) && !v.isFloat()) return tensorFromPython(in, v, *peer == DType::Bool && !v.isBool() ? DType::Int64 : *peer, true);
    if (peer && v.isFloat() && ir::isFloating(*peer)) return tensorFromPython(in, v, *peer, true);
    // A Python complex beside a float32/float16/complex64 array stays complex64.
    if (peer && v.as<ComplexObject>() && (*peer == DType::Float32 || *peer == DType::Float16 || *peer == DType::Complex64))
      return tensorFromPython(in, v, DType::Complex64, true);
    if (peer && (v.isFloat() || v.isInt()) && ir::isComplex(*peer)) return tensorFromPython(in, v, *peer, true);
    return tensorFromPython(in, v, std::nullopt, true);
  };
  std::optional<DType> pa, pb;
  if (auto *t = a.as<TensorObject>()) pa = t->dtype();
  if (auto *t = b.as<TensorObject>()) pb = t->dtype();
  Tensor x = asArray(a, pb), y = asArray(b, pa);
  DType d = numpyPromote(x.dtype(), y.dtype());
  OpKind kind;
  switch (op) {
  case BinOp::Add: kind = OpKind::Add; break;
  case BinOp::Sub: kind = OpKind::Sub; break;
  case BinOp::Mul: kind = OpKind::Mul; break;
  case BinOp::Div: kind = OpKind::Div; if (!ir::isFloating(d) && !ir::isComplex(d)) d = DType::Float64; break;
  case BinOp::FloorDiv: kind = OpKind::FloorDiv; break;
  case BinOp::Mod: kind = OpKind::FloorMod; break;
  case BinOp::Pow: kind = OpKind::Pow; break;
  case BinOp::MatMul: kind = OpKind::MatMul; break;
  default: return Value();
  }
  try {
    return wrap(numpyKernel(in, kind, {castTo(x, d), castTo(y, d)}, {}), true);
  } catch (const ir::OpError &e) {
    if (e.message.find("Incompatible shapes") != std::string::npos)
      in.raise("ValueError", fmt::format("operands could not be broadcast together with shapes {} {} ",
                                         ir::Shape(x.shape()).tfString(), ir::Shape(y.shape()).tfString()));
    raiseOpError(in, e);
  }
}

OpKind cmpKind(CmpOp op) {
  switch (op) {
  case CmpOp::Lt: return OpKind::Less;
  case CmpOp::Le: return OpKind::LessEqual;
  case CmpOp::Eq: return OpKind::Equal;
  case CmpOp::Ne: return OpKind::NotEqual;
  case CmpOp::Gt: return OpKind::Greater;
  case CmpOp::Ge: return OpKind::GreaterEqual;
  }
  return OpKind::Equal;
}

std::string shapeDims(const ir::Shape &s) { return s.tfString(); }

// float()/int() of a complex element: numpy keeps the real part with a
// ComplexWarning (TF's tensors go through numpy); tfs has no warning to
// give, so it refuses rather than drop the imaginary part silently.
void rejectComplexToReal(Interpreter &in, DType t, const char *to) {
  if (ir::isComplex(t))
    in.raise("NotImplementedError", fmt::format("{}() of a complex tensor or array (numpy's ComplexWarning cast) is "
                                                "not supported by tfs; use .real", to));
}
// While tracing, TF converts a Python operand (a number, a list, a numpy
// array) of a binary operator to a constant named after the op and the
// parameter it fills: "add/y" (`x + 1.0`), "add/x" (`1.0 + x`),
// "Greater/y". An eager tensor operand is captured instead (tfs inlines
// it unnamed).
void nameConvertedOperands(const Ref<TensorObject> &r, const Value &a, const Value &b) {
  if (!r->symbolic() || !r->scope) return;
  ir::Node *n = r->sym->definingNode();
  if (!n || n->numOperands() != 2) return;
  for (unsigned i = 0; i < 2; ++i) {
    const Value &v = i ? b : a;
    if (auto *t = v.as<TensorObject>(); (t && !t->numpy) || v.as<VariableObject>()) continue;
    ir::Value *c = n->operand(i);
    ir::Node *d = c->definingNode();
    if (!d || d->kind() != OpKind::Const || !r->scope->nameOf(c).empty()) continue;
    r->scope->setName(c, r->scope->uniqueName(r->name + (i ? "/y" : "/x")));
  }
}

}  // namespace

Value tensorBinary(Interpreter &in, BinOp op, const Value &a, const Value &b, bool numpyResult) {
  if (numpyResult) return numpyBinary(in, op, a, b);
  // TF: the tensor operand fixes the dtype the other converts to.
  std::optional<DType> like;
  if (auto *t = a.as<TensorObject>(); t && !t->numpy) like = t->dtype();
  else if (auto *v = a.as<VariableObject>()) like = v->dtype;
  else if (auto *t2 = b.as<TensorObject>(); t2 && !t2->numpy) like = t2->dtype();
  else if (auto *v2 = b.as<VariableObject>()) like = v2->dtype;
  if (like && ir::isInteger(*like) && (a.isFloat() || b.isFloat())) {
    // Tracing, a Python float meeting an integer tensor fails in op
    // construction, which names the op and its parameter (eagerly it is
    // "Cannot convert 1.5 to EagerTensor of dtype int32", from toTensor).
    auto *t = (a.isFloat() ? b : a).as<TensorObject>();
    const char *opType = op == BinOp::Add ? "AddV2" : op == BinOp::Sub ? "Sub" : op == BinOp::Mul ? "Mul"
                         : op == BinOp::FloorDiv ? "FloorDiv" : op == BinOp::Mod ? "FloorMod"
                         : op == BinOp::Pow ? "Pow" : nullptr;
    if (t && t->symbolic() && opType) {
      std::string f = in.repr(a.isFloat() ? a : b), d = ir::dtypeName(*like);
      raiseTf(in, "TypeError",
              fmt::format("Expected {} passed to parameter '{}' of op '{}', got {} of type 'float' instead. "
                          "Error: Expected {}, but got {} of type 'float'.",
                          d, a.isFloat() ? "x" : "y", opType, f, d, f));
    }
  }
  auto x = toTensor(in, a, std::nullopt, like);
  auto y = toTensor(in, b, std::nullopt, like);
  if (auto *t = a.as<TensorObject>(); t && t->numpy) x = toTensor(in, a, like);
  if (auto *t = b.as<TensorObject>(); t && t->numpy) y = toTensor(in, b, like);
  // The ops whose TF operator wrapper converts a Python operand as its
  // "x" / "y" parameter.
  auto named = [&](Ref<TensorObject> r) {
    nameConvertedOperands(r, a, b);
    return Value(r);
  };
  switch (op) {
  case BinOp::Add: return named(callOp1(in, OpKind::Add, {x, y}, {}, "add"));
  case BinOp::Sub: return named(callOp1(in, OpKind::Sub, {x, y}, {}, "sub"));
  case BinOp::Mul: return named(callOp1(in, OpKind::Mul, {x, y}, {}, "mul"));
  case BinOp::Div: {
    DType xd = x->dtype();
    if (xd == y->dtype() && !ir::isFloating(xd) && !ir::isComplex(xd)) {
      // TF's _TRUEDIV_TABLE: 8/16-bit integers divide in float32, wider ones
      // in float64; bool and string have no true division.
      if (!ir::isInteger(xd))
        raiseTf(in, "TypeError", fmt::format("Invalid dtype tf.{} in __truediv__", ir::dtypeName(xd)));
      DType f = ir::dtypeSize(xd) >= 4 ? DType::Float64 : DType::Float32;
      x = callOp1(in, OpKind::Cast, {x}, {{"dtype", f}}, "Cast");
      y = callOp1(in, OpKind::Cast, {y}, {{"dtype", f}}, "Cast");
    }
    return named(callOp1(in, OpKind::Div, {x, y}, {}, "truediv"));
  }
  case BinOp::FloorDiv: return named(callOp1(in, OpKind::FloorDiv, {x, y}, {}, "floordiv"));
  case BinOp::Mod: return named(callOp1(in, OpKind::FloorMod, {x, y}, {}, "mod"));
  case BinOp::Pow: return named(callOp1(in, OpKind::Pow, {x, y}, {}, "pow"));
  case BinOp::MatMul: return callOp1(in, OpKind::MatMul, {x, y}, {}, "matmul");
  // TF's and_/or_/xor_: logical ops for bool x, bitwise ops otherwise.
  case BinOp::And:
    if (x->dtype() != DType::Bool) return callOp1(in, OpKind::BitwiseAnd, {x, y}, {}, "BitwiseAnd");
    return callOp1(in, OpKind::LogicalAnd, {x, y}, {}, "and");
  case BinOp::Or:
    if (x->dtype() != DType::Bool) return callOp1(in, OpKind::BitwiseOr, {x, y}, {}, "BitwiseOr");
    return callOp1(in, OpKind::LogicalOr, {x, y}, {}, "or");
  case BinOp::Xor:
    if (x->dtype() != DType::Bool) return callOp1(in, OpKind::BitwiseXor, {x, y}, {}, "BitwiseXor");
    if (y->dtype() == DType::Bool) {
      // TF's logical_xor: (x | y) & !(x & y).
      auto either = callOp1(in, OpKind::LogicalOr, {x, y}, {}, "LogicalOr");
      auto both = callOp1(in, OpKind::LogicalAnd, {x, y}, {}, "LogicalAnd");
      auto notBoth = callOp1(in, OpKind::LogicalNot, {both}, {}, "LogicalNot");
      return callOp1(in, OpKind::LogicalAnd, {either, notBoth}, {}, "xor");
    }
    break;
  default: break;
  }
  in.raise("TypeError", "unsupported operand type(s) for tensors");
}

const char *TensorObject::typeName() const {
  if (numpy) return "ndarray";
  return sym ? "SymbolicTensor" : "EagerTensor";
}

// type() of a tensor: TF's EagerTensor / SymbolicTensor (variable.cpp).
extern ClassObject *eagerTensorClass, *symbolicTensorClass;

ClassObject *TensorObject::cls() const {
  if (!numpy) {
    ClassObject *concrete = sym ? symbolicTensorClass : eagerTensorClass;
    return concrete ? concrete : tensorClass;
  }
  if (eager.valid() && eager.rank() == 0 && !zeroDimArray)
    if (ClassObject *scalarType = numpyScalarClass(eager.dtype())) return scalarType;
  return ndarrayClass;
}

TensorObject::~TensorObject() {
  if (view) std::erase(view->base->views, this);
}

namespace {
NdarraySetAttr ndarraySetAttr = nullptr;
}  // namespace

void setNdarraySetAttrHook(NdarraySetAttr hook) { ndarraySetAttr = hook; }

bool TensorObject::setAttr(Interpreter &in, const std::string &name, const Value &v) {
  if (numpy && ndarraySetAttr && ndarraySetAttr(in, *this, name, v)) return true;
  if (name == "_keras_mask") kerasMask = v;
  else if (name == "_keras_logits") kerasLogits = v;
  else if (name == "_metric_obj") kerasMetric = v;
  else return false;
  return true;
}

std::optional<Value> TensorObject::getAttr(Interpreter &in, const std::string &name) {
  Ref<TensorObject> self(this);
  if (!numpy && numpyBehavior() && numpyBehavior()->method)
    if (auto m = numpyBehavior()->method(in, Value(self), name)) return m;
  // TF's Tensor.__getattr__ points at numpy behavior for its numpy names.
  if (!numpy && !numpyBehavior() &&
      (name == "astype" || name == "ravel" || name == "transpose" || name == "reshape" || name == "clip" ||
       name == "size" || name == "data"))
    in.raise("AttributeError", fmt::format("{} object has no attribute '{}'. \n        If you are looking for numpy-related "
                                           "methods, please run the following:\n        "
                                           "tf.experimental.numpy.experimental_enable_numpy_behavior()\n      ",
                                           symbolic() ? "SymbolicTensor" : "EagerTensor", name));
  if (name == "_keras_mask") return kerasMask.isNone() ? std::nullopt : std::optional<Value>(kerasMask);
  if (name == "_keras_logits") return kerasLogits.isNone() ? std::nullopt : std::optional<Value>(kerasLogits);
  if (name == "_metric_obj") return kerasMetric.isNone() ? std::nullopt : std::optional<Value>(kerasMetric);
  // complex(t) of a one-element tensor or array (EagerTensor's and numpy's __complex__).
  if (name == "__complex__" && !symbolic() && eager.numElements() == 1 && eager.dtype() != DType::String)
    return in.native(name, [self](Interpreter &in, Args, const Kwargs &) -> Value {
      if (self->eager.dtype() == DType::Complex64) {
        ir::complex64 z = self->eager.data<ir::complex64>()[0];
        return complexValue(z.real(), z.imag());
      }
      if (self->eager.dtype() == DType::Complex128) {
        ir::complex128 z = self->eager.data<ir::complex128>()[0];
        return complexValue(z.real(), z.imag());
      }
      return complexValue(self->eager.elementAsDouble(0), 0.0);
    });
  // EagerTensor.__index__ is its numpy value's: an int for an integer
  // scalar (operator.index(tf.constant(3))), numpy's errors otherwise.
  if (name == "__index__" && !numpy && !symbolic())
    return in.native(name, [self](Interpreter &in, Args, const Kwargs &) -> Value {
      DType d = self->eager.dtype();
      bool integer = ir::isInteger(d);
      if (self->eager.rank() != 0) {
        if (integer) in.raise("TypeError", "only integer scalar arrays can be converted to a scalar index");
        in.raise("AttributeError", "'numpy.ndarray' object has no attribute '__index__'");
      }
      if (!integer)
        in.raise("AttributeError", fmt::format("'numpy.{}' object has no attribute '__index__'",
                                               d == DType::Bool ? "bool_" : d == DType::String ? "bytes_"
                                                                                                : ir::dtypeName(d)));
      return Value::integer(self->eager.elementAsInt(0));
    });
  if (numpy && ndarrayHooks().getAttr) return ndarrayHooks().getAttr(in, *this, name);
  // Python's abs(t) (tf.abs; numpy's absolute for ndarrays).
  if (name == "__abs__")
    return in.native(name, [self](Interpreter &in, Args, const Kwargs &) -> Value {
      if (self->numpy) return wrap(numpyKernel(in, OpKind::Abs, {self->eager}, {}), true);
      return Value(callOp1(in, OpKind::Abs, {self}, {}, "Abs"));
    });
  if (name == "shape") {
    if (numpy) {
      std::vector<Value> dims;
      for (int64_t d : eager.shape()) dims.push_back(Value::integer(d));
      return in.tuple(dims);
    }
    return Value(make<TensorShapeObject>(shape()));
  }
  if (name == "dtype") {
    if (numpy) return numpyDTypeValue(dtype());
    return dtypeValue(dtype());
  }
  if (name == "ndim") return Value::integer(int64_t(shape().rank()));
  // Every eager tensor lives on the host CPU (TF's full device name); a
  // graph tensor of a tf.function has no device assigned ('').
  if ((name == "device" || name == "backing_device") && !numpy)
    return in.str(symbolic() ? "" : "/job:localhost/replica:0/task:0/device:CPU:0");
  if (name == "size" && numpy) return Value::integer(eager.numElements());
  if (name == "name") {
    if (!symbolic()) raiseTf(in, "AttributeError", "Tensor.name is undefined when eager execution is enabled.");
    return in.str(tensorName());
  }
  if (name == "numpy") {
    // TF 2.15's graph tensors (SymbolicTensor) have no numpy method at all
    // (the function guide's leaked tensor: AttributeError).
    if (symbolic()) raiseTf(in, "AttributeError", "'SymbolicTensor' object has no attribute 'numpy'");
    return in.native("numpy", [self](Interpreter &in, Args, const Kwargs &) -> Value {
      // A scalar string tensor's numpy() is Python bytes in TF (b'...').
      if (self->eager.dtype() == DType::String && self->eager.rank() == 0)
        return Value(make<BytesObject>(self->eager.data<std::string>()[0]));
      requireNumpyDType(in, self->eager.dtype());
      return wrap(self->eager, true);
    });
  }
  if (name == "item" || name == "tolist") {
    return in.native(name, [self](Interpreter &in, Args, const Kwargs &) -> Value {
      return tensorToList(in, self->eager, 'S');
    });
  }
  if (name == "astype" && numpy) {
    return in.native("astype", [self](Interpreter &in, Args a, const Kwargs &) -> Value {
      DType d = dtypeArg(in, a[0]).value_or(DType::Float64);
      if (auto *s = a[0].as<NativeFunction>()) d = ir::parseDTypeName(s->name).value_or(d);
      return wrap(castTo(self->eager, d), true);
    });
  }
  if (name == "T") return callOp1(in, OpKind::Transpose, {self}, {}, "transpose");
  if (name == "ref" || name == "experimental_ref") return referenceTo(in, Value(self));
  if (name == "set_shape" && !numpy) return setShapeMethod(in, self);
  if (name == "get_shape") return in.native(name, [self](Interpreter &, Args, const Kwargs &) -> Value { return make<TensorShapeObject>(self->shape()); });
  // Tensor.op is the defining operation in every graph (a tf.function's
  // too); the other v1 attributes exist only in v1 graphs.
  if (symbolic() && scope && ctx(in).v1AttrHook && (name == "op" || scope->kind() == GraphScope::Kind::V1Graph))
    if (auto v = ctx(in).v1AttrHook(in, Value(self), name)) return v;
  if (name == "op" && !symbolic()) in.raise("AttributeError", "Tensor.op is undefined when eager execution is enabled.");
  if (name == "op") return Value();
  return std::nullopt;
}


std::optional<Value> TensorObject::binary(Interpreter &in, BinOp op, const Value &other, bool reflected) {
  Value self(Ref<Object>(this));
  if (!numpy && !numpyPromotionRunning())
    if (auto p = reflected ? numpyPromotedOperands(in, other, self) : numpyPromotedOperands(in, self, other)) {
      NumpyPromotionScope scope;
      return in.binary(op, p->first, p->second);
    }
  if (other.as<TensorObject>() && !other.as<TensorObject>()->numpy && numpy) return std::nullopt;  // tensor wins
  bool np = numpy && (!other.as<TensorObject>() || other.as<TensorObject>()->numpy) && !other.as<VariableObject>();
  if (np && ndarrayHooks().binary)
    return reflected ? ndarrayHooks().binary(in, op, other, self) : ndarrayHooks().binary(in, op, self, other);
  // A library class converting itself (tf.IndexedSlices: `_tfs_to_dense`)
  // is an operand as TF's conversion registry makes it.
  auto *inst = other.as<InstanceObject>();
  bool converts = inst && inst->klass->lookup("_tfs_to_dense");
  // A Python str / bytes with a string tensor: tf.constant(["a"]) + "!" is
  // TF's elementwise string concatenation (AddV2 on strings).
  bool text = (other.as<StrObject>() || other.as<BytesObject>()) && !numpy && dtype() == DType::String;
  if (!np && !(other.isInt() || other.isFloat() || other.isBool() || other.as<TensorObject>() ||
               other.as<VariableObject>() || other.as<ListObject>() || other.as<TupleObject>() ||
               other.as<ComplexObject>() || converts || text))
    return std::nullopt;
  return reflected ? tensorBinary(in, op, other, self, np) : tensorBinary(in, op, self, other, np);
}

std::optional<Value> TensorObject::compare(Interpreter &in, CmpOp op, const Value &other) {
  if (numpy && ndarrayHooks().compare && !other.as<VariableObject>() &&
      (!other.as<TensorObject>() || other.as<TensorObject>()->numpy))
    return ndarrayHooks().compare(in, op, Value(Ref<Object>(this)), other);
  // A Python complex converts like a number (TF's tensor_equals hands it to
  // gen_math_ops.equal): elementwise for complex tensors, TF's conversion
  // error for real ones; never Python's identity fallback.
  // Strings too: tf.constant("a") == "a" is an elementwise Equal in TF.
  if (!(other.isInt() || other.isFloat() || other.isBool() || other.as<TensorObject>() || other.as<VariableObject>() ||
        other.as<ListObject>() || other.as<TupleObject>() || other.as<ComplexObject>() || other.as<StrObject>() ||
        other.as<BytesObject>()))
    return std::nullopt;
  Value self(Ref<Object>(this));
  if (!numpy && !numpyPromotionRunning())
    if (auto p = numpyPromotedOperands(in, self, other)) {
      NumpyPromotionScope scope;
      return in.compare(op, p->first, p->second);
    }
  bool np = numpy && (!other.as<TensorObject>() || other.as<TensorObject>()->numpy);
  // TF 1 (a v1 graph): tensors compare by identity.
  if (!np && (op == CmpOp::Eq || op == CmpOp::Ne) && !tensorEqualityActive(in))
    return Value::boolean((other.obj() == this) == (op == CmpOp::Eq));
  if (np) {
    Tensor x = eager;
    Tensor y = other.as<TensorObject>() ? other.as<TensorObject>()->eager : tensorFromPython(in, other, std::nullopt, true);
    DType d = numpyPromote(x.dtype(), y.dtype());
    return wrap(numpyKernel(in, cmpKind(op), {castTo(x, d), castTo(y, d)}, {}), true);
  }
  auto x = toTensor(in, self);
  // Equal converts the other operand to this tensor's dtype (TF's
  // args_to_matching_eager): a string against a number tensor is TF's
  // conversion TypeError.
  if ((other.as<StrObject>() || other.as<BytesObject>()) && dtype() != DType::String)
    in.raise("TypeError", fmt::format("Cannot convert {} to EagerTensor of dtype {}", in.repr(other), ir::dtypeName(dtype())));
  auto y = toTensor(in, other, std::nullopt, dtype());
  if (op == CmpOp::Eq || op == CmpOp::Ne) {
    // TF's tensor_equals: shapes that cannot broadcast compare unequal
    // (a scalar False / True), they do not raise.
    ir::Shape sx = x->shape(), sy = y->shape();
    bool incompatible = false;
    if (sx.ranked && sy.ranked)
      for (size_t i = 1; i <= std::min(sx.dims.size(), sy.dims.size()); ++i) {
        int64_t a = sx.dims[sx.dims.size() - i], b = sy.dims[sy.dims.size() - i];
        if (a >= 0 && b >= 0 && a != b && a != 1 && b != 1) incompatible = true;
      }
    if (incompatible) return Value(toTensor(in, Value::boolean(op == CmpOp::Ne)));
  }
  Ref<TensorObject> r = callOp1(in, cmpKind(op), {x, y});
  // TF's __eq__ / __ne__ pass incompatible_shape_error=False (not
  // reproduced in NodeDefs); the ordering operators are gen_math_ops' own.
  if (op != CmpOp::Eq && op != CmpOp::Ne) nameConvertedOperands(r, self, other);
  return Value(r);
}

std::optional<Value> TensorObject::unary(Interpreter &in, UnaryOp op) {
  Ref<TensorObject> self(this);
  if (numpy && ndarrayHooks().unary) return ndarrayHooks().unary(in, op, Value(self));
  if (op == UnaryOp::Neg) {
    if (numpy) return wrap(numpyKernel(in, OpKind::Neg, {eager}, {}), true);
    return Value(callOp1(in, OpKind::Neg, {self}, {}, "Neg"));
  }
  if (op == UnaryOp::Pos) return Value(self);
  if (op == UnaryOp::Invert && dtype() == DType::Bool) return Value(callOp1(in, OpKind::LogicalNot, {self}, {}, "LogicalNot"));
  if (op == UnaryOp::Invert && !numpy) return Value(callOp1(in, OpKind::Invert, {self}, {}, "Invert"));
  return std::nullopt;
}

std::optional<bool> TensorObject::truth(Interpreter &in) {
  if (symbolic()) raiseTf(in, "OperatorNotAllowedInGraphError", kBoolError);
  if (eager.numElements() != 1) {
    if (numpy) in.raise("ValueError", "The truth value of an array with more than one element is ambiguous. Use a.any() or a.all()");
    raiseTf(in, "ValueError", "The truth value of an array with more than one element is ambiguous. Use a.any() or a.all()");
  }
  return eager.elementAsDouble(0) != 0 || (eager.dtype() == DType::String && !eager.data<std::string>()[0].empty());
}

std::optional<int64_t> TensorObject::length(Interpreter &in) {
  ir::Shape s = shape();
  if (!s.ranked || s.rank() == 0) {
    if (numpy) in.raise("TypeError", "len() of unsized object");
    raiseTf(in, "TypeError", "len is not well defined for a rank-0 tensor");
  }
  if (s.dims[0] < 0) raiseTf(in, "TypeError", "len is not well defined for symbolic Tensors with unknown first dimension");
  return s.dims[0];
}

std::optional<Value> TensorObject::iter(Interpreter &in) {
  if (symbolic()) raiseTf(in, "OperatorNotAllowedInGraphError", kIterError);
  if (eager.rank() == 0) raiseTf(in, "TypeError", "Cannot iterate over a scalar tensor.");
  std::vector<Value> rows;
  Ref<TensorObject> self(this);
  for (int64_t i = 0; i < eager.shape()[0]; ++i) rows.push_back(*getItem(in, Value::integer(i)));
  return in.iter(in.list(rows));
}

bool TensorObject::setItem(Interpreter &in, const Value &key, const Value &v) {
  if (numpy && ndarrayHooks().setItem) return ndarrayHooks().setItem(in, *this, key, v);
  return false;
}

std::optional<Value> TensorObject::getItem(Interpreter &in, const Value &key) {
  if (numpy && ndarrayHooks().getItem) return ndarrayHooks().getItem(in, *this, key);
  if (numpyBehavior() && numpyBehavior()->getItem)
    if (auto r = numpyBehavior()->getItem(in, Value(Ref<Object>(this)), key)) return r;
  // TF's _slice_helper: a bool, a bool tensor or a numpy bool array as the
  // whole index is tf.boolean_mask(tensor, mask).
  if (auto *m = key.as<TensorObject>(); key.isBool() || (m && m->dtype() == DType::Bool))
    return in.call(in.getAttr(in.importModule("tensorflow"), "boolean_mask"),
                   std::vector<Value>{Value(Ref<TensorObject>(this)), key});
  // strided_slice from Python indices (TF's _slice_helper): an int or a
  // scalar integer tensor selects (shrink), a slice's bounds may be tensors,
  // None adds an axis, Ellipsis spans the rest. Bounds known while tracing
  // are attributes; symbolic ones (x[i] with i a loop counter, p[s:s + 64])
  // become run-time begin/end operands, so the slice costs what it selects.
  std::vector<Value> items = key.as<TupleObject>() ? key.as<TupleObject>()->items : std::vector<Value>{key};
  std::vector<Value> begin, end, strides;
  int64_t beginMask = 0, endMask = 0, shrink = 0, newAxis = 0, ellipsis = 0;
  bool dynamic = false;
  // A bound: an int, or a scalar integer tensor (eager or symbolic).
  auto bound = [&](const Value &v) -> Value {
    if (auto *t = v.as<TensorObject>()) {
      ir::Shape s = t->shape();
      if (!ir::isInteger(t->dtype()) || (s.ranked && s.rank() != 0))
        raiseTf(in, "TypeError", fmt::format("Only integers, slices (`:`), ellipsis (`...`), tf.newaxis (`None`) and "
                                             "scalar tf.int32/tf.int64 tensors are valid indices, got {}",
                                             in.repr(v)));
      if (t->symbolic()) {
        if (auto known = ir::knownScalar(t->sym)) return Value::integer(*known);
        dynamic = true;
        return v;
      }
      return Value::integer(t->eager.elementAsInt(0));
    }
    return Value::integer(in.toIndex(v));
  };
  for (size_t i = 0; i < items.size(); ++i) {
    const Value &k = items[i];
    if (auto *s = k.as<SliceObject>()) {
      begin.push_back(s->lower.isNone() ? Value::integer(0) : bound(s->lower));
      end.push_back(s->upper.isNone() ? Value::integer(0) : bound(s->upper));
      strides.push_back(s->step.isNone() ? Value::integer(1) : bound(s->step));
      if (s->lower.isNone()) beginMask |= int64_t(1) << i;
      if (s->upper.isNone()) endMask |= int64_t(1) << i;
    } else if (k.isNone()) {
      begin.push_back(Value::integer(0)); end.push_back(Value::integer(0)); strides.push_back(Value::integer(1));
      newAxis |= int64_t(1) << i;
    } else if (k.is(in.builtin("Ellipsis"))) {
      begin.push_back(Value::integer(0)); end.push_back(Value::integer(0)); strides.push_back(Value::integer(1));
      ellipsis |= int64_t(1) << i;
    } else {
      Value b = bound(k);
      begin.push_back(b);
      if (b.isInt()) {
        int64_t idx = b.asInt();
        end.push_back(Value::integer(idx == INT64_MAX ? idx : idx + 1));  // shrunk axis: only begin counts
      } else {
        end.push_back(b);  // shrunk axis: only begin counts, as for ints
      }
      strides.push_back(Value::integer(1));
      shrink |= int64_t(1) << i;
    }
  }
  ir::Attrs attrs{{"begin_mask", beginMask}, {"end_mask", endMask}, {"shrink_axis_mask", shrink},
                  {"new_axis_mask", newAxis}, {"ellipsis_mask", ellipsis}};
  if (!dynamic) {
    auto ints = [](const std::vector<Value> &vs) {
      std::vector<int64_t> out;
      for (const Value &v : vs) out.push_back(v.asInt());
      return out;
    };
    attrs["begin"] = ints(begin);
    attrs["end"] = ints(end);
    attrs["strides"] = ints(strides);
    if (numpy) {
      try {
        return wrap(numpyKernel(in, OpKind::StridedSlice, {eager}, attrs), true);
      } catch (const ir::OpError &e) {
        in.raise("IndexError", e.message);
      }
    }
    return Value(callOp1(in, OpKind::StridedSlice, {Ref<TensorObject>(this)}, attrs, "strided_slice"));
  }
  std::vector<Ref<TensorObject>> inputs{Ref<TensorObject>(this)};
  addShapeArg(inputs, attrs, "begin", shapeArg(in, in.list(begin), "begin"));
  addShapeArg(inputs, attrs, "end", shapeArg(in, in.list(end), "end"));
  addShapeArg(inputs, attrs, "strides", shapeArg(in, in.list(strides), "strides"));
  return Value(callOp1(in, OpKind::StridedSlice, inputs, attrs, "strided_slice"));
}

namespace {
// str/repr of a numpy text array (dtype '<U2' / '|S2'): str elements print
// raw in str() of a 0-d one and quoted everywhere else.
std::string formatText(const TensorObject &a, bool repr) {
  const auto &text = a.text;
  auto quote = text.kind == 'U' ? quoteStr : bytesRepr;
  if (a.eager.rank() == 0 && (!repr || !a.zeroDimArray)) {
    const std::string &only = a.eager.data<std::string>()[0];
    return text.kind == 'U' && !repr ? only : quote(only);
  }
  return formatNumpyText(a.eager, quote, repr ? fmt::format("{}{}{}", text.kind == 'U' ? '<' : '|', text.kind, text.width) : "");
}
}  // namespace

std::optional<std::string> TensorObject::repr(Interpreter &in) {
  if (symbolic())
    return fmt::format("<tf.Tensor '{}' shape={} dtype={}>", tensorName(), shapeDims(shape()), ir::dtypeName(dtype()));
  if (numpy && text.kind) return formatText(*this, true);
  if (numpy) return eager.rank() == 0 && !zeroDimArray ? formatNumpy(eager) : formatNumpyRepr(eager);
  return fmt::format("<tf.Tensor: shape={}, dtype={}, numpy={}>", shapeDims(shape()), ir::dtypeName(dtype()),
                     numpyReprText(eager));
}

std::optional<std::string> TensorObject::str(Interpreter &in) {
  if (symbolic())
    return fmt::format("Tensor(\"{}\", shape={}, dtype={})", tensorName(), shapeDims(shape()), ir::dtypeName(dtype()));
  if (numpy && text.kind) return formatText(*this, false);
  std::string body = formatNumpy(eager);
  if (numpy) return body;
  bool multiline = body.find('\n') != std::string::npos;
  return fmt::format("tf.Tensor({}{}, shape={}, dtype={})", multiline ? "\n" : "", body, shapeDims(shape()),
                     ir::dtypeName(dtype()));
}

std::optional<std::string> TensorObject::format(Interpreter &in, const std::string &spec) {
  if (spec.empty()) return str(in);
  if (!symbolic() && eager.numElements() == 1) {
    if (ir::isComplex(dtype())) return in.format(in.call(*getAttr(in, "__complex__"), {}), spec);
    Value v = ir::isFloating(dtype()) ? Value::real(eager.elementAsDouble(0)) : Value::integer(eager.elementAsInt(0));
    return in.format(v, spec);
  }
  return std::nullopt;
}

std::optional<int64_t> TensorObject::toInt(Interpreter &in) {
  if (symbolic()) raiseTf(in, "TypeError", "int() argument must be a string, a bytes-like object or a real number, not 'Tensor'");
  if (eager.numElements() != 1) in.raise("TypeError", "only length-1 arrays can be converted to Python scalars");
  rejectComplexToReal(in, dtype(), "int");
  if (ir::isFloating(dtype())) return int64_t(eager.elementAsDouble(0));
  return eager.elementAsInt(0);
}

std::optional<double> TensorObject::toFloat(Interpreter &in) {
  if (symbolic()) raiseTf(in, "TypeError", "float() argument must be a string or a real number, not 'Tensor'");
  if (eager.numElements() != 1) in.raise("TypeError", "only length-1 arrays can be converted to Python scalars");
  rejectComplexToReal(in, eager.dtype(), "float");
  return eager.elementAsDouble(0);
}

std::optional<int64_t> TensorObject::hash(Interpreter &in) {
  if (!numpy && tensorEqualityActive(in)) in.raise("TypeError", "Tensor is unhashable. Instead, use tensor.ref() as the key.");
  // numpy scalars hash as the Python numbers they equal (hash(np.uint8(5)) == hash(5)).
  if (numpy && !zeroDimArray && !symbolic() && eager.rank() == 0 && eager.dtype() != DType::String) {
    if (eager.dtype() == DType::Bool) return in.hash(Value::boolean(eager.data<bool>()[0]));
    if (ir::isFloating(eager.dtype())) return in.hash(Value::real(eager.elementAsDouble(0)));
    if (ir::isComplex(eager.dtype())) {
      Value z = in.call(*getAttr(in, "__complex__"), {});
      return in.hash(z);
    }
    if (ir::isInteger(eager.dtype()) && !(eager.dtype() == DType::UInt64 && eager.data<uint64_t>()[0] > uint64_t(INT64_MAX)))
      return in.hash(Value::integer(eager.elementAsInt(0)));
  }
  return id;
}

std::string numpyReprText(const Tensor &t) {
  std::string text = t.rank() == 0 ? formatNumpy(t) : formatNumpyRepr(t);
  return text.find('\n') == std::string::npos ? text : "\n" + text;
}

}  // namespace tfs::runtime::tf
