// `_weakref`: weak references under weakref.tfs (ref, getweakrefcount,
// getweakrefs, and _sweep for gc.collect).
//
// tfs frees an object when its count of references reaches zero, but an
// object has no hook that tells anyone it died. So a weakly referenced
// object is kept in one registry entry holding exactly one (strong)
// reference of its own, and the object is dead when that is the only one
// left: its count is 1. A weakref that finds its object dead (r(), hash,
// ==) sweeps the registry, as gc.collect() and getweakrefcount/getweakrefs
// do: entries whose object is dead are dropped (freeing the object) and
// their weakrefs' callbacks run then. r() is therefore exactly what CPython
// returns (an object is dead as soon as no one else refers to it); a
// callback runs when a weakref to that object is next used, or at
// gc.collect(), rather than at the moment of death. Objects in reference cycles are never freed by tfs
// (lib/python/gc), so their weakrefs stay alive.
#include "lib/python/python_modules.h"
#include "runtime/interp/interpreter.h"
#include "runtime/interp/signature.h"

#include <fmt/format.h>
#include <unordered_map>

namespace tfs::runtime {

namespace {

struct WeakRefObject;

struct Entry {
  Value referent;                       // the registry's one reference
  std::vector<WeakRefObject *> refs;    // oldest first
};

// Never destroyed: entries may outlive the interpreter's teardown.
std::unordered_map<Object *, Entry> &registry() {
  static auto *r = new std::unordered_map<Object *, Entry>();
  return *r;
}

struct WeakRefObject final : Object {
  Object *target = nullptr;  // null once dead
  Value callback;
  std::optional<int64_t> hashCache;
  const char *typeName() const override { return "ReferenceType"; }
  ~WeakRefObject() override { detach(); }

  // Leaves the registry; the entry (and its reference) goes with its last weakref.
  void detach() {
    if (!target) return;
    auto it = registry().find(target);
    target = nullptr;
    if (it == registry().end()) return;
    auto &refs = it->second.refs;
    refs.erase(std::remove(refs.begin(), refs.end(), this), refs.end());
    if (refs.empty()) {
      Value keep = std::move(it->second.referent);  // freed after the erase
      registry().erase(it);
    }
  }

  Value get() const { return target ? registry().at(target).referent : Value(); }

