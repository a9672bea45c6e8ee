// BaseExceptionGroup and ExceptionGroup (PEP 654): built-in names written
// in Python (lib/python/builtins/_exception_group.tfs), bound into the
// builtins the first time something needs them (a script naming one, an
// except* statement), so that a run that never does pays nothing for them.
#pragma once

#include "runtime/interp/interpreter.h"

#include <string>

namespace tfs::runtime {

// Binds both classes when `name` is one of them and they are not bound yet;
// whether `name` is one of them (bound now).
bool bindExceptionGroups(Interpreter &in, const std::string &name);
// BaseExceptionGroup when bound (no exception group can exist before), else
// null.
ClassObject *boundBaseExceptionGroup(Interpreter &in);

}  // namespace tfs::runtime
