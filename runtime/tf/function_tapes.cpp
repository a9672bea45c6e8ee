// Recording an eager call of a tf.function on the active GradientTapes
// (function_variables.h declares it; function.cpp calls it).
#include "runtime/autodiff/function_gradient.h"
#include "runtime/tf/function_variables.h"

namespace tfs::runtime::tf {

// TF records an eager call of a tf.function on the active tapes as one op
// whose gradient is the gradient graph of the traced function (built once
// per concrete function, see function_gradient.h). Its inputs, in the order
// of that graph's results: the tensor arguments, the tensor captures, the
// captured variables (which the tapes watch like a read in eager code).
void recordGraphCallOnTapes(Interpreter &in, const GraphCallRecording &r, const std::vector<Tensor> &args,
                            const std::vector<int64_t> &argIds, const std::vector<Value> &outs) {
  auto &tapes = ctx(in).tapes;
  if (tapes.empty()) return;
  std::vector<int64_t> inIds = argIds;
  std::vector<TapeValue> inVals(args.begin(), args.end());
  for (const ir::Capture &c : r.fn.captures()) {
    if (c.kind != ir::Capture::Kind::Tensor) continue;
    inIds.push_back(make<TensorObject>()->id);  // an eager constant no tape can watch
    inVals.push_back(*std::static_pointer_cast<Tensor>(c.handle));
  }
  for (const ir::Capture &c : r.fn.captures()) {
    if (c.kind != ir::Capture::Kind::Variable) continue;
    VariableObject *var = r.variableOf(c.handle.get());
    if (!var) {
      if (r.untrackedSkips) return;
      inIds.push_back(make<TensorObject>()->id);
      inVals.push_back(*std::static_pointer_cast<Tensor>(c.handle));
      continue;
    }
    for (TapeObject *t : tapes)
      if (!t->graph && var->trainable && t->watchAccessed) {
        t->tape.watch(var->id);
        t->noteWatched(*var);
      }
    inIds.push_back(var->id);
    inVals.push_back(*var->value);
  }
  std::vector<int64_t> outIds;
  std::vector<TapeValue> outVals;
  for (const Value &o : outs) {
    auto *t = o.as<TensorObject>();
    if (!t) return;
    outIds.push_back(t->id);
    outVals.push_back(t->eager);
  }
  for (TapeObject *t : tapes) {
    if (t->graph || !t->tape.shouldRecord(inIds)) continue;
    if (!*r.gradient) {
      try {
        *r.gradient = std::make_shared<FunctionGradient>(buildFunctionGradient(r.module, r.fn));
      } catch (const ir::OpError &e) {
        raiseOpError(in, e);
      }
    }
    // The runner holds the traced graph (whose module the gradient functions
    // are added to, a second-order one on first use) and their optimized
    // copies: the function may be freed before tape.gradient. The gradient
    // graphs read the variable arguments' stand-ins too: they are bound to
    // this call's variables when tape.gradient runs them.
    Interpreter *ip = &in;
    FunctionRunner runner = [ip, keep = r.keepAlive, execs = r.execs, binding = r.binding](
                                const ir::Function &f, std::span<const Tensor> a) {
      std::shared_ptr<Executable> &e = (*execs)[&f];
      if (!e) e = std::make_shared<Executable>(f);
      BoundVariables bound(binding);
      return e->run(*ip, a);
    };
    t->tape.record(ir::OpKind::Call, {}, inIds, inVals, outIds, outVals, eagerFunctionGradient(*r.gradient, runner));
  }
}

void recordCallOnTapes(Interpreter &in, ConcreteFunction &cf, const std::vector<Tensor> &args,
                       const std::vector<int64_t> &argIds, const std::vector<Value> &outs,
                       const std::vector<VariableObject *> &callVariables) {
  if (ctx(in).tapes.empty()) return;
  std::vector<VariableBinding> binding;
  for (size_t i = 0; i < cf.argVariables.size() && i < callVariables.size(); ++i)
    binding.push_back({cf.argVariables[i].variable->value.get(), callVariables[i]->value});
  // A variable argument's capture stands for the variable this call passed;
  // a variable the function does not track leaves the call unrecorded.
  auto variableOf = [&cf, &callVariables](const void *handle) {
    VariableObject *var = boundVariable(cf, callVariables, handle);
    for (auto &v : cf.variables)
      if (!var && v->value.get() == handle) var = v.get();
    return var;
  };
  recordGraphCallOnTapes(in,
                         {cf.scope->module(), cf.scope->function(), &cf.gradient, cf.gradientExecs, variableOf,
                          true, std::move(binding), cf.scope},
                         args, argIds, outs);
}

}  // namespace tfs::runtime::tf