  std::optional<Value> call(Interpreter &in, Args a, const Kwargs &kw) override;
  std::optional<std::string> repr(Interpreter &in) override {
    if (!target) return fmt::format("<weakref at 0x{:x}; dead>", reinterpret_cast<uintptr_t>(this));
    return fmt::format("<weakref at 0x{:x}; to '{}' at 0x{:x}>", reinterpret_cast<uintptr_t>(this),
                       in.typeName(get()), reinterpret_cast<uintptr_t>(target));
  }
  std::optional<int64_t> hash(Interpreter &in) override;
  std::optional<Value> compare(Interpreter &in, CmpOp op, const Value &other) override;
  std::optional<Value> getAttr(Interpreter &, const std::string &name) override {
    if (name == "__callback__") return callback;
    return std::nullopt;
  }
};

// Drops the entries whose object only the registry still holds, then runs
// the callbacks of their weakrefs (newest first, as CPython does). Freeing
// one object may leave another dead: repeats until none is. Returns how
// many objects were freed.
int64_t sweep(Interpreter &in) {
  int64_t freed = 0;
  for (;;) {
    std::vector<Object *> dead;
    for (auto &[obj, entry] : registry())
      if (obj->refs == 1) dead.push_back(obj);
    if (dead.empty()) return freed;
    std::vector<Value> pending;  // (weakref, callback) pairs, flattened
    std::vector<Value> released;
    for (Object *obj : dead) {
      auto it = registry().find(obj);
      if (it == registry().end()) continue;
      Entry entry = std::move(it->second);
      registry().erase(it);
      for (auto r = entry.refs.rbegin(); r != entry.refs.rend(); ++r) {
        (*r)->target = nullptr;
        if (!(*r)->callback.isNone()) {
          pending.push_back(Value(Ref<Object>(*r)));
          pending.push_back((*r)->callback);
        }
      }
      released.push_back(std::move(entry.referent));
      ++freed;
    }
    released.clear();  // the objects die here
    for (size_t i = 0; i < pending.size(); i += 2) {
      Value arg = pending[i];
      in.call(pending[i + 1], Args(&arg, 1));
    }
  }
}

// Whether the object only the registry still holds is this weakref's; a
// sweep then frees it (and any other dead one) and runs the callbacks. A
// live object costs no sweep.
void sweepIfDead(Interpreter &in, const WeakRefObject &r) {
  if (r.target && r.target->refs == 1) sweep(in);
}

std::optional<Value> WeakRefObject::call(Interpreter &in, Args a, const Kwargs &kw) {
  if (!a.empty() || !kw.empty()) in.raise("TypeError", "weakref() takes no arguments");
  sweepIfDead(in, *this);
  return get();
}

std::optional<int64_t> WeakRefObject::hash(Interpreter &in) {
  if (hashCache) return hashCache;
  sweepIfDead(in, *this);
  if (!target) in.raise("TypeError", "weak object has gone away");
  hashCache = in.hash(get());
  return hashCache;
}

std::optional<Value> WeakRefObject::compare(Interpreter &in, CmpOp op, const Value &other) {
  if (op != CmpOp::Eq && op != CmpOp::Ne) return std::nullopt;
  auto *o = other.as<WeakRefObject>();
  if (!o) return std::nullopt;
  sweepIfDead(in, *this);
  sweepIfDead(in, *o);
  bool same = (target && o->target) ? in.equals(get(), o->get()) : this == o;
  return Value::boolean(op == CmpOp::Eq ? same : !same);
}

// CPython's built-in types that cannot be weakly referenced.
bool weaklyReferenceable(Interpreter &in, const Value &v) {
  if (!v.isObj()) return false;
  static const char *const kNot[] = {"int", "float", "complex", "str", "bytes", "bytearray", "tuple",
                                     "list", "dict", "range", "slice", "bool", "NoneType"};
  std::string name = in.typeName(v);
  if (v.obj()->cls()) return true;  // instances of classes (those of list/dict subclasses too)
  for (const char *n : kNot)
    if (name == n) return false;
  return true;
}

Value makeRef(Interpreter &in, const Value &obj, const Value &callback) {
  if (!weaklyReferenceable(in, obj))
    in.raise("TypeError", fmt::format("cannot create weak reference to '{}' object", in.typeName(obj)));
  Entry &entry = registry()[obj.obj()];
  if (entry.referent.isNone()) entry.referent = obj;
  // Like CPython, ref(obj) without a callback is one shared object.
  if (callback.isNone())
    for (WeakRefObject *r : entry.refs)
      if (r->callback.isNone()) return Value(Ref<Object>(r));
  auto r = make<WeakRefObject>();
  r->target = obj.obj();
  r->callback = callback;
  entry.refs.push_back(r.get());
  return Value(r);
}

Value makeWeakrefCore(Interpreter &in) {
  auto m = make<ModuleObject>("_weakref");
  auto &vars = m->scope->vars;
  // The class type() reports for a weakref, made callable as weakref.ref.
  auto sample = make<WeakRefObject>();
  Ref<ClassObject> refClass = in.typeOf(Value(sample));
  refClass->construct = [](Interpreter &in, Args a, const Kwargs &kw) -> Value {
    static const Signature sig("ref(object, callback=None, /)");
    Bound b = sig.bind(in, a, kw);
    return makeRef(in, b[0], b[1]);
  };
  refClass->module = "weakref";
  vars["ref"] = Value(refClass);
  vars["getweakrefcount"] = nativeWithSignature(in, "getweakrefcount(object, /)", [](Interpreter &in, const Bound &a) {
    sweep(in);
    if (!a[0].isObj()) return Value::integer(0);
    auto it = registry().find(a[0].obj());
    return Value::integer(it == registry().end() ? 0 : int64_t(it->second.refs.size()));
  });
  vars["getweakrefs"] = nativeWithSignature(in, "getweakrefs(object, /)", [](Interpreter &in, const Bound &a) {
    sweep(in);
    auto out = make<ListObject>();
    if (a[0].isObj())
      if (auto it = registry().find(a[0].obj()); it != registry().end())
        for (WeakRefObject *r : it->second.refs) out->items.push_back(Value(Ref<Object>(r)));
    return Value(out);
  });
  vars["_sweep"] = nativeWithSignature(in, "_sweep()", [](Interpreter &in, const Bound &) {
    return Value::integer(sweep(in));
  });
  // Whether a weakref's object is still alive, without returning it.
  vars["_alive"] = nativeWithSignature(in, "_alive(ref, /)", [](Interpreter &in, const Bound &a) {
    auto *r = a[0].as<WeakRefObject>();
    if (!r) in.raise("TypeError", "_alive() expects a weakref");
    sweepIfDead(in, *r);
    return Value::boolean(r->target != nullptr);
  });
  return Value(m);
}

}  // namespace

void registerWeakrefCoreModule() { Interpreter::registerNativeModule("_weakref", makeWeakrefCore); }

}  // namespace tfs::runtime
