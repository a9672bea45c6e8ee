// The `numpy` module: the part of numpy 1.24 TensorFlow scripts use.
//
// Arrays are TensorObjects with numpy=true (ndarray.h); every function is
// declared with numpy's own parameter list (Def tables of the np_*.cpp
// files), so an unknown keyword is a TypeError and an argument tfs does not
// implement raises NotImplementedError instead of being ignored. This file
// assembles the module: the function tables, dtypes and scalar types,
// constants, numpy.linalg, numpy.random and numpy.testing, and registers the ndarray hooks
// the engine's tensor object calls.
#include "lib/numpy/ndarray_text.h"
#include "lib/numpy/numpy_lib.h"
#include "lib/numpy/object_array.h"
#include "lib/numpy/time_dispatch.h"
#include "lib/numpy/ufunc.h"
#include "runtime/tf/foreign_arrays.h"

#include <cmath>
#include <fmt/format.h>
#include <map>
#include <memory>
#include <set>

namespace tfs::runtime::tf::numpy {

namespace {

struct Entry {
  std::shared_ptr<Signature> sig;
  SignedFn fn;
  const Def *def;
};

const Defs &allDefs() {
  static const Defs defs = [] {
    Defs d;
    addCreationFunctions(d);
    addReductionFunctions(d);
    addShapeFunctions(d);
    addJoinFunctions(d);
    addMathFunctions(d);
    addSortFunctions(d);
    addPartitionFunctions(d);
    addLinalgFunctions(d);
    addTypeFunctions(d);
    addIoFunctions(d);
    addEinsumFunctions(d);
    addPadFunctions(d);
    addCorrelateFunctions(d);
    addObjectFunctions(d);
    addObjectCreation(d);
    addComplexFunctions(d);
    addFormatFloatFunctions(d);
    addMemoryOverlapFunctions(d);
    return d;
  }();
  return defs;
}

const std::map<std::string, Entry> &entries() {
  static const std::map<std::string, Entry> table = [] {
    std::map<std::string, Entry> t;
    for (const Def &d : allDefs()) {
      auto sig = std::make_shared<Signature>(d.signature);
      t[sig->name()] = {sig, d.fn, &d};
    }
    return t;
  }();
  return table;
}

// The arguments a numpy function's text result takes its kind from, and
// its `dtype=` argument (None when it has none).
std::vector<Value> boundSources(const Signature &sig, const Bound &b) {
  std::vector<Value> out;
  for (size_t i = 0; i < sig.params().size(); ++i)
    if (const Parameter &p = sig.params()[i]; p.name != "dtype" && !(p.dflt && p.dflt->as<StrObject>()))
      out.push_back(b[i]);  // not an option such as order='C'
  out.insert(out.end(), b.varArgs().begin(), b.varArgs().end());
  return out;
}
Value boundDType(const Signature &sig, const Bound &b) {
  for (size_t i = 0; i < sig.params().size(); ++i)
    if (sig.params()[i].name == "dtype") return b[i];
  return Value();
}

void defineAll(Interpreter &in, ModuleObject &m, const Defs &defs) {
  for (const Def &d : defs) {
    auto sig = std::make_shared<Signature>(d.signature);
    SignedFn fn = d.fn;
    NativeFn numeric = [sig, fn](Interpreter &in, Args a, const Kwargs &kw) {
      Bound b = sig->bind(in, a, kw);
      return finishText(in, fn(in, b), boundSources(*sig, b), boundDType(*sig, b));
    };
    m.scope->vars[sig->name()] = in.native(sig->name(), [sig, numeric](Interpreter &in, Args a, const Kwargs &kw) {
      if (std::optional<Value> r = callWithTimeArrays(in, *sig, a, kw)) return *r;
      if (std::optional<Value> r = callArraySubclassMethod(in, *sig, a, kw)) return *r;
      if (std::optional<Value> r = callWithObjectArrays(in, sig->name(), numeric, a, kw)) return *r;
      return numeric(in, a, kw);
    });
  }
}

// numpy reports a kernel's error (OpError) as numpy does: MemoryError,
// TypeError or ValueError.
void raiseNumpyErrors(ModuleObject &m) {
  for (auto &[name, v] : m.scope->vars) {
    auto *nf = v.as<NativeFunction>();
    if (!nf) continue;
    NativeFn inner = nf->fn;
    nf->fn = [inner](Interpreter &in, Args a, const Kwargs &kw) -> Value {
      try {
        return inner(in, a, kw);
      } catch (const ir::OpError &e) {
        in.raise(numpyErrorClass(e), e.message);
      }
    };
  }
}

std::optional<Value> objectAwareAttribute(Interpreter &in, TensorObject &a, const std::string &name);

std::optional<Value> hookGetAttr(Interpreter &in, TensorObject &a, const std::string &name) {
  if (isProtocolDunder(name)) return std::nullopt;  // the interpreter's (hasattr(a, "__len__") is True)
  if (name == "__call__") return std::nullopt;       // arrays and numpy scalars are not callable
  if (std::optional<Value> r = objectAwareAttribute(in, a, name)) return r;
  try {
    std::optional<Value> r = ndarrayAttribute(in, a, name);
    if (r && a.text.kind && ndarrayOf(*r)) r = finishText(in, *r, {Value(Ref<Object>(&a))});  // a.T, a.flat
    return r;
  } catch (const ir::OpError &e) {
    in.raise(numpyErrorClass(e), e.message);
  }
}
std::optional<Value> hookGetItem(Interpreter &in, TensorObject &a, const Value &key) {
  try {
    std::optional<Value> r = getItem(in, a, key);
    if (r && a.text.kind) r = finishText(in, *r, {Value(Ref<Object>(&a))});
    return r;
  } catch (const ir::OpError &e) {
    in.raise(numpyErrorClass(e), e.message);
  }
}
bool hookSetItem(Interpreter &in, TensorObject &a, const Value &key, const Value &v) {
  try {
    return setItem(in, a, key, fitText(in, a, v));
  } catch (const ir::OpError &e) {
    in.raise(numpyErrorClass(e), e.message);
  }
}
std::optional<Value> hookBinary(Interpreter &in, BinOp op, const Value &a, const Value &b) {
  if (objectArrayOf(a) || objectArrayOf(b)) return objectBinary(in, op, a, b);
  try {
    return ndarrayBinaryOp(in, op, a, b);
  } catch (const ir::OpError &e) {
    in.raise(numpyErrorClass(e), e.message);
  }
}
std::optional<Value> hookCompare(Interpreter &in, CmpOp op, const Value &a, const Value &b) {
  if (objectArrayOf(a) || objectArrayOf(b)) return objectCompare(in, op, a, b);
  try {
    return ndarrayCompare(in, op, a, b);
  } catch (const ir::OpError &e) {
    in.raise(numpyErrorClass(e), e.message);
  }
}
std::optional<Value> hookUnary(Interpreter &in, UnaryOp op, const Value &a) {
  try {
    return ndarrayUnaryOp(in, op, a);
  } catch (const ir::OpError &e) {
    in.raise(numpyErrorClass(e), e.message);
  }
}

// tf.constant / convert_to_tensor of an object array: TF makes a string
// tensor of one whose elements are all bytes or str, and refuses any other.
// An instance whose class defines __array__ (a pandas DataFrame or Series)
// converts through the array it returns, as TF's np.asarray fallback does.
std::optional<Value> objectArrayAsTensorSource(Interpreter &in, const Value &v) {
  if (auto *inst = v.as<InstanceObject>(); inst && inst->klass->lookup("__array__"))
    return in.call(in.getAttr(v, "__array__"), Args());
  ObjectArray *a = objectArrayOf(v);
  if (!a) return std::nullopt;
  if (a->size() == 0) in.raise("NotImplementedError", "converting an empty object array to a tf.Tensor is not supported by tfs");
  for (const Value &x : a->elements())
    if (!x.as<BytesObject>() && !x.as<StrObject>())
      in.raise("ValueError", fmt::format("Failed to convert a NumPy array to a Tensor (Unsupported object type {}).",
                                         in.typeName(x)));
  return objectToList(in, *a);
}

// a.astype(object) of a numeric or text array.
std::optional<Value> objectAwareAttribute(Interpreter &in, TensorObject &a, const std::string &name) {
  if (name != "astype") return std::nullopt;
  std::optional<Value> numeric = ndarrayAttribute(in, a, name);
  Ref<TensorObject> self(&a);
  Value fn = *numeric;
  return in.native(name, [self, fn](Interpreter &in, Args args, const Kwargs &kw) -> Value {
    const Value *dtype = args.empty() ? nullptr : &args[0];
    for (auto &[k, x] : kw)
      if (k == "dtype") dtype = &x;
    if (dtype && isObjectDType(*dtype)) return toObjectArray(in, Value(self));
    if (dtype && isTimeDType(*dtype))  // counts as datetime64 / timedelta64 (lib/numpy/_np_time_array.tfs)
      if (auto f = preludeApi(in, "_np_time_functions", "time_functions", "ndarray.astype"))
        return in.call(*f, std::vector<Value>{Value(self), *dtype});
    return in.call(fn, args, kw);
  });
}

// numpy 1.24's module __getattr__ for the aliases it removed: np.bool,
// np.int, np.float, np.complex, np.object and np.str raise AttributeError
// with numpy's long explanation (np.bool / np.str / np.object after a
// FutureWarning that they will come back as numpy scalars; np.long,
// np.ulong and np.bytes warn and are plain missing attributes). Old
// keras-io examples still spell np.bool.
void expiredAlias(Interpreter &in, const std::string &name) {
  static const std::map<std::string, std::string> extended = {
      {"object", ""},
      {"bool", "If you specifically wanted the numpy scalar type, use `np.bool_` here."},
      {"float", "If you specifically wanted the numpy scalar type, use `np.float64` here."},
      {"complex", "If you specifically wanted the numpy scalar type, use `np.complex128` here."},
      {"str", "If you specifically wanted the numpy scalar type, use `np.str_` here."},
      {"int", "When replacing `np.int`, you may wish to use e.g. `np.int64` or `np.int32` to specify the precision. "
              "If you wish to review your current use, check the release note link for additional information."}};
  static const std::set<std::string> futureScalars = {"bool", "long", "ulong", "str", "bytes", "object"};
  if (futureScalars.count(name)) {
    frontend::SourceSpan here = in.currentSpan();
    Value warnings = in.importModule("warnings");
    in.restoreSpan(here);
    std::vector<Value> args{in.str(fmt::format("In the future `np.{}` will be defined as the corresponding NumPy scalar.", name)),
                            in.builtins()->vars["FutureWarning"]};
    in.call(in.getAttr(warnings, "warn"), args);
    in.restoreSpan(here);
  }
  auto it = extended.find(name);
  if (it == extended.end()) return;
  in.raise("AttributeError",
           fmt::format("module 'numpy' has no attribute '{0}'.\n`np.{0}` was a deprecated alias for the builtin `{0}`. "
                       "To avoid this error in existing code, use `{0}` by itself. Doing this will not modify any "
                       "behavior and is safe. {1}\nThe aliases was originally deprecated in NumPy 1.20; for more details "
                       "and guidance see the original release note at:\n    "
                       "https://numpy.org/devdocs/release/1.20.0-notes.html#deprecations",
                       name, it->second));
}

// numpy.polynomial: the power series (numpy.polynomial.polynomial and the
// Polynomial class, lib/numpy/_np_polynomial*.tfs) and polyutils' helpers;
// numpy's other bases are names the public-name tables report.
Value polynomialModule(Interpreter &in) {
  auto submodule = [&](const char *name, const char *table) {
    auto m = make<ModuleObject>(name);
    m->lazy = [table](Interpreter &in, const std::string &n) -> std::optional<Value> {
      if (auto v = preludeApi(in, "_np_polynomial", table, n)) return v;
      return preludeApi(in, "_np_polynomial_class", "polynomial_api", n);
    };
    return m;
  };
  auto poly = make<ModuleObject>("numpy.polynomial");
  poly->scope->vars["polynomial"] = Value(submodule("numpy.polynomial.polynomial", "polynomial_functions"));
  poly->scope->vars["polyutils"] = Value(submodule("numpy.polynomial.polyutils", "polyutils_functions"));
  poly->lazy = [](Interpreter &in, const std::string &n) {
    return preludeApi(in, "_np_polynomial_class", "polynomial_api", n);
  };
  return Value(poly);
}

}  // namespace

const Def *findFunction(const std::string &name) {
  auto it = entries().find(name);
  return it == entries().end() ? nullptr : it->second.def;
}

void registerNdarrayHooks() {
  NdarrayHooks h;
  h.getAttr = hookGetAttr;
  h.getItem = hookGetItem;
  h.setItem = hookSetItem;
  h.binary = hookBinary;
  h.compare = hookCompare;
  h.unary = hookUnary;
  setNdarrayHooks(h);
  registerNdarraySetAttr();
  setForeignArrayConversion(objectArrayAsTensorSource);
}

// np.ndarray(shape, dtype=float): numpy's low-level constructor (zeros, as
// np.empty is in tfs). Without arguments it makes the built-in part of an
// instance of a .tfs subclass of np.ndarray (np.ma.MaskedArray, datetime
// arrays), which keep their elements in attributes of their own.
static Value constructNdarray(Interpreter &in, Args a, const Kwargs &kw) {
  static const Signature sig("ndarray(shape=None, dtype=None, buffer=!None, offset=!0, strides=!None, order=None)");
  Bound b = sig.bind(in, a, kw);
  if (!b.given("shape")) {
    if (a.empty() && kw.empty()) return newArray(Tensor::empty(DType::Float64, {0}));
    in.raise("TypeError", "ndarray() missing required argument 'shape' (pos 1)");
  }
  std::vector<Value> args{b["shape"], b.isNone("dtype") ? in.builtin("float") : b["dtype"]};
  static const Signature zeros(findFunction("zeros")->signature);
  return findFunction("zeros")->fn(in, zeros.bind(in, Args(args), {}));
}

Value makeNumpyModule(Interpreter &in) {
  auto np = make<ModuleObject>("numpy");
  installTensorClasses(in);
  ndarrayClass->construct = constructNdarray;
  axisErrorClass(in);
  defineAll(in, *np, allDefs());
  installTypes(in, *np);
  np->scope->vars["ndarray"] = Value(Ref<Object>(ndarrayClass));
  np->scope->vars["AxisError"] = Value(axisErrorClass(in));
  installComplexNames(in, *np);
  np->scope->vars["pi"] = Value::real(M_PI);
  np->scope->vars["e"] = Value::real(M_E);
  np->scope->vars["euler_gamma"] = Value::real(0.57721566490153286060);
  for (const char *n : {"inf", "Inf", "infty", "PINF"}) np->scope->vars[n] = Value::real(INFINITY);
  np->scope->vars["NINF"] = Value::real(-INFINITY);
  for (const char *n : {"nan", "NaN", "NAN"}) np->scope->vars[n] = Value::real(NAN);
  np->scope->vars["newaxis"] = Value();
  installPrintOptions(in, *np);
  installErrState(in, *np);

  auto linalg = make<ModuleObject>("numpy.linalg");
  defineAll(in, *linalg, linalgModuleFunctions());
  linalg->scope->vars["LinAlgError"] = Value(numpyLinAlgError(in));
  // numpy's Python-level linalg functions (cond, multi_dot, tensorsolve,
  // tensorinv): lib/numpy/_np_linalg.tfs.
  linalg->lazy = [](Interpreter &in, const std::string &n) { return preludeApi(in, "_np_linalg", "linalg_api", n); };
  np->scope->vars["linalg"] = linalg;

  auto random = make<ModuleObject>("numpy.random");
  np->scope->vars["random"] = random;
  installNumpyRandom(in, *random);
  installRandomGenerator(in, *random);

  auto fft = make<ModuleObject>("numpy.fft");
  defineAll(in, *fft, fftModuleFunctions());
  fft->lazy = [](Interpreter &in, const std::string &n) { return preludeApi(in, "_np_fft", "fft_api", n); };
  np->scope->vars["fft"] = fft;

  Value chars = makeCharModule(in);
  np->scope->vars["char"] = chars;

  // Functions numpy writes in Python, written in .tfs (lib/numpy/_np_extra.tfs).
  // numpy.testing's assertions are .tfs too (lib/numpy/_np_testing.tfs); the
  // submodule is made on first use so scripts that never touch it do not
  // parse it. `import numpy.testing` reaches it through this attribute.
  np->lazy = [](Interpreter &in, const std::string &name) -> std::optional<Value> {
    if (name == "testing") {
      auto testing = make<ModuleObject>("numpy.testing");
      testing->lazy = [](Interpreter &in, const std::string &n) {
        return preludeApi(in, "_np_testing", "testing_api", n);
      };
      return Value(testing);
    }
    if (name == "polynomial") return polynomialModule(in);
    if (name == "ma") {  // numpy.ma: lib/numpy/_np_ma.tfs
      auto ma = make<ModuleObject>("numpy.ma");
      ma->lazy = [](Interpreter &in, const std::string &n) { return preludeApi(in, "_np_ma", "ma_api", n); };
      return Value(ma);
    }
    if (name == "emath") {  // numpy.emath: lib/numpy/_np_emath.tfs
      auto emath = make<ModuleObject>("numpy.emath");
      emath->lazy = [](Interpreter &in, const std::string &n) { return preludeApi(in, "_np_emath", "emath_api", n); };
      return Value(emath);
    }
    if (auto v = preludeApi(in, "_np_extra", "numpy_api", name)) return v;
    // More of numpy's Python-level functions, one .tfs file per job.
    for (const char *module : {"_np_elementwise", "_np_select", "_np_bits", "_np_poly", "_np_index_tricks", "_np_misc",
                               "_np_more", "_np_concatenator", "_np_time_functions", "_np_datetime", "_np_nditer", "_np_rawfile"})
      if (auto v = preludeApi(in, module, "numpy_api", name)) return asUfunc(name, *v);
    expiredAlias(in, name);
    return std::nullopt;
  };
  raiseNumpyErrors(*np);
  installUfuncObjects(in, *np);  // after: the objects wrap the error-translating functions
  raiseNumpyErrors(*chars.as<ModuleObject>());
  raiseNumpyErrors(*linalg);
  raiseNumpyErrors(*fft);
  raiseNumpyErrors(*random);
  return np;
}

}  // namespace tfs::runtime::tf::numpy

namespace tfs::runtime::tf {
Value makeNumpyModule(Interpreter &in) { return numpy::makeNumpyModule(in); }
}  // namespace tfs::runtime::tf
