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
#include <string>
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

  // The generic function (what --emit=graph-opt prints at trace time): what
  // runs for calls whose argument shapes get no specialization (Note [Shape
  // specialization]; each specialization is printed when first made).
  const ir::Function &function() const { return *optimized_.fn; }
  const ir::Module &module() const { return *optimized_.module; }

  // Runs it on the interpreter's backend; raises the script's exception on
  // a graph error.
  std::vector<Tensor> run(Interpreter &in, std::span<const Tensor> args);
  // The same, taking the arguments over (tf.function calls).
  std::vector<Tensor> run(Interpreter &in, std::vector<Tensor> &&args);
  std::vector<Tensor> runTaking(Interpreter &in, std::span<Tensor> args);
  // The header lines --emit prints above a specialization's graph (the
  // trace's header; none: specializations are not printed).
  void setReportHeader(const std::vector<std::string> *header) { reportHeader_ = header; }
  // The name --profile gives the function that runs (the generic one or a
  // specialization: each is labelled when it runs while profiling).
  void setProfileLabel(std::string label) { profileLabel_ = std::move(label); }
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
  // them) runs, on either backend, as a copy whose parameters have the
  // call's concrete shapes, optimized again (one per argument shapes, up to
  // kMaxSpecializations): shape inference and constant folding see static
  // shapes, and the JIT plans static buffers and fuses loops as it does for
  // a function traced with static shapes. Beyond that the generic code
  // runs. Both backends run the same graph, the one --emit=graph-opt prints
  // when the specialization is made.
  struct Specialization {
    std::vector<std::vector<int64_t>> shapes;
    OptimizedFunction optimized;
    std::shared_ptr<const codegen::CompiledFunction> compiled;  // JIT: on first run
  };
  static constexpr size_t kMaxSpecializations = 8;
  // The specialization for these arguments' shapes (made on first need), or
  // null when the generic function runs.
  Specialization *specializationFor(Interpreter &in, std::span<const Tensor> args);
  const codegen::CompiledFunction &compiledFor(Interpreter &in, std::span<const Tensor> args);
  void reportSpecialization(Interpreter &in, const Specialization &s) const;
  bool specializable_ = false;  // some parameter's shape is not fully known
  const std::vector<std::string> *reportHeader_ = nullptr;
  std::string profileLabel_;
  void labelForProfile(Interpreter &in, const ir::Function &runs);
  std::vector<std::unique_ptr<Specialization>> specializations_;
  OptimizedFunction optimized_;
  std::shared_ptr<const codegen::CompiledFunction> compiled_;
  std::unique_ptr<VariableRunContext> rc_;
};

}  // namespace tfs::runtime::tf
