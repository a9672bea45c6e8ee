// OSError(errno, strerror[, filename]) called on OSError itself makes an
// instance of the subclass CPython picks for that errno
// (OSError(2, 'x') is a FileNotFoundError); exceptions.cpp.
#pragma once

#include "runtime/interp/interpreter.h"

namespace tfs::runtime {

// The class an instance of `cls` built from `args` has: the errno's
// subclass when `cls` is OSError itself and args are (int errno, x, ...);
// `cls` otherwise.
ClassObject *osErrorClassFor(Interpreter &in, ClassObject *cls, Args args);

}  // namespace tfs::runtime
