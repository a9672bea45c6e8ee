// zip(*iterables, strict=False) (zip_builtin.cpp).
#pragma once

#include "runtime/interp/interpreter.h"

namespace tfs::runtime {

Value makeZip(Interpreter &in, Args a, const Kwargs &kw);

}  // namespace tfs::runtime
