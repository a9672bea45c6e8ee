// Attribute access: instances (own dict, then the class MRO with
// descriptors: functions bind, property calls its getter, staticmethod /
// classmethod), classes, super(), modules (with lazy attributes), methods
// of built-in types, and native objects' getAttr hook.
#include "runtime/interp/function_code.h"
#include "runtime/interp/instance_setattr.h"
#include "runtime/interp/float_methods.h"
#include "runtime/interp/big_int.h"
#include "runtime/interp/builtins.h"
#include "runtime/interp/interpreter.h"
#include "runtime/interp/native_context_managers.h"
#include "runtime/interp/public_names.h"
#include "runtime/interp/signature.h"
#include "runtime/interp/slots.h"

#include <fmt/format.h>

namespace tfs::runtime {

namespace {
// `dict.__init__(self, ...)`, `list.__len__(x)`, `int.__add__(a, b)`: a
// dunder of a built-in type reached through the class, applied to a value of
// the type or to an instance of a subclass of it (through its built-in part).
// A value of the built-in type named `type` (to ask which methods it has).
std::optional<Value> sampleOfBuiltinType(Interpreter &in, const std::string &type) {
  if (type == "int") return Value::integer(0);
  if (type == "float") return Value::real(0);
  if (type == "str") return in.str("");
  if (type == "list") return in.list({});
  if (type == "tuple") return in.tuple({});
  if (type == "dict") return Value(make<DictObject>());
  if (type == "set") return Value(make<SetObject>());
  return std::nullopt;
}

std::optional<Value> unboundBuiltinDunder(Interpreter &in, ClassObject *cls, const std::string &name) {
  auto sample = sampleOfBuiltinType(in, cls->name);
  if (!sample || name == "__new__") return std::nullopt;
  if (name != "__init__" && !builtinDunder(in, *sample, name)) return std::nullopt;
  Ref<ClassObject> keep(cls);
  return in.native(name, [keep, name](Interpreter &in, Args a, const Kwargs &kw) -> Value {
    const Value self = a.empty() ? Value() : a[0];
    auto *inst = self.as<InstanceObject>();
    bool subclass = inst && inst->klass->isSubclassOf(keep.get());
    if (!subclass && (a.empty() || in.typeName(self) != keep->name))
      in.raise("TypeError", fmt::format("descriptor '{}' requires a '{}' object but received a '{}'", name, keep->name,
                                        a.empty() ? "NoneType" : in.typeName(self)));
    if (name == "__init__") {
      Value target = subclass ? inst->builtinValue : self;
      initBuiltinInPlace(in, keep.get(), target, a.subspan(1), kw);
      if (subclass) inst->builtinValue = target;
      return Value();
    }
    Value receiver = subclass && !inst->builtinValue.isNone() ? inst->builtinValue : self;
    auto m = builtinDunder(in, receiver, name);
    if (!m) in.raise("TypeError", fmt::format("descriptor '{}' of '{}' object needs an argument", name, keep->name));
    return in.call(*m, a.subspan(1), kw);
  });
}

// Binds a class attribute `name` found through an instance (or a class for classmethods).
Value bindDescriptor(Interpreter &in, const Value &attr, const Value &self, ClassObject *owner,
                     const std::string &name = "") {
  if (attr.as<FunctionObject>() || attr.as<NativeFunction>()) return make<BoundMethod>(self, attr);
  if (auto *p = attr.as<PropertyObject>()) {
    if (p->getter.isNone())
      in.raise("AttributeError", fmt::format("property '{}' of '{}' object has no getter", name, in.typeName(self)));
    Value args[] = {self};
    return in.call(p->getter, args);
  }
  if (auto *sm = attr.as<StaticMethodObject>()) return sm->func;
  if (auto *cm = attr.as<ClassMethodObject>()) return make<BoundMethod>(Value(Ref<Object>(owner)), cm->func);
  if (auto *d = attr.as<InstanceObject>()) {
    // A user descriptor: __get__(instance, owner).
    if (auto get = d->klass->lookup("__get__")) {
      Value args[] = {self, Value(in.typeOf(self))};
      return in.call(Value(make<BoundMethod>(attr, *get)), args);
    }
    return attr;
  }
  if (Object *o = attr.obj())
    if (auto b = o->bind(in, self)) return *b;
  return attr;
}

// A data descriptor (defines __set__ or __delete__) wins over the instance dict.
bool isDataDescriptor(const Value &attr) {
  if (attr.as<PropertyObject>() || attr.as<MemberDescriptor>()) return true;
  auto *d = attr.as<InstanceObject>();
  return d && (d->klass->lookup("__set__") || d->klass->lookup("__delete__"));
}

bool hasGetter(const Value &attr) {
  auto *d = attr.as<InstanceObject>();
  return !d || d->klass->lookup("__get__");
}

// A class attribute read through the class: functions stay plain,
// classmethods bind the class, descriptors get __get__(None, cls).
Value classAttribute(Interpreter &in, const Value &cls, const Value &v) {
  if (auto *sm = v.as<StaticMethodObject>()) return sm->func;
  if (auto *cm = v.as<ClassMethodObject>()) return Value(make<BoundMethod>(cls, cm->func));
  if (auto *d = v.as<InstanceObject>())
    if (auto get = d->klass->lookup("__get__")) {
      Value args[] = {Value(), cls};
      return in.call(Value(make<BoundMethod>(v, *get)), args);
    }
  return v;
}
Value functionDoc(Interpreter &in, const FunctionObject &fn) {
  if (!fn.def || fn.def->body.empty()) return Value();
  if (auto *es = llvm::dyn_cast<ast::ExprStmt>(fn.def->body[0].get()))
    if (auto *c = llvm::dyn_cast<ast::Constant>(es->value.get()); c && c->type == ast::Constant::Type::Str)
      return in.str(c->s);
  return Value();
}

// An instance without a __dict__ (every class of its MRO declares
// __slots__) takes no attribute its slots do not name.
void checkSlots(Interpreter &in, InstanceObject &inst, const std::string &name) {
  if (instancesHaveDict(inst.klass.get())) return;
  if (inst.klass->lookup(name))
    in.raise("AttributeError", fmt::format("'{}' object attribute '{}' is read-only", inst.klass->name, name));
  in.raise("AttributeError", fmt::format("'{}' object has no attribute '{}'", inst.klass->name, name));
}

// `cm.__enter__()` / `cm.__exit__(type, value, tb)` of a native context
// manager: the same enter/exit a `with` statement calls.
Value contextManagerMethod(Interpreter &in, const Value &obj, const std::string &name) {
  if (name == "__enter__")
    return in.native("__enter__", [obj](Interpreter &in, Args a, const Kwargs &kw) -> Value {
      in.bindArgs("__enter__", a, kw, {}, {});
      return *obj.obj()->enter(in);
    });
  return in.native("__exit__", [obj](Interpreter &in, Args a, const Kwargs &kw) -> Value {
    auto args = in.bindArgs("__exit__", a, kw, {"exc_type", "exc_value", "traceback"}, {Value(), Value(), Value()});
    return Value::boolean(obj.obj()->exit(in, !args[0].isNone()));
  });
}
}  // namespace

// object.__getattribute__ on an instance: data descriptors of the class,
// the instance's own attributes, other class attributes, the built-in part
// of a subclass of a built-in type, object's own slots; no __getattr__.
std::optional<Value> genericInstanceAttr(Interpreter &in, const Value &obj, const std::string &name) {
  auto *inst = obj.as<InstanceObject>();
  if (name == "__class__") return Value(inst->klass);
  if (name == "__dict__") {
    if (!instancesHaveDict(inst->klass.get())) return std::nullopt;
    return instanceDict(in, obj);
  }
  auto cattr = inst->klass->lookup(name);
  // A data descriptor without __get__ gives way to the instance's own value.
  if (cattr && isDataDescriptor(*cattr) && hasGetter(*cattr))
    return bindDescriptor(in, *cattr, obj, inst->klass.get(), name);
  auto it = inst->attrs.find(name);
  if (it != inst->attrs.end()) return it->second;
  if (cattr && !(cattr->as<NativeFunction>() && !inst->builtinValue.isNone()))
    return bindDescriptor(in, *cattr, obj, inst->klass.get(), name);
  if (inst->klass->isException && (name == "__cause__" || name == "__context__" || name == "__traceback__"))
    return Value();
  if (inst->klass->isException && name == "__suppress_context__") return Value::boolean(false);
  if (!inst->builtinValue.isNone()) {
    // d.fromkeys on an instance of a dict subclass makes the subclass, as D.fromkeys does.
    if (name == "fromkeys" && inst->builtinValue.as<DictObject>()) return dictFromKeysOf(in, Value(inst->klass));
    if (auto m = builtinMethod(in, inst->builtinValue, name)) return m;
    if (auto m = builtinDunder(in, inst->builtinValue, name)) return m;
  }
  if (cattr) return bindDescriptor(in, *cattr, obj, inst->klass.get(), name);
  if (auto slot = objectSlot(in, name)) return Value(make<BoundMethod>(obj, *slot));
  return std::nullopt;
}

std::optional<Value> Interpreter::getAttrOpt(const Value &obj, const std::string &name) {
  if (auto *inst = obj.as<InstanceObject>()) {
    // A user __getattribute__ answers every read; its AttributeError falls
    // back to __getattr__ (CPython's slot_tp_getattr_hook).
    if (auto gab = inst->klass->lookup("__getattribute__"); gab && !gab->as<NativeFunction>()) {
      Value args[] = {str(name)};
      auto ga = inst->klass->lookup("__getattr__");
      if (!ga) return call(Value(make<BoundMethod>(obj, *gab)), args);
      try {
        return call(Value(make<BoundMethod>(obj, *gab)), args);
      } catch (PyException &e) {
        if (!isInstance(e.exc, exceptionClass("AttributeError").get())) throw;
      }
      return call(Value(make<BoundMethod>(obj, *ga)), args);
    }
    auto ga = inst->klass->lookup("__getattr__");
    if (!ga) return genericInstanceAttr(*this, obj, name);
    // A property or descriptor raising AttributeError also falls back to __getattr__.
    try {
      if (auto v = genericInstanceAttr(*this, obj, name)) return v;
    } catch (PyException &e) {
      if (!isInstance(e.exc, exceptionClass("AttributeError").get())) throw;
    }
    Value args[] = {str(name)};
    return call(Value(make<BoundMethod>(obj, *ga)), args);
  }
  if (auto *cls = obj.as<ClassObject>()) {
    if (name == "__name__") return str(cls->name);
    if (name == "__module__" && !cls->module.empty()) return str(cls->module);
    if (name == "__class__") return Value(typeOf(obj));
    if (name == "__dict__") return classMappingProxy(*this, cls);
    if (name == "mro")
      return native("mro", [obj](Interpreter &in, Args, const Kwargs &) {
        std::vector<Value> m;
        for (auto *c : obj.as<ClassObject>()->mro) m.push_back(Value(Ref<Object>(c)));
        return in.list(std::move(m));
      });
    if (name == "__mro__") {
      std::vector<Value> m;
      for (auto *c : cls->mro) m.push_back(Value(Ref<Object>(c)));
      return tuple(m);
    }
    if (name == "__subclasses__")
      raise("NotImplementedError", "type.__subclasses__() is not supported by tfs (classes do not record their subclasses)");
    if (name == "__base__") return cls->bases.empty() ? Value() : Value(cls->bases[0]);
    if (name == "__bases__") {
      std::vector<Value> b;
      for (auto &c : cls->bases) b.push_back(Value(c));
      return tuple(b);
    }
    auto v = cls->lookup(name);
    if (cls->construct && name.size() > 4 && name.rfind("__", 0) == 0 && !cls->dict.count(name))
      if (auto unbound = unboundBuiltinDunder(*this, cls, name)) return unbound;
    if (!v && (cls->name == "bytes" || cls->name == "bytearray") && name == "fromhex" && cls->construct) {
      bool isMutable = cls->name == "bytearray";
      return native(name, [isMutable](Interpreter &in, Args a, const Kwargs &kw) { return bytesFromHex(in, a, kw, isMutable); });
    }
    if (!v && cls->name == "float" && name == "fromhex" && cls->construct)
      return native(name, [](Interpreter &in, Args a, const Kwargs &kw) { return floatFromHex(in, a, kw); });
    if (!v && cls->name == "int" && name == "from_bytes" && cls->construct)
      return native(name, [](Interpreter &in, Args a, const Kwargs &kw) { return intFromBytes(in, a, kw); });
    if (!v && name == "fromkeys" && (cls->name == "dict" ? cls->construct != nullptr : builtinBase(cls) && builtinBase(cls)->name == "dict"))
      return dictFromKeysOf(*this, obj);
    if (!v && cls->construct && name.rfind("__", 0) != 0) {
      // Unbound methods of built-in types (`str.lower`, `list.append`): bind
      // the first argument as the receiver.
      auto sample = cls->name == "int" || cls->name == "float" ? std::nullopt : sampleOfBuiltinType(*this, cls->name);
      if (sample && builtinMethod(*this, *sample, name)) {
        std::string typeName = cls->name;
        return native(name, [name, typeName](Interpreter &in, Args a, const Kwargs &kw) -> Value {
          // The receiver: a value of the type, or an instance of a subclass
          // of it (class D(dict): dict.keys(self)) through its built-in value.
          Value self = a.empty() ? Value() : a[0];
          if (auto *inst = self.as<InstanceObject>(); inst && !inst->builtinValue.isNone())
            self = inst->builtinValue;
          if (a.empty() || in.typeName(self) != typeName)
            in.raise("TypeError", fmt::format("descriptor '{}' for '{}' objects doesn't apply to a '{}' object", name,
                                              typeName, a.empty() ? "NoneType" : in.typeName(a[0])));
          auto m = builtinMethod(in, self, name);
          return in.call(*m, a.subspan(1), kw);
        });
      }
    }
    if (!v) {
      // The metaclass's attributes, bound to the class.
      if (cls->metaclass)
        if (auto m = cls->metaclass->lookup(name)) return bindDescriptor(*this, *m, obj, cls->metaclass.get());
      if (auto slot = objectSlot(*this, name)) return slot;
      if (name == "__module__") return str("builtins");
      if (name == "__qualname__") return str(cls->name);
      if (name == "__doc__" || name == "__annotations__") return name == "__doc__" ? Value() : Value(make<DictObject>());
      return std::nullopt;
    }
    return classAttribute(*this, obj, *v);
  }
  if (auto *s = obj.as<SuperObject>()) {
    ClassObject *start = s->start;
    Ref<ClassObject> t = typeOf(s->self);
    // super() in a classmethod walks the class's own MRO; in a metaclass
    // method (self is a class, start a metaclass), its type's.
    auto *selfCls = s->self.as<ClassObject>();
    const ClassObject *mroOwner = selfCls && selfCls->isSubclassOf(start) ? selfCls : t.get();
    bool after = false;
    for (ClassObject *c : mroOwner->mro) {
      if (after) {
        if (c->construct && c->name != "object" && c->name != "type" && builtinPart(s->self))
          if (auto m = builtinDunder(*this, s->self, name)) return m;
        auto it = c->dict.find(name);
        if (it != c->dict.end()) {
          if (selfCls && selfCls->isSubclassOf(start)) return classAttribute(*this, s->self, it->second);
          return bindDescriptor(*this, it->second, s->self, c);
        }
        if (c->construct && c->name != "object" && c->name != "type")
          if (const Value *b = builtinPart(s->self))
            if (auto m = builtinMethod(*this, *b, name)) return m;
      }
      if (c == start) after = true;
    }
    if (after)
      if (auto slot = objectSlot(*this, name)) return Value(make<BoundMethod>(s->self, *slot));
    return std::nullopt;
  }
  if (auto *m = obj.as<ModuleObject>()) {
    auto it = m->scope->vars.find(name);
    if (it != m->scope->vars.end()) return it->second;
    if (name == "__name__") return str(m->name);
    if (name == "__dict__") return scopeDict(*this, m->scope);
    if (m->lazy)
      if (auto v = m->lazy(*this, name)) {
        m->scope->vars[name] = *v;
        return v;
      }
    // PEP 562: a module-level __getattr__ answers names the module lacks.
    // A name the real module has (TF, numpy, the stdlib) is not a typo
    // (public_names.h), also when the module's __getattr__ says "no such
    // attribute". hasattr() and getattr(m, n, default) let this error
    // through: only an AttributeError means "absent".
    auto owner = publicNameOwner(m->name, name);
    if (auto g = m->scope->vars.find("__getattr__"); g != m->scope->vars.end() && name != "__getattr__")
    {
      Value arg = str(name);
      if (!owner) return call(g->second, Args(&arg, 1));
      try {
        return call(g->second, Args(&arg, 1));
      } catch (PyException &e) {
        if (!isInstance(e.exc, exceptionClass("AttributeError").get())) throw;
      }
    }
    if (owner) raise("NotImplementedError", fmt::format("{}.{} is not supported by tfs", *owner, name));
    return std::nullopt;
  }
  if (name == "__class__") return Value(typeOf(obj));
  if (auto *fn = obj.as<FunctionObject>()) {
    if (name == "__name__") return str(fn->name);
    if (name == "__qualname__") return str(fn->qualname);
    auto it = fn->attrs.find(name);
    if (it != fn->attrs.end()) return it->second;
    if (name == "__doc__") return functionDoc(*this, *fn);
    // An unannotated function's __annotations__ is made (and kept) on first use.
    if (name == "__annotations__") return fn->attrs[name] = Value(make<DictObject>());
    if (name == "__globals__" && fn->globals) return scopeDict(*this, fn->globals);
    if (auto v = functionCodeAttr(*this, *fn, name)) return v;
    if (name == "__module__") {
      auto m = fn->globals ? fn->globals->vars.find("__name__") : decltype(fn->globals->vars.end()){};
      return fn->globals && m != fn->globals->vars.end() ? m->second : Value();
    }
    if (name == "__dict__") {
      auto d = make<DictObject>();
      for (auto &[k, v] : fn->attrs)
        if (k != "__doc__" && k != "__module__" && k != "__annotations__") d->set(*this, str(k), v);
      return Value(d);
    }
    if (name == "__get__") {
      // functions are descriptors: f.__get__(obj) is the bound method
      return native("__get__", [obj](Interpreter &in, Args a, const Kwargs &) -> Value {
        if (a.empty() || a[0].isNone()) return obj;
        return Value(make<BoundMethod>(a[0], obj));
      });
    }
    return std::nullopt;
  }
  if (auto *nf = obj.as<NativeFunction>()) {
    if (name == "__name__" || name == "__qualname__") return str(nf->name);
    if (name == "__doc__") return Value();
  }
  if (auto *bm = obj.as<BoundMethod>()) {
    if (name == "__self__") return bm->self;
    if (name == "__func__") return bm->func;
    return getAttrOpt(bm->func, name);
  }
  if (Object *o = obj.obj()) {
    if (auto v = o->getAttr(*this, name)) return v;
    if (isNativeContextManager(*o) && (name == "__enter__" || name == "__exit__")) return contextManagerMethod(*this, obj, name);
  }
  if (auto m = builtinMethod(*this, obj, name)) return m;
  return builtinDunder(*this, obj, name);
}

Value Interpreter::getAttr(const Value &obj, const std::string &name) {
  if (auto v = getAttrOpt(obj, name)) return *v;
  // The error keeps `name` and `obj`, as CPython's does; an uncaught one
  // suggests a close name from them (suggestions.h).
  auto fail = [&](const std::string &message) {
    Value exc = newException(exceptionClass("AttributeError"), message);
    if (auto *inst = exc.as<InstanceObject>()) {
      inst->set("name", str(name));
      inst->set("obj", obj);
    }
    raiseValue(std::move(exc));
  };
  if (auto *m = obj.as<ModuleObject>()) fail(fmt::format("module '{}' has no attribute '{}'", m->name, name));
  if (auto *c = obj.as<ClassObject>()) fail(fmt::format("type object '{}' has no attribute '{}'", c->name, name));
  // CPython names the type by its tp_name, which for TF's C-extension
  // EagerTensor is the dotted path users know from TF's own error messages.
  std::string type = typeName(obj);
  if (type == "EagerTensor") type = "tensorflow.python.framework.ops.EagerTensor";
  fail(fmt::format("'{}' object has no attribute '{}'", type, name));
  std::abort();  // fail() raises
}

namespace {
// `obj.__class__ = cls`: CPython allows it between plain classes only.
void assignClass(Interpreter &in, InstanceObject *inst, const Value &v) {
  auto *cls = v.as<ClassObject>();
  if (!cls) in.raise("TypeError", fmt::format("__class__ must be set to a class, not '{}' object", in.typeName(v)));
  if (!inst || cls->construct || cls->dict.count("__builtin__") || builtinBase(cls) || builtinBase(inst->klass.get()) ||
      cls->isException != inst->klass->isException)
    in.raise("TypeError", "__class__ assignment only supported for mutable types or ModuleType subclasses");
  inst->klass = Ref<ClassObject>(cls);
}

// Why a value of a built-in type refuses `obj.name = v`.
[[noreturn]] void refuseBuiltinSetAttr(Interpreter &in, const Value &obj, const std::string &name) {
  std::string type = in.typeName(obj);
  if (auto cls = obj.as<ClassObject>())
    in.raise("TypeError", fmt::format("cannot set '{}' attribute of immutable type '{}'", name, cls->name));
  if (auto existing = in.getAttrOpt(obj, name)) {
    if (existing->as<NativeFunction>() || existing->as<BoundMethod>())
      in.raise("AttributeError", fmt::format("'{}' object attribute '{}' is read-only", type, name));
    in.raise("AttributeError", fmt::format("attribute '{}' of '{}' objects is not writable", name, type));
  }
  in.raise("AttributeError", fmt::format("'{}' object has no attribute '{}'", type, name));
}
}  // namespace

void setInstanceAttribute(Interpreter &in, const Value &obj, const std::string &name, const Value &v) {
  auto *inst = obj.as<InstanceObject>();
  if (auto cattr = inst->klass->lookup(name)) {
    if (auto *p = cattr->as<PropertyObject>()) {
      if (p->setter.isNone())
        in.raise("AttributeError", fmt::format("property '{}' of '{}' object has no setter", name, inst->klass->name));
      Value args[] = {obj, v};
      in.call(p->setter, args);
      return;
    }
    if (auto *m = cattr->as<MemberDescriptor>()) {
      m->set(in, obj, v);
      return;
    }
    if (auto *d = cattr->as<InstanceObject>()) {
      if (auto set = d->klass->lookup("__set__")) {
        Value args[] = {obj, v};
        in.call(Value(make<BoundMethod>(*cattr, *set)), args);
        return;
      }
      if (d->klass->lookup("__delete__")) in.raise("AttributeError", "__set__");
    }
  }
  checkSlots(in, *inst, name);
  inst->set(name, v);
}

void Interpreter::setAttr(const Value &obj, const std::string &name, const Value &v) {
  if (name == "__class__" && !obj.as<ClassObject>()) {
    assignClass(*this, obj.as<InstanceObject>(), v);
    return;
  }
  if (auto *inst = obj.as<InstanceObject>()) {
    // A class's own __setattr__ comes first: it decides about properties,
    // descriptors and __slots__ (object.__setattr__ applies them).
    if (auto sa = inst->klass->lookup("__setattr__"); sa && !sa->as<NativeFunction>()) {
      Value args[] = {str(name), v};
      call(Value(make<BoundMethod>(obj, *sa)), args);
      return;
    }
    setInstanceAttribute(*this, obj, name, v);
    return;
  }
  if (auto *cls = obj.as<ClassObject>()) {
    // A metaclass's own __setattr__ (enum's blocks reassigning a member).
    if (cls->metaclass)
      if (auto sa = cls->metaclass->lookup("__setattr__"); sa && !sa->as<NativeFunction>()) {
        Value args[] = {str(name), v};
        call(Value(make<BoundMethod>(obj, *sa)), args);
        return;
      }
    if (cls->construct || cls->dict.count("__builtin__")) refuseBuiltinSetAttr(*this, obj, name);
    if (name == "__name__" || name == "__qualname__") {
      auto *s = v.as<StrObject>();
      if (!s)
        raise("TypeError", fmt::format("can only assign string to {}.{}, not '{}'", cls->name, name, typeName(v)));
      if (name == "__name__") {
        cls->name = s->s;
        return;
      }
    }
    cls->setAttr(name, v);
    return;
  }
  if (auto *m = obj.as<ModuleObject>()) {
    m->scope->vars[name] = v;
    return;
  }
  if (auto *fn = obj.as<FunctionObject>()) {
    // functools.wraps renames a wrapper: __name__/__qualname__ are the
    // function's own fields, read by repr and tracebacks.
    if (name == "__name__" || name == "__qualname__") {
      auto *s = v.as<StrObject>();
      if (!s) raise("TypeError", fmt::format("{} must be set to a string object", name));
      (name == "__name__" ? fn->name : fn->qualname) = s->s;
      return;
    }
    if (name == "__annotations__" && !v.as<DictObject>())
      raise("TypeError", "__annotations__ must be set to a dict object");
    fn->attrs[name] = v;
    return;
  }
  if (Object *o = obj.obj())
    if (o->setAttr(*this, name, v)) return;
  refuseBuiltinSetAttr(*this, obj, name);
}

}  // namespace tfs::runtime

