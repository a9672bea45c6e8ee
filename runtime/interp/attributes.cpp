// Attribute access: instances (own dict, then the class MRO with
// descriptors: functions bind, property calls its getter, staticmethod /
// classmethod), classes, super(), modules (with lazy attributes), methods
// of built-in types, and native objects' getAttr hook.
#include "runtime/interp/builtins.h"
#include "runtime/interp/interpreter.h"

#include <fmt/format.h>

namespace tfs::runtime {

namespace {
// Binds a class attribute found through an instance (or a class for classmethods).
Value bindDescriptor(Interpreter &in, const Value &attr, const Value &self, ClassObject *owner) {
  if (attr.as<FunctionObject>() || attr.as<NativeFunction>()) return make<BoundMethod>(self, attr);
  if (auto *p = attr.as<PropertyObject>()) {
    Value args[] = {self};
    return in.call(p->getter, args);
  }
  if (auto *sm = attr.as<StaticMethodObject>()) return sm->func;
  if (auto *cm = attr.as<ClassMethodObject>()) return make<BoundMethod>(Value(Ref<Object>(owner)), cm->func);
  if (Object *o = attr.obj())
    if (auto b = o->bind(in, self)) return *b;
  return attr;
}
}  // namespace

std::optional<Value> Interpreter::getAttrOpt(const Value &obj, const std::string &name) {
  if (auto *inst = obj.as<InstanceObject>()) {
    if (name == "__class__") return Value(inst->klass);
    if (name == "__dict__") {
      auto d = make<DictObject>();
      for (auto &k : inst->attrOrder)
        if (inst->attrs.count(k)) d->set(*this, str(k), inst->attrs[k]);
      return Value(d);
    }
    auto cattr = inst->klass->lookup(name);
    if (cattr && cattr->as<PropertyObject>()) return bindDescriptor(*this, *cattr, obj, inst->klass.get());
    auto it = inst->attrs.find(name);
    if (it != inst->attrs.end()) return it->second;
    if (cattr) return bindDescriptor(*this, *cattr, obj, inst->klass.get());
    if (inst->klass->isException && (name == "__cause__" || name == "__context__")) return Value();
    if (auto ga = inst->klass->lookup("__getattr__")) {
      Value args[] = {str(name)};
      return call(Value(make<BoundMethod>(obj, *ga)), args);
    }
    return std::nullopt;
  }
  if (auto *cls = obj.as<ClassObject>()) {
    if (name == "__name__") return str(cls->name);
    if (name == "__mro__") {
      std::vector<Value> m;
      for (auto *c : cls->mro) m.push_back(Value(Ref<Object>(c)));
      return tuple(m);
    }
    if (name == "__bases__") {
      std::vector<Value> b;
      for (auto &c : cls->bases) b.push_back(Value(c));
      return tuple(b);
    }
    auto v = cls->lookup(name);
    if (!v && cls->name == "dict" && name == "fromkeys" && cls->construct) {
      return native(name, [](Interpreter &in, Args a, const Kwargs &) -> Value {
        if (a.empty() || a.size() > 2)
          in.raise("TypeError", fmt::format("fromkeys expected at least 1 argument, got {}", a.size()));
        auto d = make<DictObject>();
        for (auto &k : in.toList(a[0])) d->set(in, k, a.size() > 1 ? a[1] : Value());
        return Value(d);
      });
    }
    if (!v && cls->construct && name.rfind("__", 0) != 0) {
      // Unbound methods of built-in types (`str.lower`, `list.append`): bind
      // the first argument as the receiver.
      static const std::unordered_map<std::string, std::function<Value(Interpreter &)>> samples = {
          {"str", [](Interpreter &in) { return in.str(""); }},
          {"list", [](Interpreter &in) { return in.list({}); }},
          {"tuple", [](Interpreter &in) { return in.tuple({}); }},
          {"dict", [](Interpreter &) { return Value(make<DictObject>()); }},
          {"set", [](Interpreter &) { return Value(make<SetObject>()); }}};
      auto sample = samples.find(cls->name);
      if (sample != samples.end() && builtinMethod(*this, sample->second(*this), name)) {
        std::string typeName = cls->name;
        return native(name, [name, typeName](Interpreter &in, Args a, const Kwargs &kw) -> Value {
          if (a.empty() || in.typeName(a[0]) != typeName)
            in.raise("TypeError", fmt::format("descriptor '{}' for '{}' objects doesn't apply to a '{}' object", name,
                                              typeName, a.empty() ? "NoneType" : in.typeName(a[0])));
          auto m = builtinMethod(in, a[0], name);
          return in.call(*m, a.subspan(1), kw);
        });
      }
    }
    if (!v) return std::nullopt;
    if (auto *sm = v->as<StaticMethodObject>()) return sm->func;
    if (auto *cm = v->as<ClassMethodObject>()) return Value(make<BoundMethod>(obj, cm->func));
    return v;
  }
  if (auto *s = obj.as<SuperObject>()) {
    ClassObject *start = s->start;
    Ref<ClassObject> t = typeOf(s->self);
    const ClassObject *mroOwner = s->self.as<ClassObject>() ? s->self.as<ClassObject>() : t.get();
    bool after = false;
    for (ClassObject *c : mroOwner->mro) {
      if (after) {
        auto it = c->dict.find(name);
        if (it != c->dict.end()) return bindDescriptor(*this, it->second, s->self, c);
      }
      if (c == start) after = true;
    }
    return std::nullopt;
  }
  if (auto *m = obj.as<ModuleObject>()) {
    auto it = m->scope->vars.find(name);
    if (it != m->scope->vars.end()) return it->second;
    if (name == "__name__") return str(m->name);
    if (m->lazy)
      if (auto v = m->lazy(*this, name)) {
        m->scope->vars[name] = *v;
        return v;
      }
    return std::nullopt;
  }
  if (auto *fn = obj.as<FunctionObject>()) {
    if (name == "__name__") return str(fn->name);
    if (name == "__qualname__") return str(fn->qualname);
    auto it = fn->attrs.find(name);
    if (it != fn->attrs.end()) return it->second;
    return std::nullopt;
  }
  if (auto *nf = obj.as<NativeFunction>(); nf && name == "__name__") return str(nf->name);
  if (auto *bm = obj.as<BoundMethod>()) {
    if (name == "__self__") return bm->self;
    if (name == "__func__") return bm->func;
    return getAttrOpt(bm->func, name);
  }
  if (Object *o = obj.obj()) {
    if (auto v = o->getAttr(*this, name)) return v;
  }
  return builtinMethod(*this, obj, name);
}

Value Interpreter::getAttr(const Value &obj, const std::string &name) {
  if (auto v = getAttrOpt(obj, name)) return *v;
  if (auto *m = obj.as<ModuleObject>())
    raise("AttributeError", fmt::format("module '{}' has no attribute '{}'", m->name, name));
  if (auto *c = obj.as<ClassObject>())
    raise("AttributeError", fmt::format("type object '{}' has no attribute '{}'", c->name, name));
  // CPython names the type by its tp_name, which for TF's C-extension
  // EagerTensor is the dotted path users know from TF's own error messages.
  std::string type = typeName(obj);
  if (type == "EagerTensor") type = "tensorflow.python.framework.ops.EagerTensor";
  raise("AttributeError", fmt::format("'{}' object has no attribute '{}'", type, name));
}

void Interpreter::setAttr(const Value &obj, const std::string &name, const Value &v) {
  if (auto *inst = obj.as<InstanceObject>()) {
    if (auto cattr = inst->klass->lookup(name)) {
      if (auto *p = cattr->as<PropertyObject>()) {
        if (p->setter.isNone()) raise("AttributeError", fmt::format("can't set attribute '{}'", name));
        Value args[] = {obj, v};
        call(p->setter, args);
        return;
      }
    }
    if (auto sa = inst->klass->lookup("__setattr__"); sa && !sa->as<NativeFunction>()) {
      Value args[] = {str(name), v};
      call(Value(make<BoundMethod>(obj, *sa)), args);
      return;
    }
    inst->set(name, v);
    return;
  }
  if (auto *cls = obj.as<ClassObject>()) {
    cls->setAttr(name, v);
    return;
  }
  if (auto *m = obj.as<ModuleObject>()) {
    m->scope->vars[name] = v;
    return;
  }
  if (auto *fn = obj.as<FunctionObject>()) {
    fn->attrs[name] = v;
    return;
  }
  if (Object *o = obj.obj())
    if (o->setAttr(*this, name, v)) return;
  raise("AttributeError", fmt::format("'{}' object has no attribute '{}'", typeName(obj), name));
}

}  // namespace tfs::runtime
