// The single op entry point: eager kernels with tape recording, or graph
// nodes while tracing; conversion of Python values to tensors with TF's
// dtype rules; TF errors as Python exceptions.
#include "ir/element_types.h"
#include "runtime/autodiff/graph_gradients.h"
#include "runtime/graph/dense_convert.h"
#include "runtime/kernels/kernels.h"
#include "runtime/tensor/format.h"
#include "runtime/tf/tape_slices.h"
#include "runtime/tf/function_nested.h"
#include "runtime/tf/tf.h"
#include "runtime/tf/tensor_ids.h"
#include "runtime/tf/foreign_arrays.h"
#include "runtime/interp/big_int.h"
#include "runtime/interp/complex_object.h"
#include "frontend/library_span.h"

#include <atomic>
#include <algorithm>
#include <fmt/format.h>

namespace tfs::runtime::tf {

namespace {
std::atomic<int64_t> nextId{1};
std::atomic<int64_t> ndarrayIds{0};
}  // namespace

int64_t newTensorId() { return nextId++; }
void noteNdarrayId() { ++ndarrayIds; }
int64_t nonNdarrayIdsTaken() { return nextId.load() - ndarrayIds.load(); }

TensorObject::TensorObject() : id(nextId++) {}
VariableObject::VariableObject() : id(nextId++) {}

TfContext &ctx(Interpreter &in) {
  if (!in.tfContext.has_value()) in.tfContext = std::make_shared<TfContext>();
  return *std::any_cast<std::shared_ptr<TfContext> &>(in.tfContext);
}

GraphScope *currentGraph(Interpreter &in) {
  TfContext &c = ctx(in);
  if (c.initScope) return nullptr;
  if (!c.graphs.empty()) return c.graphs.back();
  if (c.v1Graph) return c.v1Graph;
  return nullptr;
}

void raiseTf(Interpreter &in, const std::string &cls, const std::string &msg) {
  in.raiseValue(in.newException(in.exceptionClass(cls), msg));
}

void raiseOpError(Interpreter &in, const ir::OpError &e) { raiseTf(in, e.errorClass, e.message); }

// An op that fails while it runs eagerly reads as TF 2.15 prints it: a kernel
// failure names the function TF wraps each eager op in, and every eager op
// error ends with the op's name (" name: " and the name= given, none here).
// A dtype mismatch of the inputs is found before the op runs, so it has no
// function prefix.
std::string eagerOpErrorMessage(const std::string &message) {
  size_t at = message.rfind(" [Op:");
  if (at == std::string::npos || message.back() != ']') return message;
  std::string op = message.substr(at + 5, message.size() - at - 6);
  std::string prefix;
  if (message.rfind("cannot compute ", 0) != 0)
    prefix = "{{function_node __wrapped__" + op + "_device_/job:localhost/replica:0/task:0/device:CPU:0}} ";
  return prefix + message + " name: ";
}

void logEagerOpPlacement(Interpreter &in, const char *opType) {
  if (!ctx(in).logDevicePlacement) return;
  std::string line = fmt::format("Executing op {} in device /job:localhost/replica:0/task:0/device:CPU:0\n", opType);
  std::fflush(stdout);  // a merged stream keeps program order
  std::fwrite(line.data(), 1, line.size(), stderr);
  std::fflush(stderr);
}

void raiseEagerOpError(Interpreter &in, const ir::OpError &e) {
  raiseTf(in, e.errorClass, eagerOpErrorMessage(e.message));
}

Tensor filledTensor(DType dtype, const std::vector<int64_t> &shape, double value) {
  Tensor scalar = Tensor::fromDoubles(dtype, {}, {value});
  return runKernel(ir::OpKind::Fill, std::vector<Tensor>{scalar}, ir::Attrs{{"shape", shape}})[0];
}

Value wrap(Tensor t, bool numpy) {
  auto o = make<TensorObject>();
  o->eager = std::move(t);
  o->numpy = numpy;
  if (numpy) noteNdarrayId();
  return o;
}

// Python values of a tensor's elements as nested lists (a scalar for rank 0):
// str for numpy '<U' text (textKind 'U'), bytes for other strings.
Value tensorToList(Interpreter &in, const Tensor &t, char textKind) {
  std::function<Value(size_t, int64_t)> rec = [&](size_t axis, int64_t base) -> Value {
    if (axis == t.rank()) {
      switch (t.dtype()) {
      case DType::Float16: case DType::Float32: case DType::Float64: return Value::real(t.elementAsDouble(base));
      case DType::UInt64:
        if (t.data<uint64_t>()[base] > uint64_t(INT64_MAX))
          in.raise("NotImplementedError", "a uint64 element above 2**63 - 1 as a Python int is not supported by tfs "
                                          "(tfs ints are 64-bit)");
        return Value::integer(t.elementAsInt(base));
      case DType::Bool: return Value::boolean(t.data<bool>()[base]);
      case DType::Complex64: {
        ir::complex64 z = t.data<ir::complex64>()[base];
        return complexValue(z.real(), z.imag());
      }
      case DType::Complex128: {
        ir::complex128 z = t.data<ir::complex128>()[base];
        return complexValue(z.real(), z.imag());
      }
      case DType::String:
        if (textKind == 'U') return in.str(t.data<std::string>()[base]);
        return Value(make<BytesObject>(t.data<std::string>()[base]));
      default: return Value::integer(t.elementAsInt(base));
      }
    }
    int64_t stride = 1;
    for (size_t d = axis + 1; d < t.rank(); ++d) stride *= t.shape()[d];
    std::vector<Value> items;
    for (int64_t i = 0; i < t.shape()[axis]; ++i) items.push_back(rec(axis + 1, base + i * stride));
    return in.list(items);
  };
  return rec(0, 0);
}

Ref<TensorObject> wrapSym(ir::Value *v, GraphScope *scope, const std::string &name) {
  auto o = make<TensorObject>();
  o->sym = v;
  o->scope = scope;
  o->name = name;
  scope->setName(v, name);
  if (scope->kind() == GraphScope::Kind::V1Graph) o->controlDeps = scope->controlInputs;
  return o;
}

std::optional<DType> dtypeArg(Interpreter &in, const Value &v) {
  if (v.isNone()) return std::nullopt;
  if (auto *d = v.as<DTypeObject>()) return d->dtype;
  if (auto *d = v.as<NumpyDTypeObject>()) return d->dtype;
  if (auto *c = v.as<ClassObject>(); c && c->module == "numpy") {
    for (int t = 0; t < ir::kNumDTypes; ++t)
      if (numpyScalarClass(DType(t)) == c) return DType(t);
  }
  if (auto *s = v.as<StrObject>()) {
    if (auto t = ir::parseDTypeName(s->s)) return t;
    if (s->s == "float") return DType::Float32;
  }
  if (auto *c = v.as<ClassObject>()) {
    if (c->name == "float") return DType::Float32;
    if (c->name == "int") return DType::Int32;
    if (c->name == "bool") return DType::Bool;
    if (c->name == "str") return DType::String;
    if (c->name == "complex") return DType::Complex128;
  }
  if (auto *f = v.as<NativeFunction>()) {
    if (auto t = ir::parseDTypeName(f->name)) return t;
  }
  // TF's DataType enum numbers (types.proto) name dtypes too:
  // tf.zeros(1, 1) is float32 zeros.
  if (v.isInt()) {
    static const std::pair<int64_t, const char *> kEnum[] = {
        {1, "float32"},  {2, "float64"},   {3, "int32"},   {4, "uint8"},    {5, "int16"},
        {6, "int8"},     {7, "string"},    {8, "complex64"}, {9, "int64"},  {10, "bool"},
        {14, "bfloat16"}, {17, "uint16"},  {18, "complex128"}, {19, "float16"}, {22, "uint32"},
        {23, "uint64"}};
    for (auto &[number, name] : kEnum)
      if (v.asInt() == number)
        if (auto t = ir::parseDTypeName(name)) return t;
  }
  in.raise("TypeError",
           fmt::format("Cannot convert the argument `type_value`: {} to a TensorFlow DType.", in.repr(v)));
}

namespace {
ForeignArrayConversion foreignConversion = nullptr;
std::optional<Value> foreignArray(Interpreter &in, const Value &v) {
  return foreignConversion ? foreignConversion(in, v) : std::nullopt;
}
}  // namespace

void setForeignArrayConversion(ForeignArrayConversion f) { foreignConversion = f; }

namespace {
// Infers the dtype and shape of nested Python lists of scalars.
void scan(Interpreter &in, const Value &v, size_t depth, std::vector<int64_t> &shape, bool &anyFloat,
          bool &anyInt, bool &anyBool, bool &anyStr, bool &anyComplex, std::vector<Value> &flat,
          int64_t &leafDepth) {
  // Every scalar sits at the same depth, or the nesting is not rectangular
  // ([[1, 2], [3, [4]]] has as many elements as a 2x2x1 shape).
  auto leafAt = [&](size_t d) {
    if (leafDepth < 0) leafDepth = int64_t(d);
    else if (leafDepth != int64_t(d)) in.raise("ValueError", "Can't convert non-rectangular Python sequence to Tensor.");
  };
  if (auto *t = v.as<TensorObject>(); t && !t->symbolic()) {
    leafAt(depth + t->eager.rank());
    for (size_t d = 0; d < t->eager.rank(); ++d) {
      if (shape.size() <= depth + d) shape.push_back(t->eager.shape()[d]);
      else if (shape[depth + d] != t->eager.shape()[d])
        in.raise("ValueError", "Can't convert non-rectangular Python sequence to Tensor.");
    }
    for (int64_t i = 0; i < t->eager.numElements(); ++i) {
      if (ir::isFloating(t->eager.dtype())) { anyFloat = true; flat.push_back(Value::real(t->eager.elementAsDouble(i))); }
      else if (t->eager.dtype() == DType::Complex64) {
        anyComplex = true;
        ir::complex64 z = t->eager.data<ir::complex64>()[i];
        flat.push_back(complexValue(z.real(), z.imag()));
      } else if (t->eager.dtype() == DType::Complex128) {
        anyComplex = true;
        ir::complex128 z = t->eager.data<ir::complex128>()[i];
        flat.push_back(complexValue(z.real(), z.imag()));
      }
      else if (t->eager.dtype() == DType::Bool) { anyBool = true; flat.push_back(Value::boolean(t->eager.data<bool>()[i])); }
      else if (t->eager.dtype() == DType::String) { anyStr = true; flat.push_back(make<BytesObject>(t->eager.data<std::string>()[i])); }
      else { anyInt = true; flat.push_back(Value::integer(t->eager.elementAsInt(i))); }
    }
    return;
  }
  // A range is a sequence to TF's and numpy's conversions alike
  // (tf.constant(range(3)), np.random.choice(range(n))).
  if (v.as<ListObject>() || v.as<TupleObject>() || v.as<RangeObject>()) {
    auto items = in.toList(v);
    if (shape.size() <= depth) shape.push_back(int64_t(items.size()));
    else if (shape[depth] != int64_t(items.size()))
      in.raise("ValueError", "Can't convert non-rectangular Python sequence to Tensor.");
    for (auto &x : items) scan(in, x, depth + 1, shape, anyFloat, anyInt, anyBool, anyStr, anyComplex, flat, leafDepth);
    return;
  }
  if (v.isBool()) anyBool = true;
  else if (v.isInt()) anyInt = true;
  else if (v.as<BigIntObject>()) in.raise("OverflowError", "Python int too large to convert to C long");
  else if (v.isFloat()) anyFloat = true;
  else if (v.as<ComplexObject>()) anyComplex = true;
  else if (v.as<StrObject>() || v.as<BytesObject>()) anyStr = true;
  else if (auto *var = v.as<VariableObject>()) {
    Value t = readVariable(in, *var);
    scan(in, t, depth, shape, anyFloat, anyInt, anyBool, anyStr, anyComplex, flat, leafDepth);
    return;
  } else if (std::optional<Value> stand = foreignArray(in, v)) {
    scan(in, *stand, depth, shape, anyFloat, anyInt, anyBool, anyStr, anyComplex, flat, leafDepth);
    return;
  } else if (v.isObj() && std::string_view(v.obj()->typeName()) == "RepeatedScalarContainer") {
    // A protobuf repeated field (tf.train.Int64List(...).value, lib/tf/io/
    // proto_message.cpp): a sequence to TF and numpy, as in Python.
    scan(in, in.list(in.toList(v)), depth, shape, anyFloat, anyInt, anyBool, anyStr, anyComplex, flat, leafDepth);
    return;
  } else {
    in.raise("ValueError", fmt::format("Attempt to convert a value ({}) with an unsupported type ({}) to a Tensor.",
                                       in.repr(v), in.typeName(v)));
  }
  leafAt(depth);
  flat.push_back(v);
}
}  // namespace

namespace {
// TF's conversion function for a TensorShape (constant_op's
// _tensor_shape_tensor_conversion_function): its dims as int32, or int64
// when one does not fit or int64 is asked for.
Tensor shapeAsTensor(Interpreter &in, const ir::Shape &s, const Value &v, std::optional<DType> dtype) {
  std::string text = in.str(v);
  if (!s.ranked || std::any_of(s.dims.begin(), s.dims.end(), [](int64_t d) { return d < 0; }))
    in.raise("ValueError", fmt::format("Cannot convert a partially known TensorShape {} to a Tensor.", text));
  bool wide = std::any_of(s.dims.begin(), s.dims.end(), [](int64_t d) { return d > INT32_MAX; });
  if (dtype && *dtype != DType::Int32 && *dtype != DType::Int64)
    in.raise("TypeError", fmt::format("Cannot convert TensorShape {} to dtype <dtype: '{}'>. Allowed dtypes are "
                                      "tf.int32 and tf.int64.", text, ir::dtypeName(*dtype)));
  if (dtype == DType::Int32 && wide)
    in.raise("ValueError", fmt::format("Cannot convert TensorShape {} to dtype int32; a dimension is too large. "
                                       "Consider using tf.int64.", text));
  DType out = dtype.value_or(wide ? DType::Int64 : DType::Int32);
  std::vector<double> dims(s.dims.begin(), s.dims.end());
  return Tensor::fromDoubles(out, {int64_t(dims.size())}, dims);
}
}  // namespace

Tensor tensorFromPython(Interpreter &in, const Value &v, std::optional<DType> dtype, bool numpyDefaults) {
  if (auto *ts = v.as<TensorShapeObject>(); ts && !numpyDefaults) return shapeAsTensor(in, ts->shape, v, dtype);
  // An object standing for an array (one with __array__: a pandas frame)
  // converts as the array it gives, keeping that array's dtype.
  if (v.as<InstanceObject>())
    if (std::optional<Value> stand = foreignArray(in, v)) return tensorFromPython(in, *stand, dtype, numpyDefaults);
  std::vector<int64_t> shape;
  bool anyFloat = false, anyInt = false, anyBool = false, anyStr = false, anyComplex = false;
  std::vector<Value> flat;
  int64_t leafDepth = -1;
  scan(in, v, 0, shape, anyFloat, anyInt, anyBool, anyStr, anyComplex, flat, leafDepth);
  // Python complex numbers: complex128 in TF as in numpy.
  DType inferred = anyStr ? DType::String
                   : anyComplex ? DType::Complex128
                   : anyFloat ? (numpyDefaults ? DType::Float64 : DType::Float32)
                   : anyInt ? (numpyDefaults ? DType::Int64 : DType::Int32)
                   : anyBool ? DType::Bool : (numpyDefaults ? DType::Float64 : DType::Float32);
  // TF: Python ints become int32, or int64 when one does not fit.
  if (inferred == DType::Int32 && !dtype)
    for (const Value &x : flat)
      if (x.isInt()) {
        int64_t iv = in.toInt(x);
        if (iv > INT32_MAX || iv < INT32_MIN) { inferred = DType::Int64; break; }
      }
  if (auto *t = v.as<TensorObject>(); t && !t->symbolic() && !dtype) inferred = t->eager.dtype();
  DType out = dtype.value_or(inferred);
  // Strings beside numbers (TF's py_seq_tensor error; the ragged_tensor
  // guide's tf.ragged.constant([["one", "two"], [3, 4]])).
  if (anyStr && (anyInt || anyFloat || anyBool || anyComplex)) {
    if (numpyDefaults)  // numpy makes str() of the numbers, in a dtype wide enough for any of their kind
      in.raise("NotImplementedError", "an array of strings mixed with numbers is not supported by tfs");
    in.raise("ValueError", "Can't convert Python sequence with mixed types to Tensor.");
  }
  if (anyStr && out != DType::String)
    in.raise("TypeError", fmt::format("Cannot convert {} to EagerTensor of dtype {}", in.repr(v), ir::dtypeName(out)));
  if (!anyStr && out == DType::String && !flat.empty())  // an empty list is any dtype
    in.raise("TypeError", fmt::format("Cannot convert {} to EagerTensor of dtype string", in.repr(v)));
  if (anyComplex && !ir::isComplex(out)) {
    // TF (DataTypeString names): "Cannot convert (1+2j) to EagerTensor of dtype float"; numpy
    // converts each element with float()/int(), which refuse complex (bool takes the truth value).
    if (numpyDefaults && out != DType::Bool)
      in.raise("TypeError", ir::isInteger(out)
                                ? "int() argument must be a string, a bytes-like object or a real number, not 'complex'"
                                : "float() argument must be a string or a real number, not 'complex'");
    if (!numpyDefaults)
      in.raise("TypeError", fmt::format("Cannot convert {} to EagerTensor of dtype {}", in.repr(v), ir::dtypeTfTypeName(out)));
  }
  if (dtype && ir::isInteger(*dtype) && anyFloat && !numpyDefaults && !v.as<TensorObject>())
    in.raise("TypeError", fmt::format("Cannot convert {} to EagerTensor of dtype {}", in.repr(v), ir::dtypeName(*dtype)));
  // A float into an int array (numpy's unsafe cast) follows tf.cast's x86 rule.
  auto toInt64 = [&](const Value &x) { return x.isFloat() ? ir::numericCast<double, int64_t>(x.asFloat()) : in.toInt(x); };
  Tensor t = Tensor::empty(out, shape);
  for (size_t i = 0; i < flat.size(); ++i) {
    const Value &x = flat[i];
    switch (out) {
    case DType::String:
      t.data<std::string>()[i] = x.as<StrObject>() ? x.as<StrObject>()->s : x.as<BytesObject>()->s;
      break;
    case DType::Float32: t.data<float>()[i] = float(in.toFloat(x)); break;
    case DType::Float64: t.data<double>()[i] = in.toFloat(x); break;
    case DType::Int32: {
      int64_t iv = toInt64(x);
      if (!numpyDefaults && (iv > INT32_MAX || iv < INT32_MIN))
        in.raise("ValueError", fmt::format("Can't convert Python int {} to int32 (out of range)", iv));
      t.data<int32_t>()[i] = int32_t(iv);
      break;
    }
    case DType::Int64: t.data<int64_t>()[i] = toInt64(x); break;
    case DType::Bool: t.data<bool>()[i] = in.truth(x); break;
    case DType::Complex64: case DType::Complex128: {
      std::optional<std::complex<double>> c = complexOperand(in, x);
      std::complex<double> z = c ? *c : std::complex<double>(in.toFloat(x), 0.0);
      if (out == DType::Complex64) t.data<ir::complex64>()[i] = ir::complex64(float(z.real()), float(z.imag()));
      else t.data<ir::complex128>()[i] = z;
      break;
    }
    default:
      // TF converts through int64 or double and casts (pywrap_tensor's
      // IsCompatible + Cast): 300 as uint8 wraps to 44, 1e6 as float16 is inf.
      ir::visitNumericDType(out, [&]<class T>() {
        if (x.isFloat()) t.data<T>()[i] = ir::numericCast<double, T>(x.asFloat());
        else if (x.isBool() || x.isInt()) t.data<T>()[i] = ir::numericCast<int64_t, T>(in.toInt(x));
        else t.data<T>()[i] = ir::numericCast<double, T>(in.toFloat(x));
      });
      break;
    }
  }
  return t;
}

// The span a staged node records: the statement that staged it. A node
// built inside library code (a tf.linalg function written in .tfs) takes
// the script's innermost call into the library instead, so an error when
// the graph runs points at the user's line, as it does eagerly.
frontend::SourceSpan stagingSpan(Interpreter &in) {
  const frontend::SourceSpan &s = in.currentSpan();
  if (!frontend::isLibrary(s)) return s;
  const auto &stack = in.callStack();
  for (size_t k = stack.size(); k-- > 0;)
    if (stack[k].valid() && !frontend::isLibrary(stack[k])) return stack[k];
  return s;
}

namespace {
// The dtype of the first tensor in nested lists, if any holds a tensor
// (TF's _get_dtype_from_nested_lists, for auto-packing). numpy arrays are
// not tensors here, as in TF's _should_not_autopack.
bool findTensor(Interpreter &in, const Value &v, std::optional<DType> &first) {
  if (auto *t = v.as<TensorObject>()) {
    if (t->numpy) return false;
    if (!first) first = t->dtype();
    return true;
  }
  if (!v.as<ListObject>() && !v.as<TupleObject>()) return false;
  bool any = false;
  for (const Value &x : in.toList(v)) any |= findTensor(in, x, first);
  return any;
}

// TF's auto-packing: a (nested) list holding tensors converts to a stack
// of its converted items, Python numbers taking the first tensor's dtype --
// eagerly too, where the stack is what a GradientTape records (`[x * 3.0]`
// keeps its gradient). Null when the list holds no tensor.
Ref<TensorObject> autoPack(Interpreter &in, const Value &v, std::optional<DType> dtype) {
  std::optional<DType> first;
  if (!findTensor(in, v, first)) return nullptr;
  DType dt = dtype.value_or(*first);
  std::vector<Ref<TensorObject>> items;
  for (const Value &x : in.toList(v)) items.push_back(toTensor(in, x, dt));
  if (items.empty()) return nullptr;
  return callOp1(in, ir::OpKind::Stack, items, {{"axis", int64_t(0)}}, "packed");
}
}  // namespace

Ref<TensorObject> toTensor(Interpreter &in, const Value &v, std::optional<DType> dtype,
                           std::optional<DType> like) {
  if (auto *t = v.as<TensorObject>()) {
    if (dtype && *dtype != t->dtype()) {
      if (t->numpy && !t->symbolic()) {
        auto r = make<TensorObject>();
        r->eager = runKernel(ir::OpKind::Cast, std::vector<Tensor>{t->eager}, ir::Attrs{{"dtype", *dtype}})[0];
        return r;
      }
      raiseTf(in, "ValueError", fmt::format("Tensor conversion requested dtype {} for Tensor with dtype {}: {}",
                                            ir::dtypeName(*dtype), ir::dtypeName(t->dtype()), in.repr(v)));
    }
    if (t->numpy) {
      auto r = make<TensorObject>();
      r->eager = t->eager;
      return r;
    }
    return Ref<TensorObject>(t);
  }
  if (auto *var = v.as<VariableObject>()) {
    Value r = readVariable(in, *var);
    return toTensor(in, r, dtype);
  }
  if (v.as<ListObject>() || v.as<TupleObject>()) {
    if (auto packed = autoPack(in, v, dtype)) return packed;
  }
  // TF's tensor conversion registry: a library class defining
  // `_tfs_to_dense(dtype)` (tf.IndexedSlices, lib/tf/_tf_indexed_slices.tfs)
  // converts itself, so every op densifies it as TF's ops do.
  if (auto *inst = v.as<InstanceObject>(); inst && inst->klass->lookup("_tfs_to_dense")) {
    Value d = in.call(in.getAttr(v, "_tfs_to_dense"), std::vector<Value>{dtype ? dtypeValue(*dtype) : Value()});
    return toTensor(in, d, dtype);
  }
  std::optional<DType> want = dtype;
  // A Python complex beside a tensor takes a complex tensor's dtype; a real
  // tensor's is TF's conversion error (tf.constant(1.0) * 1j).
  if (!want && like && v.as<ComplexObject>()) {
    if (!ir::isComplex(*like))
      raiseTf(in, "TypeError", fmt::format("Cannot convert {} to EagerTensor of dtype {}", in.repr(v), ir::dtypeTfTypeName(*like)));
    want = like;
  }
  if (!want && like && (v.isInt() || v.isFloat() || v.isBool())) {
    if (v.isFloat() && ir::isInteger(*like))
      raiseTf(in, "TypeError", fmt::format("Cannot convert {} to EagerTensor of dtype {}", in.repr(v), ir::dtypeName(*like)));
    if (*like != DType::String && !(v.isBool() && *like != DType::Bool)) want = like;
  }
  // A Python list operand takes the tensor's dtype (TF converts it with
  // dtype=x.dtype: `tf.constant([1.0]) + [1, 2]`; a float into an int
  // tensor's list is its TypeError).
  if (!want && like && *like != DType::String && *like != DType::Bool && (v.as<ListObject>() || v.as<TupleObject>()))
    want = like;
  auto r = make<TensorObject>();
  r->eager = tensorFromPython(in, v, want, false);
  return r;
}

namespace {
// A graph node's TF name: the given name or the op type, uniquified.
std::string nodeNamePrefix(Interpreter &in) {
  std::string prefix;
  for (const auto &s : ctx(in).nameScopes) prefix += s;
  return prefix;
}

std::string nodeName(Interpreter &in, GraphScope &g, ir::OpKind kind, const std::string &tfName) {
  // TF: a name ending in "/" is a name scope's full name (`with
  // name_scope(...) as scope: op(..., name=scope)`), used as it is.
  if (tfName.size() > 1 && tfName.back() == '/') return tfName.substr(0, tfName.size() - 1);
  std::string base = tfName.empty() ? ir::tfOpType(kind) : tfName;
  return g.uniqueName(nodeNamePrefix(in) + base);
}

// Whether `v` may be used by a node of region `r`: it is defined in `r` or
// in a region enclosing it (a function parameter or capture: anywhere).
bool visibleFrom(const ir::Value *v, const ir::Region &r) {
  const ir::Region *home = nullptr;
  if (const ir::Node *d = v->definingNode()) {
    home = d->parentRegion();
    if (!home) return false;  // a discarded node (AutoGraph's scratch trace)
  } else {
    home = v->ownerRegion();
    if (!home) return true;
  }
  if (!home->parentNode()) return true;  // the function body encloses everything
  for (const ir::Region *x = &r; x; x = x->parentNode() ? x->parentNode()->parentRegion() : nullptr)
    if (x == home) return true;
  return false;
}

}  // namespace

void checkAccessible(Interpreter &in, GraphScope &g, const TensorObject &t) {
  if (t.symbolic() && t.scope == &g && !visibleFrom(t.sym, g.builder().region()))
    // A value of a loop body or branch kept in a Python object (a list
    // appended to) and read outside it: TF's trace-time error, where the
    // graph would otherwise use a value that does not dominate its use.
    raiseTf(in, "InaccessibleTensorError",
            fmt::format("The tensor '{}' cannot be accessed here: it is defined in another function or code "
                        "block. Use return values, explicit Python locals or TensorFlow collections to access it.",
                        t.name.empty() ? std::string("Tensor") : t.name));
}

namespace {
// An input of a node being built: symbolic values of this graph as they
// are, eager tensors as captures (large) or constants (small).
ir::Value *graphInput(Interpreter &in, GraphScope &g, TensorObject &t) {
  if (t.symbolic()) {
    if (t.scope != &g) {
      const std::vector<GraphScope *> &active = ctx(in).graphs;
      // A nested tf.function using a tensor of an enclosing one's graph:
      // TF captures it as an input of the inner function.
      if (std::find(active.begin(), active.end(), t.scope) != active.end())
        return captureEnclosingTensor(in, g, *t.scope, t.sym, t.name);
      // A tensor leaked out of a finished trace (a global assigned inside
      // another tf.function): TF captures it and then refuses to run the
      // graph with it, in these words.
      raiseTf(in, "TypeError",
              fmt::format("An op outside of the function building code is being passed\na \"Graph\" tensor. It is "
                          "possible to have Graph tensors\nleak out of the function building context by including "
                          "a\ntf.init_scope in your function building code.\nFor example, the following function "
                          "will fail:\n  @tf.function\n  def has_init_scope():\n    my_constant = tf.constant(1.)\n"
                          "    with tf.init_scope():\n      added = my_constant * 2\nThe graph tensor has name: {}:0",
                          t.name));
    }
    checkAccessible(in, g, t);
    return t.sym;
  }
  // A tensor already captured (one a tape in this graph watches) is read
  // through its capture; other small ones are constants.
  if (ir::Value *c = g.findTensorCapture(t.eager.bufferId())) return c;
  if (t.eager.numElements() <= 16) {
    ir::Value *v = g.builder().constant(denseFromTensor(t.eager), in.currentSpan());
    return v;
  }
  auto handle = std::make_shared<Tensor>(t.eager);
  return g.addTensorCapture(t.eager.bufferId(), "capture", t.eager.type(), handle);
}
}  // namespace

namespace {
const char *tfDataTypeEnum(DType d) { return ir::dtypeEnumName(d); }

// While tracing, TF's shape inference rejects a binary op on unbroadcastable
// shapes with a ValueError naming the node, not the eager kernel's
// InvalidArgumentError: "Dimensions must be equal, but are 3 and 4 for
// '{{node add}} = AddV2[T=DT_FLOAT](x, y)' with input shapes: [3], [4]."
[[noreturn]] void raiseGraphBroadcastError(Interpreter &in, GraphScope &g, ir::OpKind kind,
                                           const std::string &tfName,
                                           const std::vector<Ref<TensorObject>> &inputs) {
  auto shapeOf = [](const TensorObject &t) {
    return t.symbolic() ? t.sym->type.shape : ir::Shape(t.eager.shape());
  };
  ir::Shape a = shapeOf(*inputs[0]), b = shapeOf(*inputs[1]);
  size_t r = std::max(a.rank(), b.rank());
  int64_t x = 0, y = 0;
  for (size_t i = 0; i < r; ++i) {
    x = i < r - a.rank() ? 1 : a.dims[i - (r - a.rank())];
    y = i < r - b.rank() ? 1 : b.dims[i - (r - b.rank())];
    if (x != y && x != 1 && y != 1 && x >= 0 && y >= 0) break;
  }
  auto inputName = [](const TensorObject &t) { return t.symbolic() ? t.name : std::string("Const"); };
  std::string node = g.uniqueName(nodeNamePrefix(in) + (tfName.empty() ? ir::tfOpType(kind) : tfName));
  DType dt = inputs[0]->symbolic() ? inputs[0]->sym->type.dtype : inputs[0]->eager.dtype();
  in.raise("ValueError",
           fmt::format("Dimensions must be equal, but are {} and {} for '{{{{node {}}}}} = {}[T={}]({}, {})' "
                       "with input shapes: {}, {}.",
                       x, y, node, ir::tfOpType(kind), tfDataTypeEnum(dt), inputName(*inputs[0]),
                       inputName(*inputs[1]), a.debugString(), b.debugString()));
}

[[noreturn]] void raiseLeakedGraphTensor(Interpreter &in, const TensorObject &t) {
  in.raise("TypeError", "An op outside of the function building code is being passed\n"
                        "a \"Graph\" tensor. It is possible to have Graph tensors\n"
                        "leak out of the function building context by including a\n"
                        "tf.init_scope in your function building code.\n"
                        "For example, the following function will fail:\n"
                        "  @tf.function\n"
                        "  def has_init_scope():\n"
                        "    my_constant = tf.constant(1.)\n"
                        "    with tf.init_scope():\n"
                        "      added = my_constant * 2\n"
                        "The graph tensor has name: " + t.tensorName());
}
}  // namespace

std::vector<Ref<TensorObject>> callOp(Interpreter &in, ir::OpKind kind,
                                      std::vector<Ref<TensorObject>> inputs, ir::Attrs attrs,
                                      const std::string &tfName) {
  GraphScope *g = currentGraph(in);
  bool anySym = false;
  for (auto &t : inputs) anySym |= t->symbolic();
  if (anySym && !g) {
    for (auto &t : inputs) {
      if (!t->symbolic()) continue;
      // A tensor of a tf.function's graph used eagerly: it leaked out of its
      // trace (a global assigned inside, or tf.init_scope). TF refuses to run
      // the op; building it into the finished graph would compute nothing.
      if (t->scope->kind() == GraphScope::Kind::Function) raiseLeakedGraphTensor(in, *t);
      g = t->scope;
      break;
    }
  }
  if (g) {
    std::vector<ir::Value *> ops;
    for (auto &t : inputs) ops.push_back(graphInput(in, *g, *t));
    ir::Node *node;
    try {
      node = g->builder().createNode(kind, ops, std::move(attrs), stagingSpan(in));
    } catch (const ir::OpError &e) {
      if (e.message.rfind("Incompatible shapes", 0) == 0 && inputs.size() == 2)
        raiseGraphBroadcastError(in, *g, kind, tfName, inputs);
      raiseOpError(in, e);
    }
    std::string name = nodeName(in, *g, kind, tfName);
    std::vector<Ref<TensorObject>> out;
    for (size_t i = 0; i < node->numResults(); ++i)
      out.push_back(wrapSym(node->result(unsigned(i)), g, i ? fmt::format("{}:{}", name, i) : name));
    // A TF gather's record carries the slicing mark (tape_slices.h); the
    // node itself stays as built.
    bool slicing = kind == ir::OpKind::Gather && slicingGatherActive();
    if (slicing) node->attrs[kSlicingGatherAttr] = true;
    recordNodeOnTapes(in, *g, *node);
    if (slicing) node->attrs.erase(kSlicingGatherAttr);
    return out;
  }
  std::vector<Tensor> args;
  for (auto &t : inputs) args.push_back(t->eager);
  std::vector<Tensor> results;
  logEagerOpPlacement(in, ir::tfOpType(kind));
  try {
    if (in.profilingOps()) {
      int64_t start = Profiler::nowNs();
      results = runKernel(kind, args, attrs);
      in.profiler()->recordEagerOp(kind, start, Profiler::nowNs() - start);
    } else {
      results = runKernel(kind, args, attrs);
    }
  } catch (const ir::OpError &e) {
    raiseEagerOpError(in, e);
  }
  std::vector<Ref<TensorObject>> out;
  for (auto &r : results) {
    auto o = make<TensorObject>();
    o->eager = std::move(r);
    out.push_back(o);
  }
  auto &tapes = ctx(in).tapes;
  if (!tapes.empty()) {
    std::vector<int64_t> inIds, outIds;
    std::vector<TapeValue> inVals, outVals;
    for (auto &t : inputs) { inIds.push_back(t->id); inVals.push_back(t->eager); }
    for (auto &t : out) { outIds.push_back(t->id); outVals.push_back(t->eager); }
    if (kind == ir::OpKind::Gather && slicingGatherActive()) attrs[kSlicingGatherAttr] = true;  // tape_slices.h
    for (TapeObject *tape : tapes)
      if (!tape->graph && tape->tape.shouldRecord(inIds)) tape->tape.record(kind, attrs, inIds, inVals, outIds, outVals);
  }
  return out;
}

Ref<TensorObject> callOp1(Interpreter &in, ir::OpKind kind, std::vector<Ref<TensorObject>> inputs,
                          ir::Attrs attrs, const std::string &tfName) {
  return callOp(in, kind, std::move(inputs), std::move(attrs), tfName).at(0);
}

}  // namespace tfs::runtime::tf
