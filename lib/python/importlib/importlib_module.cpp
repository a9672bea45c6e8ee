// `importlib`: import_module(name) imports a module by its dotted name.
#include "lib/python/python_modules.h"
#include "runtime/interp/interpreter.h"
#include "runtime/interp/signature.h"

namespace tfs::runtime {

namespace {
Value makeImportlibModule(Interpreter &in) {
  auto m = make<ModuleObject>("importlib");
  m->scope->vars["import_module"] =
      nativeWithSignature(in, "import_module(name, package=!None)", [](Interpreter &in, const Bound &a) -> Value {
        auto *s = a["name"].as<StrObject>();
        if (!s) in.raise("TypeError", "the 'name' argument must be str");
        if (!s->s.empty() && s->s[0] == '.')
          in.raise("NotImplementedError", "relative imports are not supported by tfs");
        return in.importModule(s->s);
      });
  return Value(m);
}
}  // namespace

void registerImportlibModule() { Interpreter::registerNativeModule("importlib", makeImportlibModule); }

}  // namespace tfs::runtime
