// CPython's mappingproxy: `C.__dict__` of a class and
// types.MappingProxyType(m). A read-only live view: reads go to the class's
// namespace as it is at that moment (or to the wrapped mapping), so a name
// set on the class later shows; writes raise CPython's errors instead of
// changing a copy nobody sees.
#include "runtime/interp/builtins.h"
#include "runtime/interp/big_int.h"
#include "runtime/interp/complex_object.h"

#include <fmt/format.h>

namespace tfs::runtime {

namespace {

// A class's namespace as a new dict, in definition order. `__qualname__`
// is not in it: CPython keeps a class's qualname beside its dict.
Ref<DictObject> classNamespace(Interpreter &in, const ClassObject &cls) {
  auto d = make<DictObject>();
  for (auto &[k, unused] : cls.dictOrder) {
    if (k == "__qualname__") continue;
    auto it = cls.dict.find(k);
    if (it != cls.dict.end()) d->set(in, in.str(k), it->second);
  }
  return d;
}

struct MappingProxyObject final : Object {
  Ref<ClassObject> klass;  // a class's namespace, read afresh at each use
  Value mapping;           // else the mapping MappingProxyType wraps
  const char *typeName() const override { return "mappingproxy"; }

  Value target(Interpreter &in) const { return klass ? Value(classNamespace(in, *klass)) : mapping; }

  std::optional<Value> getItem(Interpreter &in, const Value &k) override { return in.getItem(target(in), k); }
  // false: the caller raises "'mappingproxy' object does not support item assignment".
  bool setItem(Interpreter &, const Value &, const Value &) override { return false; }
  std::optional<bool> contains(Interpreter &in, const Value &k) override { return in.contains(target(in), k); }
  std::optional<int64_t> length(Interpreter &in) override { return in.length(target(in)); }
  std::optional<bool> truth(Interpreter &in) override { return in.length(target(in)) != 0; }
  std::optional<Value> iter(Interpreter &in) override { return in.iter(target(in)); }
  std::optional<std::string> repr(Interpreter &in) override { return "mappingproxy(" + in.repr(target(in)) + ")"; }
  std::optional<std::string> str(Interpreter &in) override { return in.str(target(in)); }
  std::optional<Value> compare(Interpreter &in, CmpOp op, const Value &other) override {
    return in.compare(op, target(in), other);
  }
  // `proxy | other` and `other | proxy`: the mapping's union (a new dict).
  std::optional<Value> binary(Interpreter &in, BinOp op, const Value &other, bool reflected) override {
    if (op != BinOp::Or) return std::nullopt;
    return reflected ? in.binary(op, other, target(in)) : in.binary(op, target(in), other);
  }
  std::optional<int64_t> hash(Interpreter &in) override {
    in.raise("TypeError", "unhashable type: 'mappingproxy'");
  }
  std::optional<Value> getAttr(Interpreter &in, const std::string &name) override;
};

// keys() / values() / items() of a class's proxy: a view that reads the
// class's namespace at each use (CPython's views see the live class dict).
struct ClassNamespaceView final : Object {
  Ref<ClassObject> klass;
  std::string method;  // "keys", "values" or "items"
  ClassNamespaceView(Ref<ClassObject> c, std::string m) : klass(std::move(c)), method(std::move(m)) {}
  const char *typeName() const override {
    return method == "keys" ? "dict_keys" : method == "values" ? "dict_values" : "dict_items";
  }
  // The same view of a dict holding the namespace now.
  Value now(Interpreter &in) const { return in.call(in.getAttr(Value(classNamespace(in, *klass)), method), {}); }
  std::optional<int64_t> length(Interpreter &in) override { return in.length(now(in)); }
  std::optional<bool> truth(Interpreter &in) override { return in.length(now(in)) != 0; }
  std::optional<Value> iter(Interpreter &in) override { return in.iter(now(in)); }
  std::optional<bool> contains(Interpreter &in, const Value &x) override { return in.contains(now(in), x); }
  std::optional<std::string> repr(Interpreter &in) override { return in.repr(now(in)); }
  std::optional<Value> compare(Interpreter &in, CmpOp op, const Value &other) override {
    return in.compare(op, now(in), other);
  }
  std::optional<Value> binary(Interpreter &in, BinOp op, const Value &other, bool reflected) override {
    return reflected ? in.binary(op, other, now(in)) : in.binary(op, now(in), other);
  }
  std::optional<Value> getAttr(Interpreter &in, const std::string &name) override { return in.getAttrOpt(now(in), name); }
};

std::optional<Value> MappingProxyObject::getAttr(Interpreter &in, const std::string &name) {
  if (name == "keys" || name == "values" || name == "items") {
    Ref<MappingProxyObject> self(this);
    return in.native(name, [self, name](Interpreter &in, Args a, const Kwargs &kw) -> Value {
      if (!kw.empty()) in.raise("TypeError", fmt::format("mappingproxy.{}() takes no keyword arguments", name));
      if (!a.empty())
        in.raise("TypeError", fmt::format("mappingproxy.{}() takes no arguments ({} given)", name, a.size()));
      if (self->klass) return Value(make<ClassNamespaceView>(self->klass, name));
      return in.call(in.getAttr(self->mapping, name), {});
    });
  }
  // What CPython's mappingproxy has: the reading methods, answered by the
  // mapping (copy() gives a new dict for a class's proxy).
  if (name == "get" || name == "copy" || name == "__getitem__" || name == "__contains__" || name == "__len__" || name == "__iter__")
    return in.getAttrOpt(target(in), name);
  if (name == "__ior__")
    return in.native(name, [](Interpreter &in, Args, const Kwargs &) -> Value {
      in.raise("TypeError", "'|=' is not supported by mappingproxy; use '|' instead");
    });
  return std::nullopt;
}

}  // namespace

Value classMappingProxy(Interpreter &, ClassObject *cls) {
  auto p = make<MappingProxyObject>();
  p->klass = Ref<ClassObject>(cls);
  return Value(p);
}

Value newMappingProxy(Interpreter &in, const Value &mapping) {
  // CPython's check: anything with __getitem__ but a list or a tuple.
  const Value &m = unwrapBuiltin(mapping);
  // (Numbers are refused first: tfs's int answers getattr(1, '__getitem__').)
  bool isNumber = !m.obj() || m.as<BigIntObject>() || m.as<ComplexObject>();
  bool isMapping = !isNumber && !m.as<ListObject>() && !m.as<TupleObject>() &&
                   (m.as<DictObject>() || m.as<MappingProxyObject>() || in.getAttrOpt(mapping, "__getitem__"));
  if (!isMapping)
    in.raise("TypeError", fmt::format("mappingproxy() argument must be a mapping, not {}", in.typeName(mapping)));
  auto p = make<MappingProxyObject>();
  p->mapping = mapping;
  return Value(p);
}

}  // namespace tfs::runtime
