// The native side of tf.keras (keras_native.cpp): registers the
// `_keras_native` helper module and `import keras`.
#pragma once

#include "runtime/interp/interpreter.h"

namespace tfs::runtime::tf {

void registerKerasModules();
// `_keras_hdf5`: HDF5 files as nested dicts (saving/hdf5_native.cpp).
Value makeKerasHdf5(Interpreter &in);

}  // namespace tfs::runtime::tf
