// numpy's ufunc objects: np.add, np.sqrt & co. are instances of numpy.ufunc,
// callable as the functions they wrap (the np_math.cpp Def tables), with
// numpy's repr `<ufunc 'add'>`, the attributes __name__ / nin / nout /
// nargs / identity / signature, and the methods reduce, accumulate, outer,
// at and reduceat. The methods are written over the ufunc's own call in
// .tfs (lib/numpy/_np_ufunc.tfs), as bound methods of the object.
#include "lib/numpy/numpy_lib.h"
#include "lib/tf/tf_lib.h"

#include <cmath>
#include <fmt/format.h>

namespace tfs::runtime::tf::numpy {

namespace {

// numpy's identity of a binary ufunc (its reduction's start over an empty
// axis); None for the ones without (subtract, maximum, ...).
enum class Identity { None, Zero, One, MinusOne, True, False, MinusInf };

struct UfuncSpec {
  const char *attr;  // the numpy attribute (np.abs)
  const char *name;  // the ufunc's __name__ ('absolute')
  int nin;
  Identity identity;
};

constexpr UfuncSpec kUfuncs[] = {
    {"negative", "negative", 1, Identity::None}, {"positive", "positive", 1, Identity::None},
    {"absolute", "absolute", 1, Identity::None}, {"abs", "absolute", 1, Identity::None},
    {"fabs", "fabs", 1, Identity::None}, {"sign", "sign", 1, Identity::None}, {"sqrt", "sqrt", 1, Identity::None},
    {"square", "square", 1, Identity::None}, {"exp", "exp", 1, Identity::None}, {"exp2", "exp2", 1, Identity::None},
    {"expm1", "expm1", 1, Identity::None}, {"log", "log", 1, Identity::None}, {"log2", "log2", 1, Identity::None},
    {"log10", "log10", 1, Identity::None}, {"log1p", "log1p", 1, Identity::None}, {"sin", "sin", 1, Identity::None},
    {"cos", "cos", 1, Identity::None}, {"tan", "tan", 1, Identity::None}, {"arcsin", "arcsin", 1, Identity::None},
    {"arccos", "arccos", 1, Identity::None}, {"arctan", "arctan", 1, Identity::None},
    {"sinh", "sinh", 1, Identity::None}, {"cosh", "cosh", 1, Identity::None}, {"tanh", "tanh", 1, Identity::None},
    {"arcsinh", "arcsinh", 1, Identity::None}, {"arccosh", "arccosh", 1, Identity::None},
    {"arctanh", "arctanh", 1, Identity::None}, {"floor", "floor", 1, Identity::None},
    {"ceil", "ceil", 1, Identity::None}, {"trunc", "trunc", 1, Identity::None}, {"rint", "rint", 1, Identity::None},
    {"reciprocal", "reciprocal", 1, Identity::None}, {"cbrt", "cbrt", 1, Identity::None},
    {"deg2rad", "deg2rad", 1, Identity::None}, {"radians", "radians", 1, Identity::None},
    {"rad2deg", "rad2deg", 1, Identity::None}, {"degrees", "degrees", 1, Identity::None},
    {"isnan", "isnan", 1, Identity::None}, {"isinf", "isinf", 1, Identity::None},
    {"isfinite", "isfinite", 1, Identity::None}, {"signbit", "signbit", 1, Identity::None},
    {"logical_not", "logical_not", 1, Identity::None}, {"invert", "invert", 1, Identity::None},
    {"bitwise_not", "invert", 1, Identity::None}, {"conjugate", "conjugate", 1, Identity::None},
    {"conj", "conjugate", 1, Identity::None},
    {"add", "add", 2, Identity::Zero}, {"subtract", "subtract", 2, Identity::None},
    {"multiply", "multiply", 2, Identity::One}, {"divide", "divide", 2, Identity::None},
    {"true_divide", "divide", 2, Identity::None}, {"floor_divide", "floor_divide", 2, Identity::None},
    {"remainder", "remainder", 2, Identity::None}, {"mod", "remainder", 2, Identity::None},
    {"power", "power", 2, Identity::None}, {"maximum", "maximum", 2, Identity::None},
    {"minimum", "minimum", 2, Identity::None}, {"fmax", "fmax", 2, Identity::None},
    {"fmin", "fmin", 2, Identity::None}, {"equal", "equal", 2, Identity::None},
    {"not_equal", "not_equal", 2, Identity::None}, {"less", "less", 2, Identity::None},
    {"less_equal", "less_equal", 2, Identity::None}, {"greater", "greater", 2, Identity::None},
    {"greater_equal", "greater_equal", 2, Identity::None}, {"logical_and", "logical_and", 2, Identity::True},
    {"logical_or", "logical_or", 2, Identity::False}, {"logical_xor", "logical_xor", 2, Identity::False},
    {"arctan2", "arctan2", 2, Identity::None}, {"hypot", "hypot", 2, Identity::Zero},
    {"bitwise_and", "bitwise_and", 2, Identity::MinusOne}, {"bitwise_or", "bitwise_or", 2, Identity::Zero},
    {"bitwise_xor", "bitwise_xor", 2, Identity::Zero}, {"left_shift", "left_shift", 2, Identity::None},
    {"right_shift", "right_shift", 2, Identity::None}, {"copysign", "copysign", 2, Identity::None},
    {"logaddexp", "logaddexp", 2, Identity::MinusInf}, {"fmod", "fmod", 2, Identity::None},
    {"float_power", "float_power", 2, Identity::None},
};

Value identityValue(Identity id) {
  switch (id) {
  case Identity::Zero: return Value::integer(0);
  case Identity::One: return Value::integer(1);
  case Identity::MinusOne: return Value::integer(-1);
  case Identity::True: return Value::boolean(true);
  case Identity::False: return Value::boolean(false);
  case Identity::MinusInf: return Value::real(-INFINITY);
  case Identity::None: break;
  }
  return Value();
}

// numpy.ufunc, the class of every ufunc object (isinstance(np.add, np.ufunc));
// numpy makes no instances from Python.
Ref<ClassObject> &ufuncClass() {
  static Ref<ClassObject> k;
  return k;
}

struct UfuncObject;

// ufunc.reduce & co. bound to their ufunc: numpy's built-in method repr, the
// call going to the .tfs method with the ufunc first.
struct UfuncMethod final : Object {
  Ref<UfuncObject> ufunc;
  std::string method;
  UfuncMethod(Ref<UfuncObject> u, std::string m) : ufunc(std::move(u)), method(std::move(m)) {}
  const char *typeName() const override { return "builtin_function_or_method"; }
  std::optional<Value> call(Interpreter &in, Args a, const Kwargs &kw) override;
  std::optional<std::string> repr(Interpreter &) override {
    return fmt::format("<built-in method {} of numpy.ufunc object at {}>", method, static_cast<const void *>(ufunc.get()));
  }
  std::optional<Value> getAttr(Interpreter &in, const std::string &attr) override {
    if (attr == "__name__") return in.str(method);
    if (attr == "__call__") return Value(Ref<Object>(this));  // callable()
    return std::nullopt;
  }
};

struct UfuncObject final : Object {
  std::string name;
  Value fn;  // the numpy function (np_math.cpp's Def or a .tfs one, with numpy's signature)
  int nin, nout;
  Identity identity;
  UfuncObject(std::string n, Value f, int k, Identity id, int o = 1)
      : name(std::move(n)), fn(std::move(f)), nin(k), nout(o), identity(id) {}
  const char *typeName() const override { return "numpy.ufunc"; }
  ClassObject *cls() const override { return ufuncClass().get(); }
  std::optional<Value> call(Interpreter &in, Args a, const Kwargs &kw) override;
  std::optional<std::string> repr(Interpreter &) override { return fmt::format("<ufunc '{}'>", name); }
  std::optional<std::string> str(Interpreter &) override { return fmt::format("<ufunc '{}'>", name); }
  std::optional<Value> getAttr(Interpreter &in, const std::string &attr) override {
    if (attr == "__name__") return in.str(name);
    if (attr == "nin") return Value::integer(nin);
    if (attr == "nout") return Value::integer(nout);
    if (attr == "nargs") return Value::integer(nin + nout);
    if (attr == "identity") return identityValue(identity);
    if (attr == "signature") return Value();
    if (attr == "__call__") return fn;
    if (attr == "reduce" || attr == "accumulate" || attr == "outer" || attr == "at" || attr == "reduceat")
      return Value(make<UfuncMethod>(Ref<UfuncObject>(this), attr));
    return std::nullopt;
  }
};

// numpy's __array_ufunc__ protocol for a call: an operand whose class
// defines __array_ufunc__ (a pandas Series or DataFrame) computes the
// result, np.log(series) being a Series; the operands are asked in order
// and NotImplemented from all of them is numpy's TypeError.
std::optional<Value> UfuncObject::call(Interpreter &in, Args a, const Kwargs &kw) {
  bool any = false;
  for (const Value &x : a) {
    auto *inst = x.as<InstanceObject>();
    if (!inst || !inst->klass->lookup("__array_ufunc__")) continue;
    any = true;
    std::vector<Value> args{Value(Ref<Object>(this)), in.str("__call__")};
    args.insert(args.end(), a.begin(), a.end());
    Value r = in.call(in.getAttr(x, "__array_ufunc__"), Args(args), kw);
    if (!r.is(in.builtin("NotImplemented"))) return r;
  }
  if (any)
    in.raise("TypeError", fmt::format("operand type(s) all returned NotImplemented from __array_ufunc__(<ufunc '{}'>, "
                                      "'__call__', ...)", name));
  return in.call(fn, a, kw);
}

std::optional<Value> UfuncMethod::call(Interpreter &in, Args a, const Kwargs &kw) {
  Value fn = in.getAttr(importPreludeModule(in, "_np_ufunc"), method);
  std::vector<Value> args{Value(Ref<Object>(ufunc.get()))};
  args.insert(args.end(), a.begin(), a.end());
  return in.call(fn, args, kw);
}

// The ufuncs written in .tfs (lib/numpy/_np_elementwise.tfs).
struct PreludeUfunc {
  const char *name;
  int nin, nout;
  Identity identity;
};
constexpr PreludeUfunc kPreludeUfuncs[] = {
    {"divmod", 2, 2, Identity::None}, {"modf", 1, 2, Identity::None}, {"frexp", 1, 2, Identity::None},
    {"ldexp", 2, 1, Identity::None}, {"nextafter", 2, 1, Identity::None}, {"gcd", 2, 1, Identity::Zero},
    {"lcm", 2, 1, Identity::None}, {"heaviside", 2, 1, Identity::None},
};

}  // namespace

Value asUfunc(const std::string &name, const Value &fn) {
  for (const PreludeUfunc &p : kPreludeUfuncs)
    if (name == p.name) return Value(make<UfuncObject>(p.name, fn, p.nin, p.identity, p.nout));
  return fn;
}

void installUfuncObjects(Interpreter &in, ModuleObject &np) {
  auto k = make<ClassObject>();
  k->name = "ufunc";
  k->module = "numpy";
  auto *object = in.builtin("object").as<ClassObject>();
  k->bases = {Ref<ClassObject>(object)};
  k->mro = {k.get(), object};
  k->construct = [](Interpreter &in, Args, const Kwargs &) -> Value {
    in.raise("TypeError", "cannot create 'numpy.ufunc' instances");
  };
  ufuncClass() = k;
  np.scope->vars["ufunc"] = Value(Ref<Object>(k));
  for (const UfuncSpec &s : kUfuncs) {
    auto it = np.scope->vars.find(s.attr);
    if (it == np.scope->vars.end()) continue;
    Value fn = it->second;
    np.scope->vars[s.attr] = Value(make<UfuncObject>(s.name, fn, s.nin, s.identity));
  }
}

}  // namespace tfs::runtime::tf::numpy
