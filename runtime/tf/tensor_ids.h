// Counting the tensors a script has made, numpy arrays apart: TensorFlow
// fixes its logical devices when its runtime starts (the first TF tensor),
// and numpy arrays, which share tfs's tensor objects and ids, must not
// count as that start (lib/tf/tf_module.cpp: runtimeStarted()).
#pragma once

#include <cstdint>

namespace tfs::runtime::tf {

// A numpy ndarray object took an id (wrap(t, numpy=true), views).
void noteNdarrayId();
// Ids taken so far by everything but numpy arrays.
int64_t nonNdarrayIdsTaken();

}  // namespace tfs::runtime::tf
