// The variable store of a method decorated with Keras's
// tf.compat.v1.keras.utils.track_tf1_style_variables: while one is set,
// tf.compat.v1.get_variable asks it (store.get_variable(full_name, ...))
// instead of the graph-wide store, as Keras's _EagerVariableStore does.
#pragma once

#include "runtime/interp/interpreter.h"

namespace tfs::runtime::tf {

// Installs `store` (an object with a get_variable method, or None);
// returns the previous one.
Value setV1VariableStore(Interpreter &in, const Value &store);

}  // namespace tfs::runtime::tf
