// numpy's type objects as the engine knows them: np.dtype objects (what
// `a.dtype` is), the scalar types (np.float32, np.int64, np.bool_: classes
// whose instances are the numpy scalars, 0-d ndarrays that print like
// numbers) with numpy's abstract hierarchy (np.floating, np.integer, ...),
// and the registration point of the numpy library's ndarray hooks.
//
// They live in the engine because dtypeArg() (every `dtype=` argument of tf
// and numpy) must accept them and TensorObject::cls() must answer them; the
// numpy module (lib/numpy) only exposes them.
#include "runtime/kernels/kernels.h"
#include "runtime/tf/tf.h"

#include <fmt/format.h>

namespace tfs::runtime::tf {

namespace {

NdarrayHooks hooks;

// numpy's description of each engine dtype: name, kind, type char, item
// size and the array-protocol type string.
struct NumpyTypeInfo {
  DType dtype;
  const char *name, *scalarName, *kind, *typeChar, *protocol;
  int64_t itemsize;
};
constexpr NumpyTypeInfo kNumpyTypes[] = {
    {DType::Bool, "bool", "bool_", "b", "?", "|b1", 1},
    {DType::Int32, "int32", "int32", "i", "i", "<i4", 4},
    {DType::Int64, "int64", "int64", "i", "l", "<i8", 8},
    {DType::Float32, "float32", "float32", "f", "f", "<f4", 4},
    {DType::Float64, "float64", "float64", "f", "d", "<f8", 8},
    {DType::String, "bytes", "bytes_", "S", "S", "|S0", 0},
    {DType::Int8, "int8", "int8", "i", "b", "|i1", 1},
    {DType::Int16, "int16", "int16", "i", "h", "<i2", 2},
    {DType::UInt8, "uint8", "uint8", "u", "B", "|u1", 1},
    {DType::UInt16, "uint16", "uint16", "u", "H", "<u2", 2},
    {DType::UInt32, "uint32", "uint32", "u", "I", "<u4", 4},
    {DType::UInt64, "uint64", "uint64", "u", "L", "<u8", 8},
    {DType::Float16, "float16", "float16", "f", "e", "<f2", 2},
    {DType::Complex64, "complex64", "complex64", "c", "F", "<c8", 8},
    {DType::Complex128, "complex128", "complex128", "c", "D", "<c16", 16},
};

const NumpyTypeInfo &info(DType t) {
  for (const auto &i : kNumpyTypes)
    if (i.dtype == t) return i;
  return kNumpyTypes[0];
}

// This run's numpy classes (owned by TfContext::numpyTypes).
ClassObject *scalarClasses[ir::kNumDTypes] = {};
std::vector<std::pair<std::string, ClassObject *>> abstractClasses;

}  // namespace

bool numpySupportsDType(DType t) {
  for (const auto &i : kNumpyTypes)
    if (i.dtype == t) return true;
  return false;
}

void requireNumpyDType(Interpreter &in, DType t) {
  if (!numpySupportsDType(t))
    in.raise("NotImplementedError",
             std::string("numpy arrays of dtype ") + ir::dtypeName(t) + " are not supported by tfs (tfs's numpy has bool, "
             "int8/16/32/64, uint8/16/32/64, float16/32/64, complex64/128 and bytes)");
}

void setNdarrayHooks(const NdarrayHooks &h) { hooks = h; }
const NdarrayHooks &ndarrayHooks() { return hooks; }

std::string numpyDTypeName(DType t) { return info(t).name; }

std::optional<DType> parseNumpyDTypeName(std::string_view name) {
  // Byte-order marks do not change the type on this little-endian machine.
  if (name.size() > 1 && (name[0] == '<' || name[0] == '=' || name[0] == '|')) name.remove_prefix(1);
  for (const auto &i : kNumpyTypes) {
    if (name == i.name || name == i.scalarName || name == i.typeChar) return i.dtype;
    std::string_view proto = std::string_view(i.protocol).substr(1);
    if (name == proto && i.dtype != DType::String) return i.dtype;
  }
  if (name == "float" || name == "double" || name == "float_") return DType::Float64;
  if (name == "single") return DType::Float32;
  if (name == "int" || name == "int_" || name == "long" || name == "intp") return DType::Int64;
  if (name == "intc") return DType::Int32;
  if (name == "q" || name == "longlong") return DType::Int64;
  if (name == "byte") return DType::Int8;
  if (name == "short") return DType::Int16;
  if (name == "ubyte") return DType::UInt8;
  if (name == "ushort") return DType::UInt16;
  if (name == "uintc") return DType::UInt32;
  if (name == "uint" || name == "uintp" || name == "ulonglong" || name == "Q") return DType::UInt64;
  if (name == "half") return DType::Float16;
  if (name == "complex" || name == "complex_" || name == "cfloat" || name == "cdouble" || name == "clongfloat")
    return DType::Complex128;
  if (name == "csingle" || name == "singlecomplex") return DType::Complex64;
  if (name == "bool8") return DType::Bool;
  if (name == "bytes" || name == "S" || name == "str" || name == "U" || name == "str_" || name == "unicode")
    return DType::String;
  return std::nullopt;
}

Value numpyDTypeValue(DType t) { return make<NumpyDTypeObject>(t); }

std::optional<Value> NumpyDTypeObject::getAttr(Interpreter &in, const std::string &name) {
  const NumpyTypeInfo &i = info(dtype);
  if (name == "name") return in.str(i.name);
  if (name == "kind") return in.str(i.kind);
  if (name == "char") return in.str(i.typeChar);
  if (name == "str") return in.str(i.protocol);
  if (name == "itemsize") return Value::integer(i.itemsize);
  if (name == "byteorder") return in.str(i.protocol[0] == '|' ? "|" : "=");
  if (name == "type") {
    if (ClassObject *c = numpyScalarClass(dtype)) return Value(Ref<Object>(c));
  }
  if (name == "shape") return in.tuple({});
  if (name == "ndim") return Value::integer(0);
  return std::nullopt;
}

std::optional<Value> NumpyDTypeObject::compare(Interpreter &in, CmpOp op, const Value &other) {
  if (op != CmpOp::Eq && op != CmpOp::Ne) return std::nullopt;
  std::optional<DType> o;
  if (auto *d = other.as<NumpyDTypeObject>()) o = d->dtype;
  else if (auto *d = other.as<DTypeObject>()) o = d->dtype;
  else if (auto *s = other.as<StrObject>()) o = parseNumpyDTypeName(s->s);
  // numpy compares with np.dtype(other): `object` is the object dtype,
  // which no numeric or string dtype equals (df[col].dtype == object);
  // Python's float / int / complex are float64 / int64 / complex128.
  else if (auto *c = other.as<ClassObject>()) {
    if (c->name == "object") o = std::nullopt;
    else if (c->name == "float") o = DType::Float64;
    else if (c->name == "int") o = DType::Int64;
    else if (c->name == "complex") o = DType::Complex128;
    else o = dtypeArg(in, other);
  }
  else if (!other.isNone()) return std::nullopt;
  bool eq = o && *o == dtype;
  return Value::boolean(op == CmpOp::Eq ? eq : !eq);
}

std::optional<std::string> NumpyDTypeObject::repr(Interpreter &) {
  if (dtype == DType::String) return std::string("dtype('S')");
  return fmt::format("dtype('{}')", info(dtype).name);
}
std::optional<std::string> NumpyDTypeObject::str(Interpreter &) {
  if (dtype == DType::String) return std::string("|S0");
  return std::string(info(dtype).name);
}

ClassObject *numpyScalarClass(DType t) { return scalarClasses[int(t)]; }

ClassObject *numpyAbstractClass(const std::string &name) {
  for (auto &[n, c] : abstractClasses)
    if (n == name) return c;
  return nullptr;
}

namespace {
// np.float32(x): a numpy scalar of that type, or an array when x is a
// sequence or an array (np.float32([1, 2]) is an array of float32).
Value constructScalar(Interpreter &in, DType t, Args a) {
  if (a.empty()) return wrap(Tensor::fromDoubles(t, {}, {0.0}), true);
  const Value &x = a[0];
  if (x.as<StrObject>() && ir::isComplex(t)) {  // np.complex128('1+2j') parses as complex() does
    Value z = in.call(in.builtin("complex"), a.subspan(0, 1));
    return wrap(tensorFromPython(in, z, t, true), true);
  }
  if (auto *s = x.as<StrObject>(); s && t != DType::String) {
    double v = ir::isFloating(t) ? in.toFloat(x) : double(in.toInt(x));
    return wrap(Tensor::fromDoubles(t, {}, {v}), true);
  }
  bool sequence = x.as<ListObject>() || x.as<TupleObject>();
  auto *arr = x.as<TensorObject>();
  if (arr && arr->symbolic()) in.raise("TypeError", "cannot convert a symbolic tensor to a numpy scalar");
  Tensor v = arr ? arr->eager : tensorFromPython(in, x, std::nullopt, true);
  if (v.dtype() != t) {
    if (v.dtype() == DType::String || t == DType::String)
      in.raise("TypeError", fmt::format("cannot convert {} to numpy.{}", in.repr(x), info(t).scalarName));
    v = runKernel(ir::OpKind::Cast, std::vector<Tensor>{v}, ir::Attrs{{"dtype", t}})[0];
  } else if (arr) {
    v = v.copy();
  }
  Value out = wrap(v, true);
  if (sequence || (arr && arr->eager.rank() > 0)) out.as<TensorObject>()->zeroDimArray = true;
  return out;
}
}  // namespace

void installNumpyTypes(Interpreter &in, TfContext &c) {
  auto object = Ref<ClassObject>(in.builtin("object").as<ClassObject>());
  // A class of module numpy whose MRO is itself, then its bases' MROs
  // (single inheritance chains, plus Python's float / str for float64 / str_).
  auto makeType = [&](const std::string &name, std::vector<ClassObject *> bases) {
    auto k = make<ClassObject>();
    k->name = name;
    k->module = "numpy";
    k->mro.push_back(k.get());
    for (ClassObject *b : bases) {
      k->bases.push_back(Ref<ClassObject>(b));
      for (ClassObject *m : b->mro)
        if (m != object.get() && std::find(k->mro.begin(), k->mro.end(), m) == k->mro.end()) k->mro.push_back(m);
    }
    if (bases.empty()) k->bases.push_back(object);
    k->mro.push_back(object.get());
    std::string abstractName = name;
    k->construct = [abstractName](Interpreter &in, Args, const Kwargs &) -> Value {
      in.raise("TypeError", fmt::format("cannot create 'numpy.{}' instances", abstractName));
    };
    c.numpyTypes.push_back(k);
    return k.get();
  };
  abstractClasses.clear();
  auto abstract = [&](const std::string &name, std::vector<ClassObject *> bases) {
    ClassObject *k = makeType(name, std::move(bases));
    abstractClasses.emplace_back(name, k);
    return k;
  };
  ClassObject *generic = abstract("generic", {});
  ClassObject *number = abstract("number", {generic});
  ClassObject *integer = abstract("integer", {number});
  ClassObject *signedInt = abstract("signedinteger", {integer});
  ClassObject *unsignedInt = abstract("unsignedinteger", {integer});
  ClassObject *inexact = abstract("inexact", {number});
  ClassObject *floating = abstract("floating", {inexact});
  ClassObject *complexFloating = abstract("complexfloating", {inexact});
  ClassObject *flexible = abstract("flexible", {generic});
  ClassObject *character = abstract("character", {flexible});
  auto pyFloat = in.builtin("float").as<ClassObject>();
  auto pyComplex = in.builtin("complex").as<ClassObject>();
  for (const auto &i : kNumpyTypes) {
    std::vector<ClassObject *> bases;
    if (i.dtype == DType::Bool) bases = {generic};
    else if (ir::isUnsigned(i.dtype)) bases = {unsignedInt};
    else if (ir::isInteger(i.dtype)) bases = {signedInt};
    else if (i.dtype == DType::Float64) bases = {floating, pyFloat};
    else if (ir::isFloating(i.dtype)) bases = {floating};
    else if (i.dtype == DType::Complex128) bases = {complexFloating, pyComplex};  // as float64 is a float
    else if (i.dtype == DType::Complex64) bases = {complexFloating};
    else bases = {character};
    ClassObject *k = makeType(i.scalarName, bases);
    DType t = i.dtype;
    k->construct = [t](Interpreter &in, Args a, const Kwargs &) { return constructScalar(in, t, a); };
    scalarClasses[int(t)] = k;
  }
}

void forgetNumpyTypes(TfContext &c) {
  for (auto &k : c.numpyTypes)
    for (auto *&s : scalarClasses)
      if (s == k.get()) s = nullptr;
  for (auto &k : c.numpyTypes)
    std::erase_if(abstractClasses, [&](const auto &p) { return p.second == k.get(); });
}

}  // namespace tfs::runtime::tf
