// `import builtins`: the module whose namespace is the interpreter's own
// built-in scope, as CPython's (builtins.print is print; a name set on it
// is seen by every module, as a built-in).
#include "lib/python/python_modules.h"
#include "runtime/interp/interpreter.h"

namespace tfs::runtime {

void registerBuiltinsModule() {
  Interpreter::registerNativeModule("builtins", [](Interpreter &in) {
    auto m = make<ModuleObject>("builtins");
    m->scope = in.builtins();
    return Value(m);
  });
  // BaseExceptionGroup and ExceptionGroup (PEP 654) are written in Python
  // (_exception_group.tfs) and bound as built-in names of every run.
  Interpreter::registerBuiltins([](Interpreter &in, Scope &builtins) {
    Value groups = in.importModule("_exception_group");
    for (const char *name : {"BaseExceptionGroup", "ExceptionGroup"})
      builtins.vars[name] = in.getAttr(groups, name);
  });
}

}  // namespace tfs::runtime
