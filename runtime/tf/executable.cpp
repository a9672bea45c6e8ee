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

Executable::~Executable() = default;

VariableRunContext &Executable::runContext(Interpreter &in) {
  if (!rc_ || &rc_->in != &in) rc_ = std::make_unique<VariableRunContext>(in);
  rc_->profiler = in.profiler();
  return *rc_;
}

std::vector<Tensor> Executable::run(Interpreter &in, std::span<const Tensor> args) { return runWith(in, args); }
std::vector<Tensor> Executable::run(Interpreter &in, std::vector<Tensor> &&args) {
  return runWith(in, std::move(args));
}
std::vector<Tensor> Executable::runTaking(Interpreter &in, std::span<Tensor> args) { return runWith(in, args); }

Tensor Executable::runTakingOne(Interpreter &in, std::span<Tensor> args, size_t index) {
  if (in.options().backend != Backend::Jit || !compiled_) return std::move(runTaking(in, args).at(index));
  VariableRunContext &rc = runContext(in);
  try {
    return codegen::runCompiledTakingOne(*compiled_, args, index, rc);
  } catch (const GraphRunError &e) {
    raiseGraphError(in, e);
  } catch (const ir::OpError &e) {
    raiseOpError(in, e);
  }
}

std::vector<Tensor> Executable::runCompiledCode(std::span<const Tensor> args, RunContext &rc) {
  return codegen::runCompiled(*compiled_, args, rc);
}
std::vector<Tensor> Executable::runCompiledCode(std::vector<Tensor> &&args, RunContext &rc) {
  return codegen::runCompiled(*compiled_, std::move(args), rc);
}
std::vector<Tensor> Executable::runCompiledCode(std::span<Tensor> args, RunContext &rc) {
  return codegen::runCompiledTaking(*compiled_, args, rc);
}

template <class Args> std::vector<Tensor> Executable::runWith(Interpreter &in, Args &&args) {
  VariableRunContext &rc = runContext(in);
  try {
    if (in.options().backend == Backend::Jit) {
      if (!compiled_) {
        PhaseTimer timer(in.profiler(), Phase::Compile);
        compiled_ = codegen::compile(*optimized_.fn);
      }
      return runCompiledCode(std::forward<Args>(args), rc);
    }
    return runFunction(*optimized_.fn, std::span<const Tensor>(args), rc);
  } catch (const GraphRunError &e) {
    raiseGraphError(in, e);
  } catch (const ir::OpError &e) {
    raiseOpError(in, e);
  }
}

}  // namespace tfs::runtime::tf
