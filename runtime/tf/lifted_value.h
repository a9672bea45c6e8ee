// The value of a graph value computed by ops TF can lift out of a function
// (tf.Variable's initial value on a tf.function's first trace): as
// constantValue (tf.h), plus random draws, each the first of its seeds'
// stream (TF runs a lifted copy of the op, a new kernel). static_value.cpp.
#pragma once

#include "runtime/tf/tf.h"

#include <optional>

namespace tfs::runtime::tf {

std::optional<Tensor> liftedValue(const ir::Value *v);

}  // namespace tfs::runtime::tf
