// converted_call (autograph_convert.cpp): calls `f` as AutoGraph does from
// converted code: a user function or lambda runs converted (once per
// definition), a tf.function wrapper's Python function likewise, anything
// else as it is.
#pragma once

#include "runtime/interp/interpreter.h"

namespace tfs::runtime::tf {

Value callConverted(Interpreter &in, const Value &f, Args args, const Kwargs &kwargs);

}  // namespace tfs::runtime::tf
