// Built-in functions and types: print, input, len, range, the numeric and
// container constructors, isinstance, sorted, min/max/sum, zip/enumerate,
// property/staticmethod/classmethod, super, the exception hierarchy.
#include "runtime/interp/unicode_digits.h"
#include "runtime/interp/unicode_text.h"
#include "runtime/interp/builtins.h"
#include "runtime/interp/complex_object.h"
#include "runtime/interp/big_int.h"
#include "runtime/interp/big_range.h"
#include "runtime/interp/instance_setattr.h"
#include "runtime/interp/int_literal.h"
#include "runtime/interp/keyword_rules.h"
#include "runtime/interp/str_translate.h"
#include "runtime/interp/codecs.h"
#include "runtime/interp/generator.h"
#include "runtime/interp/pyformat.h"
#include "runtime/interp/set_ops.h"
#include "runtime/interp/signature.h"
#include "runtime/interp/suggestions.h"
#include "runtime/interp/zip_builtin.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fmt/format.h>
#include <set>
#include <iostream>

namespace tfs::runtime {

bool isNonRealBuiltin(Interpreter &in, const Value &v) {
  static const char *const types[] = {"str", "bytes", "bytearray", "NoneType", "list", "tuple", "dict", "set",
                                      "frozenset", "range", "slice", "complex"};
  if (v.isInt() || v.isFloat() || v.isBool()) return false;
  std::string t = in.typeName(v);
  for (const char *x : types)
    if (t == x) return true;
  return false;
}

namespace {

Value kwarg(const Kwargs &kw, const std::string &name, Value dflt = Value()) {
  for (const auto &[k, v] : kw)
    if (k == name) return v;
  return dflt;
}

void noKwargs(Interpreter &in, std::string_view fn, const Kwargs &kw) {
  if (!kw.empty()) in.raise("TypeError", fmt::format("{}() takes no keyword arguments", fn));
}

// `fn` a view: callers pass literals, and a std::string parameter built one per call.
void needArgs(Interpreter &in, std::string_view fn, Args a, size_t lo, size_t hi) {
  if (a.size() < lo || a.size() > hi) {
    if (lo == hi)
      in.raise("TypeError", fmt::format("{}() takes exactly {} argument{} ({} given)", fn, lo, lo == 1 ? "" : "s", a.size()));
    if (a.size() < lo) in.raise("TypeError", fmt::format("{} expected at least {} argument{}, got {}", fn, lo, lo == 1 ? "" : "s", a.size()));
    in.raise("TypeError", fmt::format("{} expected at most {} argument{}, got {}", fn, hi, hi == 1 ? "" : "s", a.size()));
  }
}

// The attribute, or nullopt when it is absent or its lookup raised
// AttributeError (hasattr / getattr-with-default's rule).
std::optional<Value> attrOrAbsent(Interpreter &in, const Value &obj, const std::string &name) {
  try {
    return in.getAttrOpt(obj, name);
  } catch (PyException &e) {
    if (in.isInstance(e.exc, in.exceptionClass("AttributeError").get())) return std::nullopt;
    throw;
  }
}

// The Ellipsis singleton (`...`), of CPython's type `ellipsis`: an index
// item of numpy arrays and tensors (x[..., 0]), equal only to itself.
struct EllipsisObject final : Object {
  const char *typeName() const override { return "ellipsis"; }
  std::optional<std::string> repr(Interpreter &) override { return "Ellipsis"; }
};

// The NotImplemented singleton, of CPython's type `NotImplementedType`: what
// binary dunders return to hand the operation to the reflected operand.
struct NotImplementedObject final : Object {
  const char *typeName() const override { return "NotImplementedType"; }
  std::optional<std::string> repr(Interpreter &) override { return "NotImplemented"; }
};

struct EnumerateIter : Object {
  Value it;
  int64_t i = 0;
  Value bigCount;  // the next count once it is past INT64_MAX (None until then)
  const char *typeName() const override { return "enumerate"; }
  std::optional<Value> iter(Interpreter &) override { return Value(Ref<Object>(this)); }
  std::optional<Value> next(Interpreter &in) override {
    auto v = in.next(it);
    if (!v) return std::nullopt;
    if (!bigCount.isNone()) {
      Value n = bigCount;
      bigCount = intBinary(in, BinOp::Add, n, Value::integer(1));
      return in.tuple({n, *v});
    }
    int64_t n = i;
    if (__builtin_add_overflow(i, 1, &i)) bigCount = intBinary(in, BinOp::Add, Value::integer(n), Value::integer(1));
    return in.tuple({Value::integer(n), *v});
  }
};
struct MapIter : Object {
  Value fn;
  std::vector<Value> its;
  bool filter = false;
  const char *typeName() const override { return filter ? "filter" : "map"; }
  std::optional<Value> iter(Interpreter &) override { return Value(Ref<Object>(this)); }
  std::optional<Value> next(Interpreter &in) override {
    for (;;) {
      std::vector<Value> row;
      for (auto &it : its) {
        auto v = in.next(it);
        if (!v) return std::nullopt;
        row.push_back(*v);
      }
      if (!filter) return in.call(fn, row);
      bool keep = fn.isNone() ? in.truth(row[0]) : in.truth(in.call(fn, row));
      if (keep) return row[0];
    }
  }
};

void sortValues(Interpreter &in, std::vector<Value> &items, const Value &key, bool reverse) {
  std::vector<Value> keys = items;
  if (!key.isNone())
    for (auto &k : keys) {
      Value a[] = {k};
      k = in.call(key, a);
    }
  std::vector<size_t> idx(items.size());
  for (size_t i = 0; i < idx.size(); ++i) idx[i] = i;
  std::stable_sort(idx.begin(), idx.end(), [&](size_t a, size_t b) {
    return reverse ? in.truth(in.compare(CmpOp::Lt, keys[b], keys[a])) : in.truth(in.compare(CmpOp::Lt, keys[a], keys[b]));
  });
  std::vector<Value> out;
  for (size_t i : idx) out.push_back(items[i]);
  items = std::move(out);
}

Value minMax(Interpreter &in, Args a, const Kwargs &kw, bool isMax) {
  const char *name = isMax ? "max" : "min";
  std::vector<Value> items = a.size() == 1 ? in.toList(a[0]) : std::vector<Value>(a.begin(), a.end());
  Value key = kwarg(kw, "key");
  if (items.empty()) {
    for (const auto &[k, v] : kw) if (k == "default") return v;
    in.raise("ValueError", fmt::format("{}() arg is an empty sequence", name));
  }
  Value best = items[0], bestKey = key.isNone() ? best : in.call(key, std::vector<Value>{best});
  for (size_t i = 1; i < items.size(); ++i) {
    Value k = key.isNone() ? items[i] : in.call(key, std::vector<Value>{items[i]});
    if (in.truth(in.compare(isMax ? CmpOp::Gt : CmpOp::Lt, k, bestKey))) {
      best = items[i];
      bestKey = k;
    }
  }
  return best;
}

Ref<ClassObject> builtinType(Scope &b, const std::string &name, NativeFn ctor) {
  auto c = make<ClassObject>();
  c->name = name;
  c->construct = std::move(ctor);
  c->mro.push_back(c.get());
  b.vars[name] = c;
  return c;
}

}  // namespace

// hex() / oct() / bin(): the sign, the prefix and the digits of operator.index(x).
static std::string prefixedDigits(Interpreter &in, const Value &x, int base, const char *prefix) {
  Value v = isIntValue(x) ? x : Value::integer(in.toIndex(x));
  bool negative;
  std::string digits = intMagnitudeDigits(in, v, base, negative);
  return (negative ? "-" : "") + std::string(prefix) + digits;
}

// round(float[, ndigits]) with CPython's limits: no ndigits gives an int,
// ndigits beyond what a double can hold returns x itself (above 323) or a
// signed zero (below -308), so no huge decimal string is ever formatted.
static Value roundFloat(Interpreter &in, double x, const Value &nd) {
  if (nd.isNone()) {
    return intOf(in, Value::real(std::nearbyint(x)));  // int()'s NaN/inf errors
  }
  if (auto *big = nd.as<BigIntObject>())  // ndigits past 64 bits: past every double's digits
    return Value::real(big->v > 0 || !std::isfinite(x) ? x : std::copysign(0.0, x));
  int64_t n = in.toInt(nd);
  if (!std::isfinite(x) || x == 0 || n > 323) return Value::real(x);
  if (n < -308) return Value::real(std::copysign(0.0, x));
  if (n < 0) {
    // Round half to even at a power of ten above the units.
    double p = std::pow(10.0, double(-n));
    double y = x / p, r = std::nearbyint(y);
    if (std::fabs(y - std::trunc(y)) != 0.5) r = std::round(y);
    double v = r * p;
    if (std::isinf(v)) in.raise("OverflowError", "rounded value too large to represent");
    return Value::real(v);
  }
  // Correctly rounded decimal rounding via the shortest repr of the scaled value.
  std::string s = fmt::format("{:.{}f}", x, n);
  return Value::real(std::strtod(s.c_str(), nullptr));
}

// pow(base, exp, mod) with CPython's rules: integers only (the arithmetic:
// intPowMod).
static Value modularPow(Interpreter &in, const Value &b, const Value &x, const Value &mod) {
  // A class's __pow__(exp, mod) (only the left operand's: CPython tries no
  // reflected three-argument pow).
  if (auto *inst = b.as<InstanceObject>())
    if (auto m = inst->klass->lookup("__pow__")) {
      Value args[] = {x, mod};
      Value r = in.call(Value(make<BoundMethod>(b, *m)), args);
      if (!r.is(in.builtin("NotImplemented"))) return r;
    }
  if (b.as<ComplexObject>() || x.as<ComplexObject>()) in.raise("ValueError", "complex modulo");
  if (!isIntValue(b) || !isIntValue(x) || !isIntValue(mod)) {
    auto isNumber = [&](const Value &v) { return isIntValue(v) || v.isFloat(); };
    if (isNumber(b) && isNumber(x) && isNumber(mod))
      in.raise("TypeError", "pow() 3rd argument not allowed unless all arguments are integers");
    in.raise("TypeError", fmt::format("unsupported operand type(s) for ** or pow(): '{}', '{}', '{}'",
                                      in.typeName(b), in.typeName(x), in.typeName(mod)));
  }
  return intPowMod(in, b, x, mod);
}

void installBuiltinFunctions(Interpreter &in, Scope &b) {
  // Every builtin refuses the keywords CPython's does not take (keyword_rules.h).
  auto checked = [](const std::string &name, NativeFn fn) -> NativeFn {
    return [name, arity = builtinArity(name), fn = std::move(fn)](Interpreter &in, Args a, const Kwargs &kw) {
      checkBuiltinKeywords(in, name, kw);
      if (arity) checkBuiltinArity(in, *arity, a.size(), kw.size());
      return fn(in, a, kw);
    };
  };
  auto def = [&](const std::string &name, NativeFn fn) { b.vars[name] = in.native(name, checked(name, std::move(fn))); };

  // --- types -------------------------------------------------------------
  auto object = builtinType(b, "object", [](Interpreter &in, Args a, const Kwargs &kw) -> Value {
    if (!a.empty() || !kw.empty()) in.raise("TypeError", "object() takes no arguments");
    auto c = in.builtin("object").as<ClassObject>();
    return make<InstanceObject>(Ref<ClassObject>(c));
  });
  auto addType = [&](const std::string &name, NativeFn ctor) {
    auto c = builtinType(b, name, checked(name, std::move(ctor)));
    c->bases.push_back(object);
    c->mro.push_back(object.get());
    return c;
  };
  object->setAttr("__init__", in.native("__init__", [](Interpreter &, Args, const Kwargs &) { return Value(); }));
  // object.__setattr__/__delattr__ skip a class's own hooks; on a class they
  // are CPython's TypeError (a metaclass reaches type's through super()).
  object->setAttr("__setattr__", in.native("__setattr__", [](Interpreter &in, Args a, const Kwargs &) {
    if (a.size() != 3) in.raise("TypeError", fmt::format("expected 3 arguments, got {}", a.size()));
    auto *name = a[1].as<StrObject>();
    if (!name) in.raise("TypeError", fmt::format("attribute name must be string, not '{}'", in.typeName(a[1])));
    if (a[0].as<ClassObject>()) in.raise("TypeError", "can't apply this __setattr__ to type object");
    if (a[0].as<InstanceObject>()) setInstanceAttribute(in, a[0], name->s, a[2]);
    else in.setAttr(a[0], name->s, a[2]);
    return Value();
  }));
  object->setAttr("__delattr__", in.native("__delattr__", [](Interpreter &in, Args a, const Kwargs &) {
    if (a.size() != 2) in.raise("TypeError", fmt::format("expected 2 arguments, got {}", a.size()));
    auto *name = a[1].as<StrObject>();
    if (!name) in.raise("TypeError", fmt::format("attribute name must be string, not '{}'", in.typeName(a[1])));
    if (a[0].as<ClassObject>()) in.raise("TypeError", "can't apply this __delattr__ to type object");
    auto *inst = a[0].as<InstanceObject>();
    if (!inst) in.delAttr(a[0], name->s);
    else if (!inst->attrs.erase(name->s))
      in.raise("AttributeError", fmt::format("'{}' object has no attribute '{}'", inst->klass->name, name->s));
    return Value();
  }));
  addType("int", [](Interpreter &in, Args args, const Kwargs &kw) {
    // int(x, base) or int(x, base=b) (functools.partial(int, base=2)).
    std::vector<Value> a(args.begin(), args.end());
    for (auto &[k, v] : kw) {
      if (k != "base") in.raise("TypeError", fmt::format("'{}' is an invalid keyword argument for int()", k));
      if (a.size() != 1) in.raise("TypeError", "argument for int() given by name ('base') and position (2)");
      a.push_back(v);
    }
    if (a.empty()) return Value::integer(0);
    if (a.size() == 2) {
      const std::string *text = nullptr;
      if (auto *s = a[0].as<StrObject>()) text = &s->s;
      else if (auto *b = a[0].as<BytesObject>()) text = &b->s;
      if (!text) in.raise("TypeError", "int() can't convert non-string with explicit base");
      int64_t base = in.toInt(a[1]);
      if (base != 0 && (base < 2 || base > 36)) in.raise("ValueError", "int() base must be >= 2 and <= 36, or 0");
      IntLiteral lit = parseIntLiteral(a[0].as<StrObject>() ? asciiNumberText(*text) : *text, int(base));
      if (lit.status == IntLiteral::Status::Overflow) return bigFromLiteral(in, lit);
      if (lit.status == IntLiteral::Status::Invalid)
        in.raise("ValueError", fmt::format("invalid literal for int() with base {}: {}", base, in.repr(a[0])));
      return Value::integer(lit.value);
    }
    return intOf(in, a[0]);
  });
  addType("float", [](Interpreter &in, Args a, const Kwargs &) { return Value::real(a.empty() ? 0.0 : in.toFloat(a[0])); });
  addType("bool", [](Interpreter &in, Args a, const Kwargs &) { return Value::boolean(!a.empty() && in.truth(a[0])); });
  {
    // bool is a subclass of int.
    auto *boolCls = b.vars["bool"].as<ClassObject>();
    Ref<ClassObject> intCls(b.vars["int"].as<ClassObject>());
    if (boolCls && intCls) {
      boolCls->bases = {intCls};
      boolCls->mro = {boolCls, intCls.get(), object.get()};
    }
  }
  addType("str", [](Interpreter &in, Args a, const Kwargs &kw) {
    static const Signature sig("str(object='', encoding='utf-8', errors='strict')");
    Bound b = sig.bind(in, a, kw);
    if (!b.given("encoding") && !b.given("errors")) return in.str(in.str(b[0]));
    auto *bytes = b[0].as<BytesObject>();
    if (!bytes)
      in.raise("TypeError", b[0].as<StrObject>() ? std::string("decoding str is not supported")
                                                  : fmt::format("decoding to str: need a bytes-like object, {} found",
                                                                in.typeName(b[0])));
    return in.str(decodeText(in, bytes->s, lookupEncoding(in, in.str(b[1])), in.str(b[2])));
  });
  addType("bytes", [](Interpreter &in, Args a, const Kwargs &kw) { return constructBytes(in, a, kw, false); });
  addType("bytearray", [](Interpreter &in, Args a, const Kwargs &kw) { return constructBytes(in, a, kw, true); });
  addType("list", [](Interpreter &in, Args a, const Kwargs &) { return in.list(a.empty() ? std::vector<Value>{} : in.toList(a[0])); });
  addType("tuple", [](Interpreter &in, Args a, const Kwargs &) { return in.tuple(a.empty() ? std::vector<Value>{} : in.toList(a[0])); });
  addType("dict", [](Interpreter &in, Args a, const Kwargs &kw) -> Value {
    auto d = make<DictObject>();
    if (!a.empty()) dictUpdateFrom(in, *d, a[0]);
    for (const auto &[k, v] : kw) d->set(in, in.str(k), v);
    return d;
  });
  addType("set", [](Interpreter &in, Args a, const Kwargs &kw) -> Value {
    static const Signature sig("set(iterable=(), /)");
    Bound b = sig.bind(in, a, kw);
    return newSetFrom(in, b[0], false);
  });
  addType("complex", constructComplex);  // complex_object.cpp
  addType("frozenset", [](Interpreter &in, Args a, const Kwargs &kw) -> Value {
    static const Signature sig("frozenset(iterable=(), /)");
    Bound b = sig.bind(in, a, kw);
    if (auto *same = b[0].as<SetObject>(); same && same->frozen) return b[0];
    return newSetFrom(in, b[0], true);
  });
  addType("range", [](Interpreter &in, Args a, const Kwargs &kw) -> Value {
    if (!kw.empty()) in.raise("TypeError", "range() takes no keyword arguments");
    return rangeFromArgs(in, a);
  });
  addType("slice", [](Interpreter &in, Args a, const Kwargs &) -> Value {
    auto s = make<SliceObject>();
    if (a.size() == 1) s->upper = a[0];
    else if (a.size() >= 2) { s->lower = a[0]; s->upper = a[1]; if (a.size() > 2) s->step = a[2]; }
    return s;
  });
  auto type = addType("type", [](Interpreter &in, Args a, const Kwargs &kw) -> Value {
    if (a.size() == 1 && kw.empty()) return in.typeOf(a[0]);
    if (a.size() == 3) return typeNew(in, nullptr, a, kw);
    in.raise("TypeError", "type() takes 1 or 3 arguments");
  });
  auto staticNative = [&](const char *name, NativeFn fn) {
    auto sm = make<StaticMethodObject>();
    sm->func = in.native(name, std::move(fn));
    return Value(sm);
  };
  type->setAttr("__new__", staticNative("__new__", [](Interpreter &in, Args a, const Kwargs &kw) -> Value {
    if (a.empty()) in.raise("TypeError", "type.__new__(): not enough arguments");
    auto *mcs = a[0].as<ClassObject>();
    if (!mcs) in.raise("TypeError", fmt::format("type.__new__(X): X is not a type object ({})", in.typeName(a[0])));
    return typeNew(in, mcs, a.subspan(1), kw);
  }));
  type->setAttr("__init__", in.native("__init__", [](Interpreter &, Args, const Kwargs &) { return Value(); }));
  type->setAttr("__setattr__", in.native("__setattr__", [](Interpreter &in, Args a, const Kwargs &) {
    auto *cls = a.size() == 3 ? a[0].as<ClassObject>() : nullptr;
    auto *name = a.size() == 3 ? a[1].as<StrObject>() : nullptr;
    if (!cls || !name) in.raise("TypeError", "descriptor '__setattr__' requires a 'type' object and a str name");
    cls->setAttr(name->s, a[2]);
    return Value();
  }));
  type->setAttr("__delattr__", in.native("__delattr__", [](Interpreter &in, Args a, const Kwargs &) {
    auto *cls = a.size() == 2 ? a[0].as<ClassObject>() : nullptr;
    auto *name = a.size() == 2 ? a[1].as<StrObject>() : nullptr;
    if (!cls || !name) in.raise("TypeError", "descriptor '__delattr__' requires a 'type' object and a str name");
    if (!cls->dict.erase(name->s))
      in.raise("AttributeError", fmt::format("type object '{}' has no attribute '{}'", cls->name, name->s));
    bumpClassEpoch();
    std::erase_if(cls->dictOrder, [&](auto &kv) { return kv.first == name->s; });
    return Value();
  }));
  type->setAttr("__call__", in.native("__call__", [](Interpreter &in, Args a, const Kwargs &kw) -> Value {
    auto *cls = a.empty() ? nullptr : a[0].as<ClassObject>();
    if (!cls) in.raise("TypeError", "descriptor '__call__' requires a 'type' object");
    return defaultInstantiate(in, cls, a.subspan(1), kw);
  }));
  object->setAttr("__new__", staticNative("__new__", [](Interpreter &in, Args a, const Kwargs &) -> Value {
    if (a.empty()) in.raise("TypeError", "object.__new__(): not enough arguments");
    return objectNew(in, a[0], a.subspan(1));
  }));
  {
    auto cm = make<ClassMethodObject>();
    cm->func = in.native("__init_subclass__", [](Interpreter &in, Args a, const Kwargs &kw) {
      if (!kw.empty()) {
        auto *c = a.empty() ? nullptr : a[0].as<ClassObject>();
        in.raise("TypeError", fmt::format("{}.__init_subclass__() takes no keyword arguments", c ? c->name : "object"));
      }
      return Value();
    });
    object->setAttr("__init_subclass__", Value(cm));
  }
  addType("property", [](Interpreter &in, Args a, const Kwargs &kw) -> Value {
    auto p = make<PropertyObject>();
    static const Signature sig("property(fget=None, fset=None, fdel=None, doc=None)");
    Bound v = sig.bind(in, a, kw);
    p->getter = v[0];
    p->setter = v[1];
    p->deleter = v[2];
    p->doc = v[3];
    return p;
  });
  addType("staticmethod", [](Interpreter &, Args a, const Kwargs &) -> Value {
    auto s = make<StaticMethodObject>();
    s->func = a[0];
    return s;
  });
  addType("classmethod", [](Interpreter &, Args a, const Kwargs &) -> Value {
    auto s = make<ClassMethodObject>();
    s->func = a[0];
    return s;
  });
  addType("super", [](Interpreter &in, Args a, const Kwargs &) -> Value {
    if (a.size() != 2) in.raise("RuntimeError", "super(): no arguments");
    auto s = make<SuperObject>();
    s->start = a[0].as<ClassObject>();
    s->self = a[1];
    if (!s->start) in.raise("TypeError", fmt::format("super() argument 1 must be a type, not {}", in.typeName(a[0])));
    auto *selfCls = a[1].as<ClassObject>();
    if (!in.isInstance(a[1], s->start) && !(selfCls && selfCls->isSubclassOf(s->start)))
      in.raise("TypeError", "super(type, obj): obj must be an instance or subtype of type");
    return s;
  });
  addType("enumerate", [](Interpreter &in, Args a, const Kwargs &kw) -> Value {
    static const Signature sig("enumerate(iterable, start=0)");
    Bound b = sig.bind(in, a, kw);
    auto e = make<EnumerateIter>();
    e->it = in.iter(b[0]);
    Value start = b[1];
    if (start.as<BigIntObject>()) e->bigCount = start;
    else e->i = in.toIndex(start);
    return e;
  });
  addType("zip", makeZip);  // zip_builtin.cpp
  addType("map", [](Interpreter &in, Args a, const Kwargs &) -> Value {
    auto m = make<MapIter>();
    m->fn = a[0];
    for (size_t i = 1; i < a.size(); ++i) m->its.push_back(in.iter(a[i]));
    return m;
  });
  addType("filter", [](Interpreter &in, Args a, const Kwargs &) -> Value {
    auto m = make<MapIter>();
    m->fn = a[0];
    m->filter = true;
    m->its.push_back(in.iter(a[1]));
    return m;
  });
  b.vars["NotImplemented"] = make<NotImplementedObject>();
  b.vars["Ellipsis"] = make<EllipsisObject>();

  // --- functions -----------------------------------------------------------
  def("print", [](Interpreter &in, Args a, const Kwargs &kw) {
    std::string sep = " ", end = "\n";
    bool toErr = false, flush = false;
    for (const auto &[k, v] : kw) {
      if (k == "sep") sep = v.isNone() ? " " : in.str(v);
      else if (k == "end") end = v.isNone() ? "\n" : in.str(v);
      else if (k == "file") toErr = in.repr(v).find("stderr") != std::string::npos;
      else if (k == "flush") flush = in.truth(v);
      else in.raise("TypeError", fmt::format("'{}' is an invalid keyword argument for print()", k));
    }
    std::string out;
    for (size_t i = 0; i < a.size(); ++i) {
      if (i) out += sep;
      out += in.str(a[i]);
    }
    out += end;
    if (toErr) {
      std::fflush(stdout);
      std::fwrite(out.data(), 1, out.size(), stderr);
    } else {
      std::fwrite(out.data(), 1, out.size(), stdout);
      if (flush) std::fflush(stdout);
    }
    return Value();
  });
  def("input", [](Interpreter &in, Args a, const Kwargs &) {
    if (!a.empty()) {
      std::string p = in.str(a[0]);
      std::fwrite(p.data(), 1, p.size(), stdout);
    }
    std::fflush(stdout);
    std::string line;
    if (!std::getline(std::cin, line)) in.raise("EOFError", "EOF when reading a line");
    if (!line.empty() && line.back() == '\r') line.pop_back();
    return in.str(line);
  });
  def("len", [](Interpreter &in, Args a, const Kwargs &kw) {
    noKwargs(in, "len", kw);
    needArgs(in, "len", a, 1, 1);
    return Value::integer(in.length(a[0]));
  });
  def("repr", [](Interpreter &in, Args a, const Kwargs &) { needArgs(in, "repr", a, 1, 1); return in.str(in.repr(a[0])); });
  // repr() with every non-ASCII character escaped ('\xe9', '\u65e5').
  def("ascii", [](Interpreter &in, Args a, const Kwargs &) {
    std::string r = in.repr(a[0]), out;
    for (size_t i = 0; i < r.size();) {
      if (static_cast<unsigned char>(r[i]) < 0x80) {
        out += r[i++];
        continue;
      }
      out += codePointEscape(nextCodePoint(r, i));
    }
    return in.str(out);
  });
  def("abs", [](Interpreter &in, Args a, const Kwargs &) -> Value {
    needArgs(in, "abs", a, 1, 1);
    if ((a[0].isInt() || a[0].isBool()) && a[0].asInt() != INT64_MIN) return Value::integer(std::llabs(a[0].asInt()));
    if (isIntValue(a[0])) return intValue(abs(toMpz(a[0])));
    if (a[0].isFloat()) return Value::real(std::fabs(a[0].asFloat()));
    if (auto *inst = a[0].as<InstanceObject>())
      if (auto m = inst->klass->lookup("__abs__")) return in.call(Value(make<BoundMethod>(a[0], *m)), {});
    if (Object *o = a[0].obj()) if (auto r = o->getAttr(in, "__abs__")) return in.call(*r, {});
    in.raise("TypeError", fmt::format("bad operand type for abs(): '{}'", in.typeName(a[0])));
  });
  def("min", [](Interpreter &in, Args a, const Kwargs &kw) { return minMax(in, a, kw, false); });
  def("max", [](Interpreter &in, Args a, const Kwargs &kw) { return minMax(in, a, kw, true); });
  def("sum", [](Interpreter &in, Args a, const Kwargs &kw) {
    Value acc = a.size() > 1 ? a[1] : kwarg(kw, "start", Value::integer(0));
    for (auto &v : in.toList(a[0])) acc = in.binary(BinOp::Add, acc, v);
    return acc;
  });
  def("sorted", [](Interpreter &in, Args a, const Kwargs &kw) {
    auto items = in.toList(a[0]);
    sortValues(in, items, kwarg(kw, "key"), in.truth(kwarg(kw, "reverse", Value::boolean(false))));
    return in.list(std::move(items));
  });
  def("reversed", [](Interpreter &in, Args a, const Kwargs &) {
    // A range reverses lazily (CPython's range_iterator): reversed(range(10**18))
    // must not build a list.
    needArgs(in, "reversed", a, 1, 1);
    if (auto *r = a[0].as<RangeObject>()) return reversedRange(in, *r);
    if (auto r = reversedBigRange(in, a[0])) return *r;
    // CPython's reversed(): __reversed__, else the sequence protocol
    // (__len__ and __getitem__); sets, iterators and generators are not
    // reversible.
    bool builtinSequence = a[0].as<ListObject>() || a[0].as<TupleObject>() || a[0].as<StrObject>() ||
                           a[0].as<BytesObject>() || a[0].as<DictObject>();
    if (!builtinSequence) {
      auto lookup = [&](const char *name) { return attrOrAbsent(in, a[0], name); };
      if (auto m = lookup("__reversed__")) return in.call(*m, {});
      bool sized = a[0].obj() && !a[0].as<SetObject>() && lookup("__getitem__");
      if (sized) {
        try {
          in.length(a[0]);  // iterators and generators have no len()
        } catch (PyException &e) {
          if (!in.isInstance(e.exc, in.exceptionClass("TypeError").get())) throw;
          sized = false;
        }
      }
      if (!sized) in.raise("TypeError", fmt::format("'{}' object is not reversible", in.typeName(a[0])));
      // The sequence protocol: __getitem__ from len() - 1 down to 0.
      if (a[0].as<InstanceObject>() && !builtinPart(a[0])) {
        std::vector<Value> items;
        for (int64_t i = in.length(a[0]); i-- > 0;) items.push_back(in.getItem(a[0], Value::integer(i)));
        return in.iter(in.list(std::move(items)));
      }
    }
    auto items = in.toList(a[0]);
    std::reverse(items.begin(), items.end());
    return in.iter(in.list(std::move(items)));
  });
  def("any", [](Interpreter &in, Args a, const Kwargs &) {
    Value it = in.iter(a[0]);
    while (auto v = in.next(it)) if (in.truth(*v)) return Value::boolean(true);
    return Value::boolean(false);
  });
  def("all", [](Interpreter &in, Args a, const Kwargs &) {
    Value it = in.iter(a[0]);
    while (auto v = in.next(it)) if (!in.truth(*v)) return Value::boolean(false);
    return Value::boolean(true);
  });
  def("isinstance", [](Interpreter &in, Args a, const Kwargs &) {
    needArgs(in, "isinstance", a, 2, 2);
    return Value::boolean(classInfoCheck(in, a[0], a[1], false));
  });
  def("issubclass", [](Interpreter &in, Args a, const Kwargs &) {
    needArgs(in, "issubclass", a, 2, 2);
    if (!a[0].as<ClassObject>()) in.raise("TypeError", "issubclass() arg 1 must be a class");
    return Value::boolean(classInfoCheck(in, a[0], a[1], true));
  });
  // __import__("a.b") is the top-level package `a` (with `a.b` imported), or
  // the module `a.b` itself when fromlist is non-empty, as CPython's.
  b.vars["__import__"] = nativeWithSignature(
      in, "__import__(name, globals=None, locals=None, fromlist=(), level=0)", [](Interpreter &in, const Bound &a) -> Value {
        auto *s = a["name"].as<StrObject>();
        if (!s) in.raise("TypeError", fmt::format("__import__() argument 1 must be str, not {}", in.typeName(a["name"])));
        if (in.toIndex(a["level"]) != 0) in.raise("NotImplementedError", "__import__() with level > 0 (a relative import) is not supported by tfs");
        if (s->s.empty()) in.raise("ValueError", "Empty module name");
        Value mod = in.importModule(s->s);
        if (in.truth(a["fromlist"])) return mod;
        return in.importModule(s->s.substr(0, s->s.find('.')));
      });
  // The attribute-name argument of hasattr/getattr/setattr/delattr.
  auto attrName = [](Interpreter &in, const char *fn, Args a, size_t lo, size_t hi) -> const std::string & {
    if (a.size() < lo || a.size() > hi) {
      if (lo == hi) in.raise("TypeError", fmt::format("{} expected {} arguments, got {}", fn, lo, a.size()));
      in.raise("TypeError", fmt::format("{} expected at {} {} arguments, got {}", fn, a.size() < lo ? "least" : "most",
                                        a.size() < lo ? lo : hi, a.size()));
    }
    auto *s = a[1].as<StrObject>();
    if (!s) in.raise("TypeError", fmt::format("attribute name must be string, not '{}'", in.typeName(a[1])));
    return s->s;
  };
  def("hasattr", [attrName](Interpreter &in, Args a, const Kwargs &) {
    return Value::boolean(attrOrAbsent(in, a[0], attrName(in, "hasattr", a, 2, 2)).has_value());
  });
  def("getattr", [attrName](Interpreter &in, Args a, const Kwargs &) {
    const std::string &name = attrName(in, "getattr", a, 2, 3);
    if (a.size() == 3) return attrOrAbsent(in, a[0], name).value_or(a[2]);
    return in.getAttr(a[0], name);
  });
  def("setattr", [attrName](Interpreter &in, Args a, const Kwargs &) {
    in.setAttr(a[0], attrName(in, "setattr", a, 3, 3), a[2]);
    return Value();
  });
  def("delattr", [attrName](Interpreter &in, Args a, const Kwargs &) {
    in.delAttr(a[0], attrName(in, "delattr", a, 2, 2));
    return Value();
  });
  def("id", [](Interpreter &in, Args a, const Kwargs &) {
    return Value::integer(a[0].isObj() ? int64_t(reinterpret_cast<intptr_t>(a[0].obj())) : in.hash(a[0]));
  });
  def("hash", [](Interpreter &in, Args a, const Kwargs &) { return Value::integer(in.hash(a[0])); });
  def("iter", [](Interpreter &in, Args a, const Kwargs &) -> Value {
    if (a.size() == 2)  // iter(callable, sentinel): lib/python/builtins/_callable_iterator.tfs
      return in.call(in.getAttr(in.importModule("_callable_iterator"), "make"), a);
    // CPython's iter(obj) is what obj.__iter__() returns (a class's own
    // iterator object with its methods), which must have __next__.
    if (auto *inst = a[0].as<InstanceObject>(); inst && a.size() == 1)
      if (auto m = inst->klass->lookup("__iter__"); m && !m->isNone()) {
        Value it = in.call(Value(make<BoundMethod>(a[0], *m)), {});
        auto *ii = it.as<InstanceObject>();
        if ((ii && !ii->klass->lookup("__next__") && !builtinPart(it)) || !it.isObj() || it.as<StrObject>() ||
            it.as<ListObject>() || it.as<TupleObject>() || it.as<DictObject>() || it.as<SetObject>())
          in.raise("TypeError", fmt::format("iter() returned non-iterator of type '{}'", in.typeName(it)));
        return it;
      }
    return in.iter(a[0]);
  });
  def("next", [](Interpreter &in, Args a, const Kwargs &) {
    auto v = in.next(a[0]);
    if (v) return *v;
    if (a.size() > 1) return a[1];
    if (auto *g = a[0].as<GeneratorObject>(); g && g->st) raiseGeneratorStop(*g->st);
    in.raise("StopIteration", "");
  });
  def("round", [](Interpreter &in, Args args, const Kwargs &kw) -> Value {
    static const Signature sig("round(number, ndigits=None)");
    Bound bound = sig.bind(in, args, kw);
    Value number = bound[0], nd = bound[1];
    Args a(&number, 1);
    if (auto *inst = a[0].as<InstanceObject>(); inst && !builtinPart(a[0])) {
      auto m = inst->klass->lookup("__round__");
      if (!m) in.raise("TypeError", fmt::format("type {} doesn't define __round__ method", inst->klass->name));
      std::vector<Value> roundArgs;
      if (bound.given("ndigits")) roundArgs.push_back(nd);
      return in.call(Value(make<BoundMethod>(a[0], *m)), roundArgs);
    }
    if (isIntValue(a[0])) return roundIntValue(in, a[0], nd);
    if (isNonRealBuiltin(in, a[0]))
      in.raise("TypeError", fmt::format("type {} doesn't define __round__ method", in.typeName(a[0])));
    double x;
    // A numpy scalar rounds as numpy does (its __round__).
    if (Object *o = a[0].obj(); o && std::string_view(o->typeName()) == "ndarray")
      if (auto own = in.getAttrOpt(a[0], "__round__")) return in.call(*own, nd.isNone() ? std::vector<Value>{} : std::vector<Value>{nd});
    if (Object *o = a[0].obj(); o && !a[0].isFloat()) {
      auto d = o->toFloat(in);
      x = d ? *d : in.toFloat(a[0]);
    } else {
      x = in.toFloat(a[0]);
    }
    return roundFloat(in, x, nd);
  });
  def("divmod", [](Interpreter &in, Args a, const Kwargs &) {
    // A class's __divmod__, then the other operand's __rdivmod__.
    for (int side = 0; side < 2; ++side)
      if (auto *inst = a[side].as<InstanceObject>())
        if (auto m = inst->klass->lookup(side == 0 ? "__divmod__" : "__rdivmod__")) {
          Value args[] = {a[1 - side]};
          Value r = in.call(Value(make<BoundMethod>(a[side], *m)), args);
          if (!r.is(in.builtin("NotImplemented"))) return r;
        }
    if (isNonRealBuiltin(in, a[0]) || isNonRealBuiltin(in, a[1]))
      in.raise("TypeError", fmt::format("unsupported operand type(s) for divmod(): '{}' and '{}'", in.typeName(a[0]),
                                        in.typeName(a[1])));
    return in.tuple({in.binary(BinOp::FloorDiv, a[0], a[1]), in.binary(BinOp::Mod, a[0], a[1])});
  });
  def("pow", [](Interpreter &in, Args a, const Kwargs &kw) -> Value {
    static const Signature sig("pow(base, exp, mod=None)");
    Bound b = sig.bind(in, a, kw);
    if (!b[2].isNone()) return modularPow(in, b[0], b[1], b[2]);
    return in.binary(BinOp::Pow, b[0], b[1]);
  });
  def("chr", [](Interpreter &in, Args a, const Kwargs &) {
    int64_t c = in.toIndex(a[0]);
    if (c < 0 || c > 0x10FFFF) in.raise("ValueError", "chr() arg not in range(0x110000)");
    std::string out;
    uint32_t cp = uint32_t(c);
    if (cp < 0x80) out += char(cp);
    else if (cp < 0x800) { out += char(0xC0 | (cp >> 6)); out += char(0x80 | (cp & 0x3F)); }
    else if (cp < 0x10000) { out += char(0xE0 | (cp >> 12)); out += char(0x80 | ((cp >> 6) & 0x3F)); out += char(0x80 | (cp & 0x3F)); }
    else { out += char(0xF0 | (cp >> 18)); out += char(0x80 | ((cp >> 12) & 0x3F)); out += char(0x80 | ((cp >> 6) & 0x3F)); out += char(0x80 | (cp & 0x3F)); }
    return in.str(out);
  });
  def("ord", [](Interpreter &in, Args a, const Kwargs &) {
    auto *s = a[0].as<StrObject>();
    if (!s) in.raise("TypeError", fmt::format("ord() expected string of length 1, but {} found", in.typeName(a[0])));
    const std::string &t = s->s;
    unsigned char c = static_cast<unsigned char>(t.empty() ? 0 : t[0]);
    size_t n = c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : c >= 0xC0 ? 2 : 1;
    if (t.size() != n) in.raise("TypeError", fmt::format("ord() expected a character, but string of length {} found", in.length(a[0])));
    uint32_t cp = n == 1 ? c : n == 2 ? c & 0x1F : n == 3 ? c & 0x0F : c & 0x07;
    for (size_t i = 1; i < n; ++i) cp = (cp << 6) | (static_cast<unsigned char>(t[i]) & 0x3F);
    return Value::integer(cp);
  });
  def("hex", [](Interpreter &in, Args a, const Kwargs &) { return in.str(prefixedDigits(in, a[0], 16, "0x")); });
  def("oct", [](Interpreter &in, Args a, const Kwargs &) { return in.str(prefixedDigits(in, a[0], 8, "0o")); });
  def("bin", [](Interpreter &in, Args a, const Kwargs &) { return in.str(prefixedDigits(in, a[0], 2, "0b")); });
  def("format", [](Interpreter &in, Args a, const Kwargs &) { return in.str(in.format(a[0], a.size() > 1 ? in.str(a[1]) : "")); });
  def("callable", [](Interpreter &in, Args a, const Kwargs &) {
    const Value &v = a[0];
    bool c = v.as<FunctionObject>() || v.as<NativeFunction>() || v.as<BoundMethod>() || v.as<ClassObject>() ||
             (v.as<InstanceObject>() && v.as<InstanceObject>()->klass->lookup("__call__"));
    if (!c && v.obj() && !v.as<InstanceObject>()) c = v.obj()->getAttr(in, "__call__").has_value();
    return Value::boolean(c);
  });
  installFrameBuiltins(in, b);  // locals, globals, vars, dir (frame_names.cpp)
  installExecEval(in, b);  // exec_eval.cpp
  def("exit", [](Interpreter &in, Args a, const Kwargs &) -> Value { in.raise("SystemExit", a.empty() ? "" : in.str(a[0])); });
  b.vars["quit"] = b.vars["exit"];  // the site module's other name for it
  installStrMaketrans(in);  // str_translate.cpp
}

std::optional<Value> builtinCompare(Interpreter &in, CmpOp op, const Value &a, const Value &b) {
  auto ordered = [&](int c) -> Value {
    switch (op) {
    case CmpOp::Lt: return Value::boolean(c < 0);
    case CmpOp::Le: return Value::boolean(c <= 0);
    case CmpOp::Eq: return Value::boolean(c == 0);
    case CmpOp::Ne: return Value::boolean(c != 0);
    case CmpOp::Gt: return Value::boolean(c > 0);
    case CmpOp::Ge: return Value::boolean(c >= 0);
    }
    return Value();
  };
  if (auto *x = a.as<StrObject>(); x && b.as<StrObject>()) return ordered(x->s.compare(b.as<StrObject>()->s));
  if (auto *x = a.as<BytesObject>(); x && b.as<BytesObject>()) return ordered(x->s.compare(b.as<BytesObject>()->s));
  const std::vector<Value> *xs = nullptr, *ys = nullptr;
  if (a.as<ListObject>() && b.as<ListObject>()) { xs = &a.as<ListObject>()->items; ys = &b.as<ListObject>()->items; }
  if (a.as<TupleObject>() && b.as<TupleObject>()) { xs = &a.as<TupleObject>()->items; ys = &b.as<TupleObject>()->items; }
  if (xs) {
    for (size_t i = 0; i < xs->size() && i < ys->size(); ++i) {
      if ((*xs)[i].is((*ys)[i]) || in.equals((*xs)[i], (*ys)[i])) continue;
      if (op == CmpOp::Eq) return Value::boolean(false);
      if (op == CmpOp::Ne) return Value::boolean(true);
      return in.compare(op, (*xs)[i], (*ys)[i]);
    }
    return ordered(xs->size() < ys->size() ? -1 : xs->size() > ys->size() ? 1 : 0);
  }
  // Subset / superset ordering and equality of sets.
  if (auto r = setCompare(in, op, a, b)) return Value::boolean(*r);
  if (op == CmpOp::Eq || op == CmpOp::Ne) {
    if (auto *x = a.as<DictObject>(); x && b.as<DictObject>()) {
      auto *y = b.as<DictObject>();
      bool eq = x->liveCount == y->liveCount;
      for (auto &[k, v] : x->items()) {
        if (!eq) break;
        auto o = y->get(in, k);
        eq = o && (v.is(*o) || in.equals(v, *o));  // identity first, as CPython
      }
      return Value::boolean(op == CmpOp::Eq ? eq : !eq);
    }
    if (auto eq = rangesEqual(a, b)) return Value::boolean(op == CmpOp::Eq ? *eq : !*eq);
  }
  return std::nullopt;
}

}  // namespace tfs::runtime
