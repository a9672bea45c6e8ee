// dict.keys()/values()/items(): live views over a dict, as CPython's
// dict_keys/dict_values/dict_items: iterable, sized, `in`, repr, and for
// keys and items views the set operations (`&`, `|`, `-`, `^` with any
// iterable, either side, giving a set), comparisons with sets and views,
// isdisjoint, and .mapping.
#include "runtime/interp/dict_views.h"

#include "runtime/interp/builtins.h"

#include <fmt/format.h>

namespace tfs::runtime {


namespace {

struct DictViewObject final : Object {
  enum Kind { Keys, Values, Items } kind;
  Ref<DictObject> dict;
  DictViewObject(Kind k, Ref<DictObject> d) : kind(k), dict(std::move(d)) {}
  const char *typeName() const override {
    return kind == Keys ? "dict_keys" : kind == Values ? "dict_values" : "dict_items";
  }
  std::vector<Value> snapshot(Interpreter &in) const {
    std::vector<Value> out;
    for (auto &[k, v] : dict->items()) out.push_back(kind == Keys ? k : kind == Values ? v : in.tuple({k, v}));
    return out;
  }
  std::optional<int64_t> length(Interpreter &) override { return int64_t(dict->liveCount); }
  std::optional<Value> iter(Interpreter &in) override { return in.iter(in.list(snapshot(in))); }
  std::optional<bool> contains(Interpreter &in, const Value &x) override {
    if (kind == Keys) return dict->get(in, x).has_value();
    for (auto &v : snapshot(in))
      if (in.equals(v, x)) return true;
    return false;
  }
  std::optional<std::string> repr(Interpreter &in) override {
    return fmt::format("{}({})", typeName(), in.repr(in.list(snapshot(in))));
  }

  // The view's elements as a new set (items must be hashable, as in CPython).
  Value asSet(Interpreter &in) { return in.call(in.builtin("set"), std::vector<Value>{in.list(snapshot(in))}); }
  static bool setLike(const Value &v) {
    if (auto *view = v.as<DictViewObject>()) return view->kind != Values;
    std::string_view t = v.obj() ? v.obj()->typeName() : "";
    return t == "set" || t == "frozenset";
  }

  std::optional<Value> binary(Interpreter &in, BinOp op, const Value &other, bool reflected) override {
    if (kind == Values) return std::nullopt;
    const char *update = op == BinOp::And ? "intersection_update" : op == BinOp::Or ? "update"
                         : op == BinOp::Sub ? "difference_update" : op == BinOp::Xor ? "symmetric_difference_update"
                                                                       : nullptr;
    if (!update) return std::nullopt;
    // CPython: set(left), updated in place with the right operand (any iterable).
    Value self(Ref<Object>(this));
    Value left = reflected ? in.call(in.builtin("set"), std::vector<Value>{other}) : asSet(in);
    Value right = reflected ? self : other;
    in.call(in.getAttr(left, update), std::vector<Value>{right});
    return left;
  }

  std::optional<Value> compare(Interpreter &in, CmpOp op, const Value &other) override {
    if (kind == Values || !setLike(other)) return std::nullopt;
    Value otherSet = other.as<DictViewObject>() ? other.as<DictViewObject>()->asSet(in) : other;
    return in.compare(op, asSet(in), otherSet);
  }

  std::optional<Value> getAttr(Interpreter &in, const std::string &name) override {
    if (name == "mapping") return newMappingProxy(in, Value(dict));
    if (name == "isdisjoint" && kind != Values) {
      Value self(Ref<Object>(this));
      return in.native("isdisjoint", [self](Interpreter &in, Args a, const Kwargs &kw) -> Value {
        if (!kw.empty()) in.raise("TypeError", "isdisjoint() takes no keyword arguments");
        if (a.size() != 1) in.raise("TypeError", fmt::format("isdisjoint() takes exactly one argument ({} given)", a.size()));
        for (const Value &x : in.toList(a[0]))
          if (in.contains(self, x)) return Value::boolean(false);
        return Value::boolean(true);
      });
    }
    return std::nullopt;
  }
};

}  // namespace

Value newDictView(const std::string &method, Ref<DictObject> dict) {
  auto kind = method == "keys" ? DictViewObject::Keys : method == "values" ? DictViewObject::Values
                                                                           : DictViewObject::Items;
  return Value(make<DictViewObject>(kind, std::move(dict)));
}

}  // namespace tfs::runtime
