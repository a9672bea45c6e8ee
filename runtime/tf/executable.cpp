// Executable (executable.h).
#include "runtime/tf/executable.h"

#include "ir/text.h"
#include "runtime/tf/tf.h"

namespace tfs::runtime::tf {

namespace {
OptimizedFunction timedOptimize(const ir::Function &traced, Profiler *profiler) {
  PhaseTimer timer(profiler, Phase::Optimize);
  return optimizeForExecution(traced);
}
}  // namespace

Executable::Executable(const ir::Function &traced, Profiler *profiler)
    : optimized_(timedOptimize(traced, profiler)) {
  for (ir::Value *p : optimized_.fn->params())
    if (p->type.shape.ranked && !p->type.shape.fullyDefined()) specializable_ = true;
}

Executable::Specialization *Executable::specializationFor(Interpreter &in, std::span<const Tensor> args) {
  if (!specializable_ || args.size() != optimized_.fn->params().size()) return nullptr;
  for (const auto &s : specializations_) {
    bool same = true;
    for (size_t i = 0; i < args.size() && same; ++i) same = args[i].shape() == s->shapes[i];
    if (same) return s.get();
  }
  if (specializations_.size() >= kMaxSpecializations) return nullptr;
  auto s = std::make_unique<Specialization>();
  std::vector<ir::Shape> shapes;
  for (size_t i = 0; i < args.size(); ++i) {
    s->shapes.push_back(args[i].shape());
    ir::Shape concrete(args[i].shape());
    // An argument that is no instance of the parameter's shape gets the
    // generic code (and its error).
    if (!optimized_.fn->param(unsigned(i))->type.shape.isCompatibleWith(concrete)) return nullptr;
    shapes.push_back(concrete);
  }
  {
    PhaseTimer timer(in.profiler(), Phase::Optimize);
    s->optimized = optimizeForShapes(*optimized_.fn, shapes);
  }
  reportSpecialization(in, *s);
  specializations_.push_back(std::move(s));
  return specializations_.back().get();
}

// --emit=graph-opt: the trace's header, the shapes, the graph.
void Executable::reportSpecialization(Interpreter &in, const Specialization &s) const {
  const RunOptions &o = in.options();
  if (!o.emitGraph || !reportHeader_) return;
  std::string out;
  for (const std::string &line : *reportHeader_) out += "// " + line + "\n";
  std::string shapes;
  for (const auto &dims : s.shapes) shapes += (shapes.empty() ? "" : ", ") + ir::Shape(dims).tfString();
  out += "// specialized for the argument shapes " + shapes + " (what runs for them)\n";
  writeEmitted(o, out + ir::printModule(*s.optimized.module, {.printLoc = o.printLoc}));
}

void Executable::labelForProfile(Interpreter &in, const ir::Function &runs) {
  if (in.profilingOps() && !profileLabel_.empty()) in.profiler()->labelFunction(runs, profileLabel_);
}

const codegen::CompiledFunction &Executable::compiledFor(Interpreter &in, std::span<const Tensor> args) {
  if (Specialization *s = specializationFor(in, args)) {
    labelForProfile(in, *s->optimized.fn);
    if (!s->compiled) {
      PhaseTimer timer(in.profiler(), Phase::Compile);
      s->compiled = codegen::compile(*s->optimized.fn);
    }
    return *s->compiled;
  }
  labelForProfile(in, *optimized_.fn);
  if (!compiled_) {
    PhaseTimer timer(in.profiler(), Phase::Compile);
    compiled_ = codegen::compile(*optimized_.fn);
  }
  return *compiled_;
}

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
  if (in.options().backend != Backend::Jit) return std::move(runTaking(in, args).at(index));
  VariableRunContext &rc = runContext(in);
  try {
    const codegen::CompiledFunction &code = compiledFor(in, std::span<const Tensor>(args.data(), args.size()));
    return codegen::runCompiledTakingOne(code, args, index, rc);
  } catch (const GraphRunError &e) {
    raiseGraphError(in, e);
  } catch (const ir::OpError &e) {
    raiseOpError(in, e);
  }
}

std::vector<Tensor> Executable::runCompiledCode(const codegen::CompiledFunction &code, std::span<const Tensor> args,
                                                RunContext &rc) {
  return codegen::runCompiled(code, args, rc);
}
std::vector<Tensor> Executable::runCompiledCode(const codegen::CompiledFunction &code, std::vector<Tensor> &&args,
                                                RunContext &rc) {
  return codegen::runCompiled(code, std::move(args), rc);
}
std::vector<Tensor> Executable::runCompiledCode(const codegen::CompiledFunction &code, std::span<Tensor> args,
                                                RunContext &rc) {
  return codegen::runCompiledTaking(code, args, rc);
}

template <class Args> std::vector<Tensor> Executable::runWith(Interpreter &in, Args &&args) {
  VariableRunContext &rc = runContext(in);
  try {
    if (in.options().backend == Backend::Jit) {
      const codegen::CompiledFunction &code = compiledFor(in, std::span<const Tensor>(args.data(), args.size()));
      return runCompiledCode(code, std::forward<Args>(args), rc);
    }
    std::span<const Tensor> view(args.data(), args.size());
    Specialization *s = specializationFor(in, view);
    const ir::Function &runs = s ? *s->optimized.fn : *optimized_.fn;
    labelForProfile(in, runs);
    return runFunction(runs, view, rc);
  } catch (const GraphRunError &e) {
    raiseGraphError(in, e);
  } catch (const ir::OpError &e) {
    raiseOpError(in, e);
  }
}

}  // namespace tfs::runtime::tf
