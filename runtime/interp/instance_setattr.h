// object.__setattr__ on an instance: a data descriptor's setter (property,
// __slots__ member, __set__), else the instance's own attribute after the
// __slots__ check. The class's own __setattr__ is not consulted (it is the
// one calling this, through super() or object.__setattr__). attributes.cpp.
#pragma once

#include "runtime/interp/interpreter.h"

#include <string>

namespace tfs::runtime {

void setInstanceAttribute(Interpreter &in, const Value &obj, const std::string &name, const Value &v);

}  // namespace tfs::runtime