namespace tfs::runtime {

void Interpreter::delAttr(const Value &obj, const std::string &name) {
  if (auto *inst = obj.as<InstanceObject>()) {
    if (auto cattr = inst->klass->lookup(name)) {
      if (auto *p = cattr->as<PropertyObject>()) {
        if (p->deleter.isNone())
          raise("AttributeError", fmt::format("property '{}' of '{}' object has no deleter", name, inst->klass->name));
        Value args[] = {obj};
        call(p->deleter, args);
        return;
      }
      if (auto *m = cattr->as<MemberDescriptor>()) {
        m->erase(*this, obj);
        return;
      }
      if (auto *d = cattr->as<InstanceObject>()) {
        if (auto del = d->klass->lookup("__delete__")) {
          Value args[] = {obj};
          call(Value(make<BoundMethod>(*cattr, *del)), args);
          return;
        }
        if (d->klass->lookup("__set__")) raise("AttributeError", "__delete__");
      }
    }
    if (auto da = inst->klass->lookup("__delattr__"); da && !da->as<NativeFunction>()) {
      Value args[] = {str(name)};
      call(Value(make<BoundMethod>(obj, *da)), args);
      return;
    }
    if (inst->attrs.erase(name)) return;
    raise("AttributeError", fmt::format("'{}' object has no attribute '{}'", inst->klass->name, name));
  }
  if (auto *cls = obj.as<ClassObject>()) {
    if (cls->metaclass)
      if (auto da = cls->metaclass->lookup("__delattr__"); da && !da->as<NativeFunction>()) {
        Value args[] = {str(name)};
        call(Value(make<BoundMethod>(obj, *da)), args);
        return;
      }
    if (cls->construct || cls->dict.count("__builtin__"))
      raise("TypeError", fmt::format("cannot set '{}' attribute of immutable type '{}'", name, cls->name));
    if (cls->dict.erase(name)) {
      bumpClassEpoch();
      std::erase_if(cls->dictOrder, [&](auto &kv) { return kv.first == name; });
      return;
    }
    raise("AttributeError", fmt::format("type object '{}' has no attribute '{}'", cls->name, name));
  }
  if (auto *m = obj.as<ModuleObject>()) {
    if (m->scope->vars.erase(name)) return;
    raise("AttributeError", fmt::format("module '{}' has no attribute '{}'", m->name, name));
  }
  if (auto *fn = obj.as<FunctionObject>(); fn && fn->attrs.erase(name)) return;
  raise("AttributeError", fmt::format("'{}' object has no attribute '{}'", typeName(obj), name));
}

}  // namespace tfs::runtime
