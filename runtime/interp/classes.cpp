// Classes: creating them (the class statement, type(name, bases, dict),
// metaclasses, C3 MRO, __set_name__, __init_subclass__, __annotations__,
// __doc__), instantiating them (__new__ then __init__; a metaclass's
// __call__), and subclasses of built-in types (class D(dict)): the instance
// keeps a built-in value that its inherited behaviour works on.
#include "runtime/interp/attr_pool.h"
#include "runtime/interp/builtins.h"
#include "runtime/interp/eval.h"
#include "runtime/interp/os_error_class.h"
#include "runtime/interp/slots.h"

#include <fmt/format.h>

namespace tfs::runtime {

using namespace tfs::ast;

namespace {

bool isNative(const Value &v) { return v.as<NativeFunction>() != nullptr; }

// CPython's C3 linearization; false when the bases admit no consistent
// order, with `blocked` naming the heads left unmerged (CPython's message).
bool linearize(ClassObject &cls, std::string &blocked) {
  std::vector<std::vector<ClassObject *>> seqs;
  for (auto &b : cls.bases) seqs.push_back(b->mro);
  std::vector<ClassObject *> direct;
  for (auto &b : cls.bases) direct.push_back(b.get());
  seqs.push_back(direct);
  cls.mro = {&cls};
  for (;;) {
    bool empty = true;
    for (auto &s : seqs)
      if (!s.empty()) empty = false;
    if (empty) return true;
    ClassObject *pick = nullptr;
    for (auto &s : seqs) {
      if (s.empty()) continue;
      ClassObject *cand = s.front();
      bool inTail = false;
      for (auto &t : seqs)
        for (size_t i = 1; i < t.size(); ++i)
          if (t[i] == cand) inTail = true;
      if (!inTail) {
        pick = cand;
        break;
      }
    }
    if (!pick) {
      std::vector<ClassObject *> heads;
      for (auto &s : seqs)
        if (!s.empty() && std::find(heads.begin(), heads.end(), s.front()) == heads.end()) heads.push_back(s.front());
      for (size_t i = 0; i < heads.size(); ++i) blocked += (i ? ", " : "") + heads[i]->name;
      return false;
    }
    cls.mro.push_back(pick);
    for (auto &s : seqs)
      if (!s.empty() && s.front() == pick) s.erase(s.begin());
  }
}

bool isImmutableBuiltin(const ClassObject *c) {
  static const char *const names[] = {"int", "float", "str", "bytes", "tuple", "frozenset", "bool"};
  for (const char *n : names)
    if (c->name == n) return true;
  return false;
}

}  // namespace

ClassObject *typeClass(Interpreter &in) { return in.builtin("type").as<ClassObject>(); }

bool isMetaclass(Interpreter &in, const ClassObject *c) { return c->isSubclassOf(typeClass(in)); }

ClassObject *builtinBase(const ClassObject *cls) {
  for (ClassObject *c : cls->mro)
    if (c->construct && c->name != "object" && c->name != "type") return c;
  return nullptr;
}

const Value *builtinPart(const Value &v) {
  auto *inst = v.as<InstanceObject>();
  if (!inst || inst->builtinValue.isNone()) return nullptr;
  return &inst->builtinValue;
}

// The class's metaclass: the explicit one, else the most derived of its
// bases' (CPython's "metaclass conflict" when neither derives from the other).
Ref<ClassObject> chooseMetaclass(Interpreter &in, Ref<ClassObject> explicitMeta,
                                 const std::vector<Ref<ClassObject>> &bases) {
  Ref<ClassObject> winner = explicitMeta;
  for (auto &b : bases) {
    Ref<ClassObject> m = b->metaclass;
    if (!m) continue;
    if (!winner || m->isSubclassOf(winner.get())) winner = m;
    else if (!winner->isSubclassOf(m.get()))
      in.raise("TypeError", "metaclass conflict: the metaclass of a derived class must be a (non-strict) subclass "
                            "of the metaclasses of all its bases");
  }
  if (winner && winner.get() == typeClass(in)) return Ref<ClassObject>();
  return winner;
}

Ref<ClassObject> createClass(Interpreter &in, const std::string &name, std::vector<Ref<ClassObject>> bases,
                             const std::vector<std::pair<std::string, Value>> &ns, Ref<ClassObject> metaclass,
                             const Kwargs &kwargs) {
  auto cls = make<ClassObject>();
  cls->name = name;
  cls->metaclass = metaclass;
  if (bases.empty()) bases.push_back(Ref<ClassObject>(in.builtin("object").as<ClassObject>()));
  cls->bases = std::move(bases);
  ClassObject *solid = nullptr;  // the one built-in base whose layout instances take
  for (size_t i = 0; i < cls->bases.size(); ++i) {
    ClassObject *b = cls->bases[i].get();
    for (size_t j = 0; j < i; ++j)
      if (cls->bases[j].get() == b) in.raise("TypeError", fmt::format("duplicate base class {}", b->name));
    if (b->name == "bool" && b->construct || (b->dict.count("__builtin__") && !b->isException))
      in.raise("TypeError", fmt::format("type '{}' is not an acceptable base type", b->name));
    if (ClassObject *bb = builtinBase(b)) {
      if (solid && !solid->isSubclassOf(bb) && !bb->isSubclassOf(solid))
        in.raise("TypeError", "multiple bases have instance lay-out conflict");
      if (!solid || bb->isSubclassOf(solid)) solid = bb;
    }
  }
  std::string blocked;
  if (!linearize(*cls, blocked))
    in.raise("TypeError", "Cannot create a consistent method resolution\norder (MRO) for bases " + blocked);
  for (auto &b : cls->bases) cls->isException |= b->isException;
  for (auto &[k, v] : ns) cls->setAttr(k, v);
  installSlots(in, *cls);
  // A class that defines __eq__ and not __hash__ is unhashable.
  if (cls->dict.count("__eq__") && !cls->dict.count("__hash__")) cls->setAttr("__hash__", Value());
  // `__new__` and `__init_subclass__` are implicitly static / class methods.
  if (auto it = cls->dict.find("__new__"); it != cls->dict.end() && it->second.as<FunctionObject>()) {
    auto sm = make<StaticMethodObject>();
    sm->func = it->second;
    it->second = Value(sm);
  }
  if (auto it = cls->dict.find("__init_subclass__"); it != cls->dict.end() && it->second.as<FunctionObject>()) {
    auto cm = make<ClassMethodObject>();
    cm->func = it->second;
    it->second = Value(cm);
  }
  bumpClassEpoch();  // the namespace changed in place
  if (!cls->dict.count("__qualname__")) cls->setAttr("__qualname__", in.str(name));
  if (!cls->dict.count("__doc__")) cls->setAttr("__doc__", Value());
  // Functions defined in the body know their class (zero-argument super()).
  for (auto &[k, v] : cls->dict) {
    Value f = v;
    if (auto *sm = f.as<StaticMethodObject>()) f = sm->func;
    if (auto *cm = f.as<ClassMethodObject>()) f = cm->func;
    if (auto *p = f.as<PropertyObject>()) f = p->getter;
    if (auto *fn = f.as<FunctionObject>(); fn && !fn->definingClass) fn->definingClass = cls.get();
  }
  // __set_name__ on descriptors, in definition order.
  for (auto &[k, unused] : cls->dictOrder) {
    Value v = cls->dict[k];
    if (auto *inst = v.as<InstanceObject>())
      if (auto m = inst->klass->lookup("__set_name__")) {
        Value args[] = {Value(cls), in.str(k)};
        in.call(Value(make<BoundMethod>(v, *m)), args);
      }
  }
  // The parent's __init_subclass__ (skipping the new class itself).
  for (size_t i = 1; i < cls->mro.size(); ++i) {
    auto it = cls->mro[i]->dict.find("__init_subclass__");
    if (it == cls->mro[i]->dict.end()) continue;
    Value f = it->second;
    if (auto *cm = f.as<ClassMethodObject>()) f = cm->func;
    if (isNative(f)) {
      if (!kwargs.empty())
        in.raise("TypeError", fmt::format("{}.__init_subclass__() takes no keyword arguments", name));
      break;
    }
    in.call(Value(make<BoundMethod>(Value(cls), f)), {}, kwargs);
    break;
  }
  return cls;
}

Value Evaluator::defineClass(const ClassDef &def) {
  std::vector<Ref<ClassObject>> bases;
  for (const auto &b : def.bases) {
    Value bv = eval(*b);
    in.span_ = b->span;
    auto *bc = bv.as<ClassObject>();
    if (!bc) in.raise("TypeError", fmt::format("bases must be types, not {}", in.typeName(bv)));
    bases.push_back(Ref<ClassObject>(bc));
  }
  Ref<ClassObject> explicitMeta;
  Value metaCallable;
  Kwargs kwargs;
  for (const auto &k : def.keywords) {
    Value v = eval(*k.value);
    in.span_ = k.span;
    if (k.name == "metaclass") {
      auto *m = v.as<ClassObject>();
      // Any callable may be the metaclass: it makes the class from
      // (name, bases, namespace), and no other metaclass is derived.
      if (!m) metaCallable = v;
      else explicitMeta = Ref<ClassObject>(m);
    } else if (k.name.empty()) {
      auto *d = v.as<DictObject>();
      if (!d) in.raise("TypeError", "argument after ** must be a mapping");
      for (auto &[key, val] : d->items()) kwargs.emplace_back(in.str(key), val);
    } else {
      kwargs.emplace_back(k.name, v);
    }
  }
  in.span_ = def.span;
  Ref<ClassObject> meta = chooseMetaclass(in, explicitMeta, bases);
  // Run the body in the class namespace.
  Frame body;
  body.locals = make<Scope>();
  body.locals->vars.trackOrder();  // the definition order of the class's names
  // A class body nested in a class body does not see the outer one's names.
  body.locals->parent =
      f.classBody ? f.locals->parent : (f.locals.get() != f.globals.get() ? capturedLocals() : Ref<Scope>());
  body.globals = f.globals;
  body.classBody = true;
  std::vector<std::pair<std::string, Value>> ns;
  auto modName = f.globals->vars.find("__name__");
  Evaluator ev{in, body};
  // A metaclass's __prepare__(name, bases, **kw): the names it returns are
  // the body's first bindings (a plain mapping; the body then binds into
  // the class namespace as usual).
  if (meta)
    if (auto prep = meta->lookup("__prepare__"); prep && !prep->as<NativeFunction>()) {
      Value f = *prep;
      if (auto *cm = f.as<ClassMethodObject>()) f = Value(make<BoundMethod>(Value(meta), cm->func));
      else if (auto *sm = f.as<StaticMethodObject>()) f = sm->func;
      std::vector<Value> baseValues(bases.begin(), bases.end());
      Value args[] = {in.str(def.name), in.tuple(baseValues)};
      Value ns0 = in.call(f, args, kwargs);
      auto items = mappingItems(in, ns0);
      if (!items)
        in.raise("TypeError", fmt::format("{}.__prepare__() must return a mapping, not {}", meta->name, in.typeName(ns0)));
      for (auto &[k, v] : *items) ev.store(in.str(k), v);
      in.span_ = def.span;
    }
  ev.store("__module__", modName != f.globals->vars.end() ? modName->second : in.str("__main__"));
  // The methods' qualnames start from it ('Outer.Inner.m', 'f.<locals>.C.m').
  ev.store("__qualname__", in.str(qualnamePrefix() + def.name));
  if (!def.body.empty())
    if (auto *es = llvm::dyn_cast<ExprStmt>(def.body[0].get()))
      if (auto *c = llvm::dyn_cast<Constant>(es->value.get()); c && c->type == Constant::Type::Str)
        ev.store("__doc__", in.str(c->s));
  // Methods defined in the body know their class (zero-argument super()):
  // a placeholder until the class exists.
  auto holder = make<FunctionObject>();
  body.function = holder.get();
  ev.execBody(def.body);
  // Definition order: the body's names in the order first bound.
  for (auto &k : *body.locals->vars.order()) {
    auto it = body.locals->vars.find(k);
    if (it != body.locals->vars.end()) ns.emplace_back(k, it->second);
  }
  in.span_ = def.span;
  Value v;
  if (!metaCallable.isNone()) {
    std::vector<Value> baseValues(bases.begin(), bases.end());
    auto dict = make<DictObject>();
    for (auto &[k, val] : ns) dict->set(in, in.str(k), val);
    Value args[] = {in.str(def.name), in.tuple(baseValues), Value(dict)};
    v = in.call(metaCallable, args, kwargs);
    if (auto *c = v.as<ClassObject>()) holder->definingClass = c;
  } else if (!meta) {
    Ref<ClassObject> cls = createClass(in, def.name, bases, ns, Ref<ClassObject>(), kwargs);
    holder->definingClass = cls.get();
    v = Value(cls);
  } else {
    std::vector<Value> baseValues(bases.begin(), bases.end());
    auto dict = make<DictObject>();
    for (auto &[k, val] : ns) dict->set(in, in.str(k), val);
    Value args[] = {in.str(def.name), in.tuple(baseValues), Value(dict)};
    v = in.call(Value(meta), args, kwargs);
    if (auto *c = v.as<ClassObject>()) holder->definingClass = c;
  }
  for (size_t i = def.decorators.size(); i-- > 0;) {
    Value d = eval(*def.decorators[i]);
    in.span_ = def.decorators[i]->span;
    Value args[] = {v};
    v = in.call(d, args);
  }
  return v;
}

// type.__new__(mcs, name, bases, ns): the class object, its type `mcs`.
Value typeNew(Interpreter &in, ClassObject *mcs, Args a, const Kwargs &kw) {
  if (a.size() != 3) in.raise("TypeError", "type.__new__() takes exactly 3 arguments");
  auto *name = a[0].as<StrObject>();
  auto *bases = a[1].as<TupleObject>();
  auto *dict = a[2].as<DictObject>();
  if (!name) in.raise("TypeError", fmt::format("type.__new__() argument 1 must be str, not {}", in.typeName(a[0])));
  if (!bases) in.raise("TypeError", fmt::format("type.__new__() argument 2 must be tuple, not {}", in.typeName(a[1])));
  if (!dict) in.raise("TypeError", fmt::format("type.__new__() argument 3 must be dict, not {}", in.typeName(a[2])));
  std::vector<Ref<ClassObject>> bs;
  for (auto &b : bases->items) {
    auto *bc = b.as<ClassObject>();
    if (!bc) in.raise("TypeError", fmt::format("bases must be types, not {}", in.typeName(b)));
    bs.push_back(Ref<ClassObject>(bc));
  }
  std::vector<std::pair<std::string, Value>> ns;
  for (auto &[k, v] : dict->items()) ns.emplace_back(in.str(k), v);
  Ref<ClassObject> meta = mcs && mcs != typeClass(in) ? Ref<ClassObject>(mcs) : Ref<ClassObject>();
  Ref<ClassObject> winner = chooseMetaclass(in, meta, bs);
  bool hasModule = false;
  for (auto &[k, v] : ns) hasModule |= k == "__module__";
  if (!hasModule) ns.insert(ns.begin(), {"__module__", in.str("__main__")});
  return Value(createClass(in, name->s, bs, ns, winner, kw));
}

// object.__new__(cls): a bare instance (with the built-in value of a
// built-in base: immutable ones take their value from the arguments).
Value objectNew(Interpreter &in, const Value &clsValue, Args rest) {
  auto *cls = clsValue.as<ClassObject>();
  if (!cls) in.raise("TypeError", fmt::format("object.__new__(X): X is not a type object ({})", in.typeName(clsValue)));
  if (isMetaclass(in, cls)) return typeNew(in, cls, rest, {});
  if ((cls->construct || cls->dict.count("__builtin__")) && cls->name != "object" && !cls->isException)
    in.raise("TypeError", fmt::format("object.__new__({}) is not safe, use {}.__new__()", cls->name, cls->name));
  auto inst = make<InstanceObject>(Ref<ClassObject>(cls));
  if (cls->isException) inst->set("args", in.tuple(std::vector<Value>(rest.begin(), rest.end())));
  if (ClassObject *b = builtinBase(cls); b && !cls->isException)
    inst->builtinValue = b->construct(in, isImmutableBuiltin(b) ? rest : Args(), {});
  return Value(inst);
}

namespace {
std::optional<Value> userMethod(const ClassObject *cls, const char *name) {
  auto m = cls->lookup(name);
  if (!m) return std::nullopt;
  Value f = *m;
  if (auto *sm = f.as<StaticMethodObject>()) f = sm->func;
  if (isNative(f)) return std::nullopt;
  return f;
}
}  // namespace

namespace {
// Whether calling `cls` only makes a plain instance and calls a user
// __init__ on it (no metaclass, __new__, built-in base or exception
// base): what defaultInstantiate then does, worked out once per class epoch.
void planInstantiation(Interpreter &in, ClassObject *cls) {
  cls->planEpoch = currentClassEpoch();
  cls->planSimple = false;
  cls->planInit = nullptr;
  if (cls->metaclass || cls->construct || cls->isException || builtinBase(cls) || isMetaclass(in, cls) ||
      userMethod(cls, "__new__"))
    return;
  auto init = cls->lookup("__init__");
  if (!init) return;
  auto *fn = init->as<FunctionObject>();
  if (!fn || !fn->def) return;
  cls->planSimple = true;
  cls->planInit = fn;  // kept alive by the class's namespace while the epoch holds
}
}  // namespace

Value instantiate(Interpreter &in, ClassObject *cls, Args args, const Kwargs &kwargs) {
  if (cls->planEpoch != currentClassEpoch()) planInstantiation(in, cls);
  if (cls->planSimple) {
    Ref<FunctionObject> init(cls->planInit);  // __init__ may rebind C.__init__
    auto inst = make<InstanceObject>(Ref<ClassObject>(cls));
    reuseAttrTable(*inst);
    Value obj(std::move(inst));
    Value r = in.callFunction(*init, init->def, args, kwargs, &obj);
    if (!r.isNone()) in.raise("TypeError", fmt::format("__init__() should return None, not '{}'", in.typeName(r)));
    return obj;
  }
  Value clsValue(Ref<Object>(static_cast<Object *>(cls)));
  // A metaclass's __call__ decides what calling the class does.
  if (cls->metaclass)
    if (auto call = userMethod(cls->metaclass.get(), "__call__"))
      return in.call(Value(make<BoundMethod>(clsValue, *call)), args, kwargs);
  return defaultInstantiate(in, cls, args, kwargs);
}

Value defaultInstantiate(Interpreter &in, ClassObject *cls, Args args, const Kwargs &kwargs) {
  if (cls->isException) cls = osErrorClassFor(in, cls, args);
  Value clsValue(Ref<Object>(static_cast<Object *>(cls)));
  if (cls->construct) return cls->construct(in, args, kwargs);
  Value obj;
  auto newFn = userMethod(cls, "__new__");
  ClassObject *builtin = builtinBase(cls);
  bool meta = isMetaclass(in, cls);
  // The instantiation's call site: __init__ is called from it too (a
  // __new__'s body leaves the current span at its own last line).
  frontend::SourceSpan site = in.currentSpan();
  if (newFn) {
    std::vector<Value> withCls{clsValue};
    withCls.insert(withCls.end(), args.begin(), args.end());
    obj = in.call(*newFn, withCls, kwargs);
    in.restoreSpan(site);
    if (!in.isInstance(obj, cls)) return obj;
  } else if (meta) {
    obj = typeNew(in, cls, args, kwargs);
  } else {
    auto inst = make<InstanceObject>(Ref<ClassObject>(cls));
    if (cls->isException) inst->set("args", in.tuple(std::vector<Value>(args.begin(), args.end())));
    obj = Value(inst);
    if (builtin && !cls->isException) {
      // A mutable built-in base is filled by its __init__ (below, or the
      // user's __init__ calling it through super()); an immutable one now.
      bool userInit = false;
      for (ClassObject *c : cls->mro) {
        if (c == builtin) break;
        auto it = c->dict.find("__init__");
        if (it != c->dict.end() && !isNative(it->second)) userInit = true;
      }
      if (isImmutableBuiltin(builtin) || !userInit) {
        inst->builtinValue = builtin->construct(in, args, kwargs);
        if (!userInit) return obj;
      } else {
        inst->builtinValue = builtin->construct(in, {}, {});
      }
    }
  }
  // CPython calls the __init__ of the object's own type: a __new__ may
  // return an instance of a subclass.
  ClassObject *initCls = cls;
  if (auto *inst = obj.as<InstanceObject>(); inst && newFn) initCls = inst->klass.get();
  auto init = initCls->lookup("__init__");
  if (init && !isNative(*init)) {
    Value r = in.call(Value(make<BoundMethod>(obj, *init)), args, kwargs);
    if (!r.isNone()) in.raise("TypeError", fmt::format("__init__() should return None, not '{}'", in.typeName(r)));
  } else if (init && cls->isException && init->as<NativeFunction>()) {
    in.call(Value(make<BoundMethod>(obj, *init)), args, kwargs);
  } else if (!newFn && !meta && !builtin && !cls->isException && (!args.empty() || !kwargs.empty())) {
    in.raise("TypeError", fmt::format("{}() takes no arguments", cls->name));
  }
  return obj;
}

}  // namespace tfs::runtime
