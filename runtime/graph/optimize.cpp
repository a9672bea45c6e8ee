// optimizeForExecution (optimize.h): clone the callee closure, then run the
// pass pipeline with the kernel-backed constant folder.
#include "runtime/graph/optimize.h"

#include "ir/passes/passes.h"
#include "runtime/graph/constant_folder.h"

#include <vector>

namespace tfs::runtime {

namespace {

// Adds a copy of `fn` and of every function it calls to `out`.
void cloneClosure(const ir::Function &fn, ir::Module &out) {
  if (out.lookup(fn.name()))
    return;
  out.add(fn.clone(fn.name()));
  std::vector<std::string> callees;
  fn.walk([&](const ir::Node &n) {
    if (n.kind() == ir::OpKind::Call)
      callees.push_back(n.callee);
  });
  const ir::Module *source = fn.module();
  for (const std::string &name : callees)
    if (const ir::Function *callee = source ? source->lookup(name) : nullptr)
      cloneClosure(*callee, out);
}

}  // namespace

OptimizedFunction optimizeForExecution(const ir::Function &traced) { return optimizeForShapes(traced, {}); }

OptimizedFunction optimizeForShapes(const ir::Function &traced, const std::vector<ir::Shape> &paramShapes) {
  OptimizedFunction result;
  result.module = std::make_unique<ir::Module>();
  cloneClosure(traced, *result.module);
  if (!paramShapes.empty()) {
    ir::Function *copy = result.module->lookup(traced.name());
    for (size_t i = 0; i < paramShapes.size() && i < copy->params().size(); ++i)
      copy->param(unsigned(i))->type.shape = paramShapes[i];
  }
  ir::PipelineOptions opts;
  opts.constantFolding.folder = makeConstantFolder();
  try {
    ir::optimize(*result.module, opts);
  } catch (...) {
    // A pass that throws is a bug in that pass; the graph as traced is
    // still correct, so that is what runs.
    result.module = std::make_unique<ir::Module>();
    cloneClosure(traced, *result.module);
  }
  result.fn = result.module->lookup(traced.name());
  return result;
}

}  // namespace tfs::runtime
