// `tfs --version` (cli.h): the commit comes from the build (cmake/version.cmake).
#include "runtime/kernels/gemm.h"
#include "tools/cli.h"

#include "tfs_version_info.h"

#include <fmt/format.h>
#include <llvm/Config/llvm-config.h>

namespace tfs::tools {

std::string versionText() {
  // The OpenBLAS kernels OpenBLAS chose for this CPU (Note [OpenBLAS core
  // type]): benchmarks and numpy comparisons are read against them.
  return fmt::format("tfs {} (commit {})\n"
                     "LLVM {}\n"
                     "OpenBLAS kernels: {}\n"
                     "follows TensorFlow 2.15 and Keras 2.15 (tf.keras), Python 3.11, numpy 1.24\n",
                     TFS_VERSION, TFS_GIT_COMMIT, LLVM_VERSION_STRING, runtime::kernels::blasCoreName());
}

}  // namespace tfs::tools
