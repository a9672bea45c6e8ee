// Executable (executable.h).
#include "runtime/tf/executable.h"

#include "runtime/tf/tf.h"

namespace tfs::runtime::tf {

Executable::Executable(const ir::Function &traced)
    : optimized_(optimizeForExecution(traced)) {}

std::vector<Tensor> Executable::run(Interpreter &in, std::span<const Tensor> args) {
  VariableRunContext rc(in);
  try {
    if (in.options().backend == Backend::Jit) {
      if (!compiled_)
        compiled_ = codegen::compile(*optimized_.fn);
      return codegen::runCompiled(*compiled_, args, rc);
    }
    return runFunction(*optimized_.fn, args, rc);
  } catch (const GraphRunError &e) {
    raiseGraphError(in, e);
  } catch (const ir::OpError &e) {
    raiseOpError(in, e);
  }
}

}  // namespace tfs::runtime::tf
