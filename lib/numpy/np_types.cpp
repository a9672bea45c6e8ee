// numpy's type objects in the module: the scalar types (np.float32, ...,
// classes made per run by the engine), np.dtype(...), np.finfo / np.iinfo,
// and the type functions (issubdtype, result_type, promote_types, can_cast,
// isscalar).
#include "lib/numpy/ndarray_text.h"
#include "lib/numpy/numpy_lib.h"
#include "lib/numpy/object_array.h"
#include "lib/numpy/time_dispatch.h"

#include <cmath>
#include <fmt/format.h>
#include <limits>

namespace tfs::runtime::tf::numpy {

namespace {

// np.finfo(...) / np.iinfo(...): numpy's machine limits, attributes and repr.
struct InfoObject : Object {
  std::string text;     // repr
  std::string summary;  // str: numpy's "Machine parameters for ..." table
  std::vector<std::pair<std::string, Value>> attrs;
  std::pair<std::string, std::string> unsupported;  // an attribute tfs cannot give, and why
  const char *kind;
  explicit InfoObject(const char *k) : kind(k) {}
  const char *typeName() const override { return kind; }
  std::optional<Value> getAttr(Interpreter &in, const std::string &name) override {
    if (name == unsupported.first) in.raise("NotImplementedError", unsupported.second);
    for (auto &[k, v] : attrs)
      if (k == name) return v;
    return std::nullopt;
  }
  std::optional<std::string> repr(Interpreter &) override { return text; }
  std::optional<std::string> str(Interpreter &) override { return summary; }
};

constexpr const char *kRule = "---------------------------------------------------------------\n";

DType typeArg(Interpreter &in, const Value &v) {
  if (TensorObject *a = ndarrayOf(v)) return a->eager.dtype();
  if (auto d = dtypeParam(in, v)) return *d;
  in.raise("TypeError", fmt::format("data type {} not understood", in.repr(v)));
}

Value scalarOf(DType d, double v) { return wrap(Tensor::fromDoubles(d, {}, {v}), true); }

Value finfo(Interpreter &in, const Bound &b) {
  DType d = typeArg(in, b["dtype"]);
  if (ir::isInteger(d) || d == DType::Bool)
    in.raise("ValueError", fmt::format("data type <class 'numpy.{}'> not inexact", numpyDTypeName(d)));
  auto o = make<InfoObject>("finfo");
  struct Limits {
    double eps, max, tiny, resolution;
    int64_t precision, bits;
    const char *text;
    const char *table;  // the rows of numpy's str() between its rules
  };
  static const Limits f16{0.0009765625, 65504.0, 6.103515625e-05, 1e-3, 3, 16,
                          "finfo(resolution=0.001, min=-6.55040e+04, max=6.55040e+04, dtype=float16)",
                          "precision =   3   resolution = 1.00040e-03\nmachep =    -10   eps =        9.76562e-04\n"
                          "negep =     -11   epsneg =     4.88281e-04\nminexp =    -14   tiny =       6.10352e-05\n"
                          "maxexp =     16   max =        6.55040e+04\nnexp =        5   min =        -max\n"
                          "smallest_normal = 6.10352e-05   smallest_subnormal = 5.96046e-08\n"};
  static const Limits f32{double(std::numeric_limits<float>::epsilon()), double(std::numeric_limits<float>::max()),
                          double(std::numeric_limits<float>::min()), 1e-6, 6, 32,
                          "finfo(resolution=1e-06, min=-3.4028235e+38, max=3.4028235e+38, dtype=float32)",
                          "precision =   6   resolution = 1.0000000e-06\nmachep =    -23   eps =        1.1920929e-07\n"
                          "negep =     -24   epsneg =     5.9604645e-08\nminexp =   -126   tiny =       1.1754944e-38\n"
                          "maxexp =    128   max =        3.4028235e+38\nnexp =        8   min =        -max\n"
                          "smallest_normal = 1.1754944e-38   smallest_subnormal = 1.4012985e-45\n"};
  static const Limits f64{std::numeric_limits<double>::epsilon(), std::numeric_limits<double>::max(),
                          std::numeric_limits<double>::min(), 1e-15, 15, 64,
                          "finfo(resolution=1e-15, min=-1.7976931348623157e+308, max=1.7976931348623157e+308, "
                          "dtype=float64)",
                          "precision =  15   resolution = 1.0000000000000001e-15\n"
                          "machep =    -52   eps =        2.2204460492503131e-16\n"
                          "negep =     -53   epsneg =     1.1102230246251565e-16\n"
                          "minexp =  -1022   tiny =       2.2250738585072014e-308\n"
                          "maxexp =   1024   max =        1.7976931348623157e+308\n"
                          "nexp =       11   min =        -max\n"
                          "smallest_normal = 2.2250738585072014e-308   smallest_subnormal = 4.9406564584124654e-324\n"};
  const Limits &l = d == DType::Float16 ? f16 : d == DType::Float32 ? f32 : f64;
  o->attrs = {{"eps", scalarOf(d, l.eps)},         {"max", scalarOf(d, l.max)},
              {"min", scalarOf(d, -l.max)},        {"tiny", scalarOf(d, l.tiny)},
              {"smallest_normal", scalarOf(d, l.tiny)},
              {"resolution", scalarOf(d, l.resolution)},
              {"precision", Value::integer(l.precision)},
              {"bits", Value::integer(l.bits)},
              {"dtype", numpyDTypeValue(d)}};
  o->text = l.text;
  o->summary = fmt::format("Machine parameters for {}\n{}{}{}", numpyDTypeName(d), kRule, l.table, kRule);
  return Value(o);
}

Value iinfo(Interpreter &in, const Bound &b) {
  DType d = typeArg(in, b["int_type"]);
  if (!ir::isInteger(d)) in.raise("ValueError", fmt::format("Invalid integer data type '{}'.", d == DType::Bool ? "b" : "f"));
  auto o = make<InfoObject>("iinfo");
  int64_t bits = int64_t(ir::dtypeSize(d)) * 8;
  bool isUnsigned = ir::isUnsigned(d);
  int64_t lo = isUnsigned ? 0 : bits == 64 ? INT64_MIN : -(int64_t(1) << (bits - 1));
  int64_t hi = bits == 64 ? INT64_MAX : isUnsigned ? (int64_t(1) << bits) - 1 : (int64_t(1) << (bits - 1)) - 1;
  o->attrs = {{"min", Value::integer(lo)}, {"bits", Value::integer(bits)}, {"dtype", numpyDTypeValue(d)}};
  // 2**64 - 1 is past tfs's 64-bit ints: uint64's max is named, not wrapped.
  if (d != DType::UInt64) o->attrs.push_back({"max", Value::integer(hi)});
  else o->unsupported = {"max", "np.iinfo(np.uint64).max (2**64 - 1) is not supported by tfs (tfs ints are 64-bit)"};
  o->text = fmt::format("iinfo(min={}, max={}, dtype={})", lo, d == DType::UInt64 ? "18446744073709551615" : std::to_string(hi),
                        numpyDTypeName(d));
  o->summary = fmt::format("Machine parameters for {}\n{}min = {}\nmax = {}\n{}", numpyDTypeName(d), kRule, lo,
                           d == DType::UInt64 ? "18446744073709551615" : std::to_string(hi), kRule);
  return Value(o);
}

// The abstract class a type argument names (np.floating ...), if any.
ClassObject *abstractOf(const Value &v) {
  auto *c = v.as<ClassObject>();
  if (!c || c->module != "numpy") return nullptr;
  for (const char *n : {"generic", "number", "integer", "signedinteger", "unsignedinteger", "inexact", "floating",
                        "flexible", "character"})
    if (numpyAbstractClass(n) == c) return c;
  return nullptr;
}

Value issubdtype(Interpreter &in, const Bound &b) {
  DType d = typeArg(in, b["arg1"]);
  ClassObject *own = numpyScalarClass(d);
  if (ClassObject *abs2 = abstractOf(b["arg2"])) return Value::boolean(own && own->isSubclassOf(abs2));
  if (auto *c = b["arg2"].as<ClassObject>(); c && c->module.empty()) {
    // Python's types stand for numpy's abstract kinds here.
    if (c->name == "float") return Value::boolean(ir::isFloating(d));
    if (c->name == "int") return Value::boolean(ir::isInteger(d));
    if (c->name == "bool") return Value::boolean(d == DType::Bool);
  }
  return Value::boolean(d == typeArg(in, b["arg2"]));
}

// np.object_: the scalar type of object arrays; np.object_(x) is x itself.
Ref<ClassObject> objectType(Interpreter &in) {
  auto k = make<ClassObject>();
  k->name = "object_";
  k->module = "numpy";
  auto *pyObject = in.builtin("object").as<ClassObject>();
  k->bases = {Ref<ClassObject>(numpyAbstractClass("generic"))};
  k->mro = {k.get(), numpyAbstractClass("generic"), pyObject};
  k->construct = [](Interpreter &, Args a, const Kwargs &) -> Value { return a.empty() ? Value() : a[0]; };
  return k;
}

// np.str_: numpy's str scalar type, a subclass of Python's str; np.str_(x)
// is str(x) (tfs hands out Python str for the elements of '<U' arrays).
Ref<ClassObject> strType(Interpreter &in) {
  auto k = make<ClassObject>();
  k->name = "str_";
  k->module = "numpy";
  auto *pyStr = in.builtin("str").as<ClassObject>();
  k->bases = {Ref<ClassObject>(numpyAbstractClass("character")), Ref<ClassObject>(pyStr)};
  k->mro.push_back(k.get());
  for (const char *n : {"character", "flexible", "generic"}) k->mro.push_back(numpyAbstractClass(n));
  for (ClassObject *m : pyStr->mro) k->mro.push_back(m);
  k->construct = [](Interpreter &in, Args a, const Kwargs &) -> Value {
    return a.empty() ? in.str(std::string()) : in.str(in.str(a[0]));
  };
  return k;
}

}  // namespace

void installTypes(Interpreter &in, ModuleObject &np) {
  auto &vars = np.scope->vars;
  for (int t = 0; t < ir::kNumDTypes; ++t)
    if (ClassObject *c = numpySupportsDType(DType(t)) ? numpyScalarClass(DType(t)) : nullptr)
      vars[c->name] = Value(Ref<Object>(c));
  auto alias = [&](const char *name, DType d) { vars[name] = Value(Ref<Object>(numpyScalarClass(d))); };
  alias("bool8", DType::Bool);
  alias("float_", DType::Float64);
  alias("double", DType::Float64);
  alias("single", DType::Float32);
  alias("int_", DType::Int64);
  alias("intp", DType::Int64);
  alias("intc", DType::Int32);
  alias("longlong", DType::Int64);
  alias("string_", DType::String);
  alias("byte", DType::Int8);
  alias("short", DType::Int16);
  alias("ubyte", DType::UInt8);
  alias("ushort", DType::UInt16);
  alias("uintc", DType::UInt32);
  alias("uint", DType::UInt64);
  alias("uintp", DType::UInt64);
  alias("ulonglong", DType::UInt64);
  alias("half", DType::Float16);
  alias("complex_", DType::Complex128);
  alias("cfloat", DType::Complex128);
  alias("cdouble", DType::Complex128);
  alias("csingle", DType::Complex64);
  vars["str_"] = Value(strType(in));
  vars["object_"] = Value(objectType(in));
  for (const char *n : {"generic", "number", "integer", "signedinteger", "unsignedinteger", "inexact", "floating",
                        "flexible", "character"})
    vars[n] = Value(Ref<Object>(numpyAbstractClass(n)));
  // np.True_ / np.False_: the numpy bool scalars.
  for (bool b : {true, false}) {
    Tensor t = Tensor::empty(DType::Bool, {});
    t.data<bool>()[0] = b;
    vars[b ? "True_" : "False_"] = scalarOrArray(t);
  }
  vars["dtype"] = nativeWithSignature(in, "dtype(dtype, align=!False, copy=!False)", [](Interpreter &in, const Bound &b) {
    if (auto *d = b["dtype"].as<NumpyDTypeObject>()) return Value(Ref<Object>(d));
    if (isObjectDType(b["dtype"])) return objectDTypeValue();
    if (auto text = textDTypeParam(in, b["dtype"])) return textDTypeValue(*text);
    if (isTimeDType(b["dtype"]))  // dtype('<M8[D]'): lib/numpy/_np_time_array.tfs
      if (auto f = preludeApi(in, "_np_time_functions", "time_functions", "dtype"))
        return in.call(*f, std::vector<Value>{b["dtype"]});
    return numpyDTypeValue(typeArg(in, b["dtype"]));
  });
}

void addTypeFunctions(Defs &defs) {
  auto add = [&](const char *sig, SignedFn fn) { defs.push_back({sig, std::move(fn)}); };
  add("finfo(dtype)", finfo);
  add("iinfo(int_type)", iinfo);
  add("issubdtype(arg1, arg2)", issubdtype);
  add("result_type(*arrays_and_dtypes)", [](Interpreter &in, const Bound &b) {
    std::vector<Value> ops;
    for (const Value &v : b.varArgs()) {
      if (v.as<ClassObject>() || v.as<NumpyDTypeObject>() || v.as<StrObject>())
        ops.push_back(newArray(Tensor::empty(typeArg(in, v), {0})));
      else ops.push_back(v);
    }
    if (ops.empty()) in.raise("ValueError", "at least one array or dtype is required");
    return numpyDTypeValue(resultType(in, ops));
  });
  add("promote_types(type1, type2)", [](Interpreter &in, const Bound &b) {
    return numpyDTypeValue(promoteTypes(typeArg(in, b["type1"]), typeArg(in, b["type2"])));
  });
  add("can_cast(from_, to, casting='safe')", [](Interpreter &in, const Bound &b) {
    DType f = typeArg(in, b["from_"]), t = typeArg(in, b["to"]);
    std::string casting = in.str(b["casting"]);
    if (casting == "unsafe") return Value::boolean(true);
    if (casting == "same_kind") return Value::boolean(canCastSameKind(f, t));
    if (casting == "no" || casting == "equiv") return Value::boolean(f == t);
    return Value::boolean(canCastSafe(f, t));
  });
  add("isscalar(element)", [](Interpreter &in, const Bound &b) {
    const Value &v = b["element"];
    if (v.isInt() || v.isFloat() || v.isBool() || v.as<StrObject>() || v.as<BytesObject>()) return Value::boolean(true);
    auto *t = v.as<TensorObject>();
    return Value::boolean(t && t->numpy && !t->symbolic() && t->eager.rank() == 0 && !t->zeroDimArray);
  });
}

}  // namespace tfs::runtime::tf::numpy
