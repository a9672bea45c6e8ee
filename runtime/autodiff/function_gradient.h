// Gradients of a traced function called eagerly under a GradientTape
// (TF records the call as one op and differentiates its graph).
//
// buildFunctionGradient(module, f) adds `@f_grad` to the module:
//   params:  f's params, then one seed per f result (dL/d result)
//   captures: f's tensor and variable captures (same handles)
//   results: one gradient per differentiable input of f, in the order
//            f's params, f's tensor captures, f's variable captures
//            (capture order); zeros where `connected` is false.
// The body recomputes f (skipping prints and assignments) and appends its
// gradient graph (graph_gradients.h).
//
// Recording an eager call on a tape (the tf module):
//   auto g = std::make_shared<FunctionGradient>(buildFunctionGradient(m, f));
//   tape.record(OpKind::Call, {}, inputIds /* args, tensor captures,
//               variables */, inputs, outputIds, outputs,
//               eagerFunctionGradient(g, runner));
// where `runner` runs a function on the chosen backend (binding captures).
#pragma once

#include "ir/graph.h"
#include "runtime/autodiff/backprop.h"

#include <memory>

namespace tfs::runtime {

struct FunctionGradient {
  ir::Module *module = nullptr;  // holds fn (and the forward function)
  ir::Function *fn = nullptr;
  size_t numParams = 0;          // of the forward function
  size_t numResults = 0;         // of the forward function
  std::vector<bool> connected;   // per gradient result
  // The gradient of `fn` itself (second derivatives), built on first use.
  std::shared_ptr<FunctionGradient> ofGradient;
};

FunctionGradient buildFunctionGradient(ir::Module &module, const ir::Function &forward);

// Runs a function with explicit arguments (captures bound by the runner).
using FunctionRunner =
    std::function<std::vector<Tensor>(const ir::Function &, std::span<const Tensor>)>;

// The custom gradient of a recorded eager call: the record's inputs are
// (args..., tensor captures..., variable values...) as in
// FunctionGradient; seeds for outputs without a gradient are zeros. Works
// with an EagerEmitter only.
// Under nested tapes (an emitter that observes calls) the gradient call is
// itself recorded, differentiated by the gradient of the gradient function.
CustomGradFn eagerFunctionGradient(std::shared_ptr<FunctionGradient> grad,
                                   FunctionRunner runner);

}  // namespace tfs::runtime
