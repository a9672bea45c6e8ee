// The native side of tf.keras (keras_native.cpp): registers the
// `_keras_native` helper module and `import keras`.
#pragma once

namespace tfs::runtime::tf {

void registerKerasModules();

}  // namespace tfs::runtime::tf
