// Host callbacks: functions of the embedding program that a graph node calls
// when it runs (tf.py_function / numpy_function call back into the
// interpreter). A node names its callback by the id registerHostCallback
// returned; callbacks live for the process, as the graphs holding them may.
#pragma once

#include "runtime/tensor/tensor.h"

#include <functional>
#include <span>
#include <vector>

namespace tfs::runtime {

using HostCallback = std::function<std::vector<Tensor>(std::span<const Tensor>)>;

int64_t registerHostCallback(HostCallback callback);
// The callback `id` names; throws ir::OpError (InternalError) for an unknown id.
HostCallback hostCallback(int64_t id);

}  // namespace tfs::runtime
