// The host callbacks of tf.py_function nodes, for a SavedModel
// (py_function.cpp).
#pragma once

#include "lib/tf/tf_lib.h"

#include <optional>
#include <vector>

namespace tfs::runtime::tf {

// The Python callable of a py_function node's host callback (none for an
// id this process did not make).
std::optional<Value> pyFunctionCallable(int64_t id);
// A new callback calling `func`, its results converted to `dtypes`: a
// py_function node remade by a SavedModel load.
int64_t registerPyFunction(Interpreter &in, const Value &func, const std::vector<DType> &dtypes);

}  // namespace tfs::runtime::tf
