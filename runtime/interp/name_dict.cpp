// Live dict views over a table of names: `obj.__dict__` / `vars(obj)` of an
// instance (its attributes), and globals() / `module.__dict__` / locals()
// in a class body (a scope's names). Writes go through to the table, as
// CPython's real dicts there do; they read as a dict (type dict, repr,
// comparison, the dict methods).
#include "runtime/interp/builtins.h"
#include "runtime/interp/slots.h"

#include <fmt/format.h>

namespace tfs::runtime {

namespace {

// The dict behaviour over the table a subclass gives access to by name.
struct NameDictObject : Object {
  Ref<ClassObject> dictClass;
  explicit NameDictObject(Ref<ClassObject> d) : dictClass(std::move(d)) {}
  const char *typeName() const override { return "dict"; }
  ClassObject *cls() const override { return dictClass.get(); }

  virtual const Value *find(const std::string &k) const = 0;
  virtual void set(const std::string &k, const Value &v) = 0;
  virtual void erase(const std::string &k) = 0;
  virtual std::vector<std::string> names() const = 0;  // in the table's order
  virtual size_t size() const = 0;

  Ref<DictObject> snapshot(Interpreter &in) const {
    auto d = make<DictObject>();
    for (auto &k : names())
      if (const Value *v = find(k)) d->set(in, in.str(k), *v);
    return d;
  }
  virtual std::string key(Interpreter &in, const Value &k) const {
    auto *s = k.as<StrObject>();
    if (!s) in.raise("TypeError", fmt::format("attribute name must be string, not '{}'", in.typeName(k)));
    return s->s;
  }

  std::optional<Value> getItem(Interpreter &in, const Value &k) override {
    auto *s = k.as<StrObject>();
    const Value *v = s ? find(s->s) : nullptr;
    if (!v) in.raiseValue(newKeyError(in, k));
    return *v;
  }
  bool setItem(Interpreter &in, const Value &k, const Value &v) override {
    set(key(in, k), v);
    return true;
  }
  std::optional<bool> contains(Interpreter &, const Value &k) override {
    auto *s = k.as<StrObject>();
    return s && find(s->s);
  }
  std::optional<int64_t> length(Interpreter &) override { return int64_t(size()); }
  std::optional<bool> truth(Interpreter &) override { return size() != 0; }
  std::optional<Value> iter(Interpreter &in) override { return in.iter(Value(snapshot(in))); }
  std::optional<std::string> repr(Interpreter &in) override { return in.repr(Value(snapshot(in))); }
  std::optional<Value> compare(Interpreter &in, CmpOp op, const Value &other) override {
    if (op != CmpOp::Eq && op != CmpOp::Ne) return std::nullopt;
    return in.compare(op, Value(snapshot(in)), other);
  }
  std::optional<Value> getAttr(Interpreter &in, const std::string &name) override {
    Ref<NameDictObject> self(this);
    if (name == "__setitem__" || name == "update" || name == "setdefault" || name == "pop" || name == "clear" ||
        name == "__delitem__" || name == "popitem")
      return in.native(name, [self, name](Interpreter &in, Args a, const Kwargs &kw) -> Value {
        if (name == "__setitem__" && a.size() == 2) {
          self->setItem(in, a[0], a[1]);
          return Value();
        }
        if (name == "__delitem__" && a.size() == 1) {
          auto *s = a[0].as<StrObject>();
          if (!s || !self->find(s->s)) in.raiseValue(newKeyError(in, a[0]));
          self->erase(s->s);
          return Value();
        }
        // The rest: run dict's method on a copy, then bring the table to
        // the copy's contents (values rebound in place, names gone erased).
        Ref<DictObject> d = self->snapshot(in);
        Value r = in.call(in.getAttr(Value(d), name), a, kw);
        std::vector<std::pair<std::string, Value>> after;
        for (auto &[k, v] : d->items()) after.emplace_back(self->key(in, k), v);
        for (auto &k : self->names())
          if (std::none_of(after.begin(), after.end(), [&](auto &kv) { return kv.first == k; })) self->erase(k);
        for (auto &[k, v] : after) self->set(k, v);
        return r;
      });
    return in.getAttrOpt(Value(snapshot(in)), name);
  }
};

struct InstanceDictObject final : NameDictObject {
  Ref<InstanceObject> inst;
  InstanceDictObject(Ref<InstanceObject> i, Ref<ClassObject> d) : NameDictObject(std::move(d)), inst(std::move(i)) {}
  // An exception's BaseException slots live among its attributes but are
  // not in its __dict__, as in CPython (vars(ValueError(1)) is {}).
  // A __slots__ value is reached through its member descriptor, not the
  // __dict__ (slots.h).
  bool hidden(const std::string &k) const {
    if (auto d = inst->klass->lookup(k); d && d->as<MemberDescriptor>()) return true;
    return inst->klass->isException && (k == "args" || k == "__cause__" || k == "__context__" ||
                                         k == "__traceback__" || k == "__suppress_context__");
  }
  const Value *find(const std::string &k) const override {
    auto it = inst->attrs.find(k);
    return it == inst->attrs.end() || hidden(k) ? nullptr : &it->second;
  }
  void set(const std::string &k, const Value &v) override { inst->set(k, v); }
  void erase(const std::string &k) override { inst->attrs.erase(k); }
  std::vector<std::string> names() const override {
    std::vector<std::string> out;
    for (auto &[k, v] : inst->attrs)
      if (!hidden(k)) out.push_back(k);
    return out;
  }
  size_t size() const override { return names().size(); }
};

// A module's or class body's names (globals(), module.__dict__, locals()
// in a class body). A name bound here is bound in the scope: later code
// that reads it finds it (the scope's new version invalidates the lookups
// cached before).
struct ScopeDictObject final : NameDictObject {
  Ref<Scope> scope;
  ScopeDictObject(Ref<Scope> s, Ref<ClassObject> d) : NameDictObject(std::move(d)), scope(std::move(s)) {}
  const Value *find(const std::string &k) const override {
    auto it = scope->vars.find(k);
    return it == scope->vars.end() ? nullptr : &it->second;
  }
  void set(const std::string &k, const Value &v) override { scope->vars[k] = v; }
  void erase(const std::string &k) override { scope->vars.erase(k); }
  std::vector<std::string> names() const override {
    if (auto *order = scope->vars.order()) return *order;
    std::vector<std::string> out;
    for (auto &kv : scope->vars) out.push_back(kv.first);
    std::sort(out.begin(), out.end());
    return out;
  }
  size_t size() const override { return scope->vars.size(); }
  std::string key(Interpreter &in, const Value &k) const override {
    auto *s = k.as<StrObject>();
    if (!s)
      in.raise("NotImplementedError",
               fmt::format("a key of type '{}' in a module or class namespace is not supported by tfs", in.typeName(k)));
    return s->s;
  }
};

Ref<ClassObject> dictClass(Interpreter &in) { return Ref<ClassObject>(in.builtin("dict").as<ClassObject>()); }

}  // namespace

Value instanceDict(Interpreter &in, const Value &instance) {
  return Value(make<InstanceDictObject>(Ref<InstanceObject>(instance.as<InstanceObject>()), dictClass(in)));
}

Value scopeDict(Interpreter &in, Ref<Scope> scope) { return Value(make<ScopeDictObject>(std::move(scope), dictClass(in))); }

Ref<Scope> scopeOfDict(const Value &v) {
  auto *d = v.as<ScopeDictObject>();
  return d ? d->scope : Ref<Scope>();
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
