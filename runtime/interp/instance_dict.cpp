// `obj.__dict__` / `vars(obj)` for instances: a live mapping over the
// instance's attributes (writes through, as CPython's instance dict), that
// reads as a dict (type dict, repr, comparison, the dict methods).
#include "runtime/interp/builtins.h"

#include <fmt/format.h>

namespace tfs::runtime {

namespace {

struct InstanceDictObject final : Object {
  Ref<InstanceObject> inst;
  Ref<ClassObject> dictClass;
  InstanceDictObject(Ref<InstanceObject> i, Ref<ClassObject> d) : inst(std::move(i)), dictClass(std::move(d)) {}
  const char *typeName() const override { return "dict"; }
  ClassObject *cls() const override { return dictClass.get(); }

  // An exception's BaseException slots live among its attributes but are
  // not in its __dict__, as in CPython (vars(ValueError(1)) is {}).
  bool hidden(const std::string &k) const {
    return inst->klass->isException && (k == "args" || k == "__cause__" || k == "__context__" ||
                                         k == "__traceback__" || k == "__suppress_context__");
  }
  Ref<DictObject> snapshot(Interpreter &in) const {
    auto d = make<DictObject>();
    for (auto &[k, v] : inst->attrs)
      if (!hidden(k)) d->set(in, in.str(k), v);
    return d;
  }
  int64_t visibleCount() const {
    int64_t n = 0;
    for (auto &[k, v] : inst->attrs) n += !hidden(k);
    return n;
  }
  // Removes the attributes the dict shows.
  void clearVisible() {
    std::vector<std::string> names;
    for (auto &[k, v] : inst->attrs)
      if (!hidden(k)) names.push_back(k);
    for (auto &k : names) inst->attrs.erase(k);
  }
  std::string key(Interpreter &in, const Value &k) const {
    auto *s = k.as<StrObject>();
    if (!s) in.raise("TypeError", fmt::format("attribute name must be string, not '{}'", in.typeName(k)));
    return s->s;
  }
  void erase(const std::string &k) {
    inst->attrs.erase(k);
  }

  std::optional<Value> getItem(Interpreter &in, const Value &k) override {
    std::string name = key(in, k);
    auto it = inst->attrs.find(name);
    if (it == inst->attrs.end() || hidden(name)) in.raiseValue(newKeyError(in, k));
    return it->second;
  }
  bool setItem(Interpreter &in, const Value &k, const Value &v) override {
    inst->set(key(in, k), v);
    return true;
  }
  std::optional<bool> contains(Interpreter &, const Value &k) override {
    auto *s = k.as<StrObject>();
    return s && inst->attrs.count(s->s) && !hidden(s->s);
  }
  std::optional<int64_t> length(Interpreter &) override { return visibleCount(); }
  std::optional<bool> truth(Interpreter &) override { return visibleCount() != 0; }
  std::optional<Value> iter(Interpreter &in) override { return in.iter(Value(snapshot(in))); }
  std::optional<std::string> repr(Interpreter &in) override { return in.repr(Value(snapshot(in))); }
  std::optional<Value> compare(Interpreter &in, CmpOp op, const Value &other) override {
    if (op != CmpOp::Eq && op != CmpOp::Ne) return std::nullopt;
    return in.compare(op, Value(snapshot(in)), other);
  }
  std::optional<Value> getAttr(Interpreter &in, const std::string &name) override {
    Ref<InstanceDictObject> self(this);
    if (name == "__setitem__" || name == "update" || name == "setdefault" || name == "pop" || name == "clear" ||
        name == "__delitem__" || name == "popitem")
      return in.native(name, [self, name](Interpreter &in, Args a, const Kwargs &kw) -> Value {
        if (name == "__setitem__") {
          self->setItem(in, a[0], a[1]);
          return Value();
        }
        if (name == "__delitem__") {
          std::string k = self->key(in, a[0]);
          if (!self->inst->attrs.count(k) || self->hidden(k)) in.raiseValue(newKeyError(in, a[0]));
          self->erase(k);
          return Value();
        }
        if (name == "clear") {
          self->clearVisible();
          return Value();
        }
        // The rest: run dict's method on a copy, then write the copy back.
        Ref<DictObject> d = self->snapshot(in);
        Value r = in.call(in.getAttr(Value(d), name), a, kw);
        self->clearVisible();
        for (auto &[k, v] : d->items()) self->inst->set(self->key(in, k), v);
        return r;
      });
    return in.getAttrOpt(Value(snapshot(in)), name);
  }
};

}  // namespace

Value instanceDict(Interpreter &in, const Value &instance) {
  return Value(make<InstanceDictObject>(Ref<InstanceObject>(instance.as<InstanceObject>()),
                                        Ref<ClassObject>(in.builtin("dict").as<ClassObject>())));
}

}  // namespace tfs::runtime

namespace tfs::runtime {

std::optional<std::vector<std::pair<Value, Value>>> mappingItems(Interpreter &in, const Value &v) {
  const Value &m = unwrapBuiltin(v);
  if (auto *d = m.as<DictObject>()) return d->items();
  if (m.as<StrObject>() || m.as<ListObject>() || m.as<TupleObject>() || !m.obj()) return std::nullopt;
  auto keys = in.getAttrOpt(m, "keys");
  if (!keys) return std::nullopt;
  std::vector<std::pair<Value, Value>> out;
  for (auto &k : in.toList(in.call(*keys, {}))) out.emplace_back(k, in.getItem(m, k));
  return out;
}

void dictUpdateFrom(Interpreter &in, DictObject &d, const Value &arg) {
  if (auto items = mappingItems(in, arg)) {
    for (auto &[k, v] : *items) d.set(in, k, v);
    return;
  }
  size_t index = 0;
  for (auto &element : in.toList(arg)) {
    std::vector<Value> kv;
    try {
      kv = in.toList(element);
    } catch (PyException &e) {
      // CPython's dict_merge_from_seq2 turns any TypeError here into its own message.
      if (!in.isInstance(e.exc, in.exceptionClass("TypeError").get())) throw;
      in.raise("TypeError", fmt::format("cannot convert dictionary update sequence element #{} to a sequence", index));
    }
    if (kv.size() != 2)
      in.raise("ValueError",
               fmt::format("dictionary update sequence element #{} has length {}; 2 is required", index, kv.size()));
    d.set(in, kv[0], kv[1]);
    ++index;
  }
}

}  // namespace tfs::runtime
