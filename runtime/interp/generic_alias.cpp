// types.GenericAlias: `list[int]`, `dict[str, int]`, `tuple[int, ...]`,
// `type[int]` (PEP 585). Annotations evaluated at definition time build
// them, so they print, compare, expose __origin__/__args__ and call their
// origin as CPython's do; isinstance() refuses them as CPython does.
#include "runtime/interp/builtins.h"
#include "runtime/interp/interpreter.h"

#include <algorithm>
#include <fmt/format.h>

namespace tfs::runtime {

namespace {
struct GenericAliasObject final : Object {
  Value origin;
  std::vector<Value> args;
  const char *typeName() const override { return "types.GenericAlias"; }

  // CPython's ga_repr_item: a class by its (module-qualified) name, ...
  // for Ellipsis, anything else by repr.
  static std::string itemRepr(Interpreter &in, const Value &v) {
    if (v.is(in.builtin("Ellipsis"))) return "...";
    if (auto *c = v.as<ClassObject>()) {
      std::string r = in.repr(v);  // <class 'mod.Name'> or <class 'int'>
      if (r.rfind("<class '", 0) == 0 && r.size() > 10) return r.substr(8, r.size() - 10);
      return c->name;
    }
    return in.repr(v);
  }
  std::optional<std::string> repr(Interpreter &in) override {
    std::string out = itemRepr(in, origin) + "[";
    for (size_t i = 0; i < args.size(); ++i) out += (i ? ", " : "") + itemRepr(in, args[i]);
    if (args.empty()) out += "()";
    return out + "]";
  }
  std::optional<Value> getAttr(Interpreter &in, const std::string &name) override {
    if (name == "__origin__") return origin;
    if (name == "__args__") return in.tuple(args);
    if (name == "__parameters__") return in.tuple({});
    return in.getAttrOpt(origin, name);
  }
  std::optional<Value> call(Interpreter &in, Args a, const Kwargs &kw) override { return in.call(origin, a, kw); }
  std::optional<Value> compare(Interpreter &in, CmpOp op, const Value &other) override {
    auto *o = other.as<GenericAliasObject>();
    if (!o || (op != CmpOp::Eq && op != CmpOp::Ne)) return std::nullopt;
    bool same = origin.is(o->origin) && args.size() == o->args.size();
    for (size_t i = 0; same && i < args.size(); ++i) same = in.truth(in.compare(CmpOp::Eq, args[i], o->args[i]));
    return Value::boolean(op == CmpOp::Eq ? same : !same);
  }
  std::optional<int64_t> hash(Interpreter &in) override {
    return in.hash(origin) ^ in.hash(in.tuple(args));
  }
};
}  // namespace

std::optional<Value> builtinGenericAlias(Interpreter &in, const Value &cls, const Value &args) {
  auto *c = cls.as<ClassObject>();
  static const char *const generic[] = {"list", "dict", "tuple", "set", "frozenset", "type"};
  bool ok = false;
  for (const char *n : generic) ok |= c && c->construct && c->name == n && c->module.empty();
  if (!ok) return std::nullopt;
  auto ga = make<GenericAliasObject>();
  ga->origin = cls;
  if (auto *t = args.as<TupleObject>()) ga->args = t->items;
  else ga->args = {args};
  return Value(ga);
}

}  // namespace tfs::runtime

namespace tfs::runtime {

namespace {
// types.UnionType: `int | str`, `int | None` (PEP 604).
struct UnionTypeObject final : Object {
  std::vector<Value> args;
  const char *typeName() const override { return "types.UnionType"; }
  std::optional<std::string> repr(Interpreter &in) override {
    std::string out;
    for (size_t i = 0; i < args.size(); ++i) {
      if (i) out += " | ";
      out += args[i].is(Value(in.typeOf(Value()))) ? "None" : GenericAliasObject::itemRepr(in, args[i]);
    }
    return out;
  }
  std::optional<Value> getAttr(Interpreter &in, const std::string &name) override {
    if (name == "__args__") return in.tuple(args);
    if (name == "__parameters__") return in.tuple({});
    return std::nullopt;
  }
  std::optional<Value> compare(Interpreter &in, CmpOp op, const Value &other) override {
    auto *o = other.as<UnionTypeObject>();
    if (!o || (op != CmpOp::Eq && op != CmpOp::Ne)) return std::nullopt;
    bool same = args.size() == o->args.size();
    for (auto &a : args) {
      bool found = false;
      for (auto &b : o->args) found |= a.is(b);
      same &= found;
    }
    return Value::boolean(op == CmpOp::Eq ? same : !same);
  }
  std::optional<int64_t> hash(Interpreter &in) override {
    int64_t h = 0;
    for (auto &a : args) h ^= in.hash(a);
    return h;
  }
  std::optional<Value> binary(Interpreter &in, BinOp op, const Value &other, bool reflected) override {
    if (op != BinOp::Or) return std::nullopt;
    Value self(Ref<Object>(this));
    return reflected ? typeUnion(in, other, self) : typeUnion(in, self, other);
  }
};

bool unionMember(const Value &v) {
  return v.isNone() || v.as<ClassObject>() || v.as<GenericAliasObject>() || v.as<UnionTypeObject>();
}
}  // namespace

std::optional<Value> typeUnion(Interpreter &in, const Value &a, const Value &b) {
  if (!unionMember(a) || !unionMember(b) || (a.isNone() && b.isNone())) return std::nullopt;
  auto u = make<UnionTypeObject>();
  auto add = [&](const Value &v) {
    Value t = v.isNone() ? Value(in.typeOf(Value())) : v;
    if (auto *inner = t.as<UnionTypeObject>()) {
      for (auto &x : inner->args)
        if (std::none_of(u->args.begin(), u->args.end(), [&](const Value &y) { return y.is(x); })) u->args.push_back(x);
      return;
    }
    if (std::none_of(u->args.begin(), u->args.end(), [&](const Value &y) { return y.is(t); })) u->args.push_back(t);
  };
  add(a);
  add(b);
  if (u->args.size() == 1) return u->args[0];
  return Value(u);
}

}  // namespace tfs::runtime
