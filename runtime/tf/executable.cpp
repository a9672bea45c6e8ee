// Executable (executable.h).
#include "runtime/tf/executable.h"

#include "runtime/tf/tf.h"

namespace tfs::runtime::tf {

namespace {
OptimizedFunction timedOptimize(const ir::Function &traced, Profiler *profiler) {
  PhaseTimer timer(profiler, Phase::Optimize);
  return optimizeForExecution(traced);
}
}  // namespace

Executable::Executable(const ir::Function &traced, Profiler *profiler)
    : optimized_(timedOptimize(traced, profiler)) {}

std::vector<Tensor> Executable::run(Interpreter &in, std::span<const Tensor> args) {
  VariableRunContext rc(in);
  try {
    if (in.options().backend == Backend::Jit) {
      if (!compiled_) {
        PhaseTimer timer(in.profiler(), Phase::Compile);
        compiled_ = codegen::compile(*optimized_.fn);
      }
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
