// `_types`: the constructors CPython's types module exposes for built-in
// types that have no builtin name, under types.tfs. MappingProxyType(m) is
// the read-only view a class's __dict__ is (mapping_proxy.cpp). MethodType(func, obj)
// binds a function to an object (monkey-patching a method onto one
// instance); ModuleType(name, doc=None) makes an empty module object. Both
// are the very classes type() reports for bound methods and modules, so
// isinstance agrees.
#include "lib/python/python_modules.h"
#include "runtime/interp/builtins.h"
#include "runtime/interp/interpreter.h"
#include "runtime/interp/signature.h"

#include <fmt/format.h>

namespace tfs::runtime {

namespace {

Value makeTypesCore(Interpreter &in) {
  auto m = make<ModuleObject>("_types");
  auto &vars = m->scope->vars;

  // A bound method's class (type(obj.method)), made callable.
  auto probe = in.native("_probe", [](Interpreter &, Args, const Kwargs &) { return Value(); });
  Ref<ClassObject> method = in.typeOf(Value(make<BoundMethod>(Value(), probe)));
  method->construct = [](Interpreter &in, Args a, const Kwargs &kw) -> Value {
    if (!kw.empty()) in.raise("TypeError", "method() takes no keyword arguments");
    if (a.size() != 2) in.raise("TypeError", fmt::format("method expected 2 arguments, got {}", a.size()));
    std::vector<Value> fn{a[0]};
    if (!in.truth(in.call(in.builtin("callable"), fn))) in.raise("TypeError", "first argument must be callable");
    if (a[1].isNone()) in.raise("TypeError", "instance must not be None");
    return Value(make<BoundMethod>(a[1], a[0]));
  };
  vars["MethodType"] = Value(method);

  Ref<ClassObject> module = in.typeOf(Value(m));
  module->construct = [](Interpreter &in, Args a, const Kwargs &kw) -> Value {
    static const Signature sig("module(name, doc=None)");
    Bound b = sig.bind(in, a, kw);
    auto *name = b["name"].as<StrObject>();
    if (!name) in.raise("TypeError", fmt::format("module() argument 'name' must be str, not {}", in.typeName(b["name"])));
    auto made = make<ModuleObject>(name->s);
    made->scope->vars["__name__"] = b["name"];
    made->scope->vars["__doc__"] = b["doc"];
    return Value(made);
  };
  vars["ModuleType"] = Value(module);

  // The class of a class's __dict__ (mappingproxy), made callable.
  Ref<ClassObject> proxy = in.typeOf(classMappingProxy(in, module.get()));
  proxy->construct = [](Interpreter &in, Args a, const Kwargs &kw) -> Value {
    static const Signature sig("mappingproxy(mapping)");
    return newMappingProxy(in, sig.bind(in, a, kw)["mapping"]);
  };
  vars["MappingProxyType"] = Value(proxy);
  return Value(m);
}

}  // namespace

void registerTypesCoreModule() { Interpreter::registerNativeModule("_types", makeTypesCore); }

}  // namespace tfs::runtime
