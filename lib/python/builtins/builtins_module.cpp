// `import builtins`: the module whose namespace is the interpreter's own
// built-in scope, as CPython's (builtins.print is print; a name set on it
// is seen by every module, as a built-in).
#include "lib/python/python_modules.h"
#include "runtime/interp/exception_group.h"
#include "runtime/interp/interpreter.h"

namespace tfs::runtime {

void registerBuiltinsModule() {
  Interpreter::registerNativeModule("builtins", [](Interpreter &in) {
    auto m = make<ModuleObject>("builtins");
    m->scope = in.builtins();
    // Built-in names bound on first use (runtime/interp/exception_group.h):
    // builtins.ExceptionGroup is one.
    bindExceptionGroups(in, "ExceptionGroup");
    return Value(m);
  });
}

}  // namespace tfs::runtime
