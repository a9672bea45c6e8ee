// Executable: what runs when a traced function is called. The optimized
// copy of the trace (runtime/graph/optimize.h, built once) and, on the JIT
// backend, its compiled code (built on the first run), so a call neither
// re-optimizes, re-prints nor looks the function up.
#pragma once

#include "codegen/codegen.h"
#include "runtime/graph/optimize.h"
#include "runtime/tensor/tensor.h"

#include <memory>
#include <span>
#include <vector>

namespace tfs::runtime {
class Interpreter;
class Profiler;
}

namespace tfs::runtime::tf {

struct VariableRunContext;

class Executable {
public:
  // Given a traced function whose graph is complete (it is copied: later
  // changes to it are not seen).
  // `profiler` (may be null) times the optimization and the compilation.
  explicit Executable(const ir::Function &traced, Profiler *profiler = nullptr);
  ~Executable();
  Executable(const Executable &) = delete;
  Executable &operator=(const Executable &) = delete;

  // The function that runs (what --emit=graph-opt prints).
  const ir::Function &function() const { return *optimized_.fn; }
  const ir::Module &module() const { return *optimized_.module; }

  // Runs it on the interpreter's backend; raises the script's exception on
  // a graph error.
  std::vector<Tensor> run(Interpreter &in, std::span<const Tensor> args);
  // The same, taking the arguments over (tf.function calls).
  std::vector<Tensor> run(Interpreter &in, std::vector<Tensor> &&args);
  std::vector<Tensor> runTaking(Interpreter &in, std::span<Tensor> args);
  // runTaking's result number `index` alone (no vector of results).
  Tensor runTakingOne(Interpreter &in, std::span<Tensor> args, size_t index);

private:
  template <class Args> std::vector<Tensor> runWith(Interpreter &in, Args &&args);
  std::vector<Tensor> runCompiledCode(const codegen::CompiledFunction &code, std::span<const Tensor> args,
                                      RunContext &rc);
  std::vector<Tensor> runCompiledCode(const codegen::CompiledFunction &code, std::vector<Tensor> &&args,
                                      RunContext &rc);
  std::vector<Tensor> runCompiledCode(const codegen::CompiledFunction &code, std::span<Tensor> args,
                                      RunContext &rc);
  // The run context of every call (built on the first): a context per call
  // cost a construction and destruction on each tf.function call. Calls
  // share it safely, nested ones too: it holds no per-run state (the
  // cached const tensors are this function's own).
  VariableRunContext &runContext(Interpreter &in);
  // Note [Shape specialization]: a function traced with unknown dimensions
  // (Keras's step functions take the batch dimension as None, as TF traces
  // them) is compiled once per concrete argument shapes, up to
  // kMaxSpecializations, from a copy whose parameters have those shapes:
  // the JIT then plans static buffers and fuses loops as it does for a
  // function traced with static shapes. Beyond that the generic code runs.
  struct Specialization {
    std::vector<std::vector<int64_t>> shapes;
    OptimizedFunction optimized;
    std::shared_ptr<const codegen::CompiledFunction> compiled;
  };
  static constexpr size_t kMaxSpecializations = 8;
  const codegen::CompiledFunction &compiledFor(Interpreter &in, std::span<const Tensor> args);
  bool specializable_ = false;  // some parameter's shape is not fully known
  std::vector<std::unique_ptr<Specialization>> specializations_;
  OptimizedFunction optimized_;
  std::shared_ptr<const codegen::CompiledFunction> compiled_;
  std::unique_ptr<VariableRunContext> rc_;
};

}  // namespace tfs::runtime::tf
