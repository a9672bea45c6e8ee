// buildFunctionGradient / eagerFunctionGradient (see function_gradient.h).
#include "runtime/autodiff/function_gradient.h"

#include "runtime/autodiff/eager_emitter.h"
#include "runtime/autodiff/graph_grad_detail.h"
#include "runtime/kernels/kernels.h"

#include <fmt/format.h>

namespace tfs::runtime {

using ir::OpKind;
using ir::Value;

FunctionGradient buildFunctionGradient(ir::Module &module, const ir::Function &fwd) {
  FunctionGradient out;
  out.module = &module;
  out.numParams = fwd.params().size();
  out.numResults = fwd.resultTypes.size();
  ir::Function *g = module.addFunction(module.uniqueName(fwd.name() + "_grad"));
  out.fn = g;

  graphgrad::ValueMap m;
  std::vector<GradientSource> xs;
  for (Value *p : fwd.params()) {
    m[p] = g->addParam(p->type, p->name);
    xs.push_back({m[p], {}});
  }
  std::vector<Value *> seeds;
  for (size_t i = 0; i < fwd.resultTypes.size(); ++i)
    seeds.push_back(g->addParam(fwd.resultTypes[i], fmt::format("grad_{}", i)));
  std::vector<GradientSource> varSources;
  for (const auto &cap : fwd.captures()) {
    if (cap.kind == ir::Capture::Kind::Tensor) {
      m[cap.value] = g->addTensorCapture(cap.name, cap.type, cap.handle);
      xs.push_back({m[cap.value], {}});
    } else {
      const std::string &name = g->addVariableCapture(cap.name, cap.type, cap.handle);
      if (name != cap.name)
        throwGradError(fmt::format("gradient of @{}: variable capture '{}' renamed",
                                   fwd.name(), cap.name));
      varSources.push_back({nullptr, name});
    }
  }
  xs.insert(xs.end(), varSources.begin(), varSources.end());

  ir::Builder b(g->body());
  std::vector<ir::Node *> cloned;
  auto ys = graphgrad::cloneRegionInto(b, fwd.body(), m, &cloned);
  // A variable read inside a cond/while region: region gradients only
  // differentiate with respect to values from outside the region, so such
  // reads become one read before the body. (The recomputation skips
  // assignments, so every read of a variable sees the same value.)
  std::vector<std::pair<Value *, std::string>> innerReads;
  for (ir::Node *n : cloned)
    for (unsigned r = 0; r < n->numRegions(); ++r)
      n->region(r).walk([&](ir::Node &x) {
        if (x.kind() == OpKind::ReadVariable) innerReads.emplace_back(x.result(), ir::attrVar(x));
      });
  std::unordered_map<std::string, Value *> hoisted;
  for (auto &[read, var] : innerReads) {
    auto it = hoisted.find(var);
    if (it == hoisted.end()) {
      ir::Builder top(g->body(), g->body().begin());
      it = hoisted.emplace(var, top.readVariable(var)).first;
    }
    g->replaceAllUsesWith(read, it->second);
  }
  auto grads = gradients(b, ys, xs, seeds);
  std::vector<Value *> results;
  for (size_t i = 0; i < xs.size(); ++i) {
    out.connected.push_back(grads[i] != nullptr);
    if (grads[i]) {
      results.push_back(grads[i]);
    } else {
      Value *like = xs[i].value ? xs[i].value : b.readVariable(xs[i].variable);
      results.push_back(b.create(OpKind::ZerosLike, {like}));
    }
  }
  b.ret(results);
  return out;
}

CustomGradFn eagerFunctionGradient(std::shared_ptr<FunctionGradient> grad,
                                   FunctionRunner runner) {
  return [grad, runner](GradEmitter &em, const GradOpInfo &op,
                        std::span<const OptHandle> og) -> std::vector<OptHandle> {
    auto *eager = dynamic_cast<EagerEmitter *>(&em);
    if (!eager)
      throwGradError("gradient of an eager function call needs eager execution");
    // The gradient function's inputs: f's params, one seed per f result,
    // then f's captures (the record's remaining inputs).
    std::vector<Handle> inputs;
    for (size_t i = 0; i < grad->numParams; ++i)
      inputs.push_back(op.inputs[i]);
    for (size_t k = 0; k < grad->numResults; ++k) {
      if (k < og.size() && og[k]) {
        inputs.push_back(*og[k]);
      } else {
        Handle y = op.outputs[k];
        inputs.push_back(eager->emit(OpKind::ZerosLike, std::span<const Handle>(&y, 1), {}));
      }
    }
    std::vector<Tensor> args;
    for (Handle h : inputs)
      args.push_back(eager->tensor(h));
    std::vector<Tensor> gs = runner(*grad->fn, args);
    std::vector<OptHandle> out(op.inputs.size());
    std::vector<Handle> hs;
    if (eager->observesCalls()) {
      for (size_t i = grad->numParams; i < op.inputs.size(); ++i)
        inputs.push_back(op.inputs[i]);
      CustomGradFn second = [grad, runner](GradEmitter &em2, const GradOpInfo &op2,
                                           std::span<const OptHandle> og2) {
        if (!grad->ofGradient)
          grad->ofGradient =
              std::make_shared<FunctionGradient>(buildFunctionGradient(*grad->module, *grad->fn));
        return eagerFunctionGradient(grad->ofGradient, runner)(em2, op2, og2);
      };
      hs = eager->adoptCallResults(inputs, gs, std::move(second));
    } else {
      for (const Tensor &g : gs)
        hs.push_back(eager->adopt(g));
    }
    for (size_t i = 0; i < hs.size() && i < out.size(); ++i)
      if (grad->connected[i])
        out[i] = hs[i];
    return out;
  };
}

}  // namespace tfs::runtime
