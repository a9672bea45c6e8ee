// The prelude: parts of the `tf` API written in the .tfs language itself
// (lib/**/*.tfs, embedded at build time). A file's name is the
// dotted name of the module it defines: `_tf_module.tfs` defines the private
// module `_tf_module`, `tensorflow.keras.tfs` would define `tensorflow.keras`.
#pragma once

#include <string>
#include <vector>

namespace tfs::runtime::tf {

struct PreludeSource {
  const char *name;  // dotted module name, e.g. "_tf_keras"
  const char *text;  // .tfs source
};

const std::vector<PreludeSource> &preludeSources();

}  // namespace tfs::runtime::tf
