// `tfs --version` (cli.h): the commit comes from the build (cmake/version.cmake).
#include "runtime/kernels/gemm.h"
#include "tools/cli.h"

#include "tfs_version_info.h"

#include <fmt/format.h>
#include <llvm/Config/llvm-config.h>

namespace tfs::tools {

std::string versionText() {
  // The kernels of the float products: oneDNN's for tf's float32 GEMM (Note
  // [float32 GEMM]), and those OpenBLAS chose for this CPU for float64 and
  // numpy (Note [OpenBLAS core type]): benchmarks and last-bit comparisons
  // are read against them.
  return fmt::format("tfs {} (commit {})\n"
                     "LLVM {}\n"
                     "float32 GEMM: {}\n"
                     "OpenBLAS kernels (float64, numpy): {}\n"
                     "follows TensorFlow 2.15 and Keras 2.15 (tf.keras), Python 3.11, numpy 1.24\n",
                     TFS_VERSION, TFS_GIT_COMMIT, LLVM_VERSION_STRING, runtime::kernels::floatGemmName(),
                     runtime::kernels::blasCoreName());
}

}  // namespace tfs::tools
