// Recording an eager call of a function tf.saved_model.load restored on the
// active GradientTapes, as an eager tf.function call is recorded
// (runtime/tf/function_tapes.cpp): one op whose gradient is the gradient
// graph of the restored trace; the variables it captures are watched like
// a read in eager code (tape.watched_variables() lists them), so training
// a loaded model's variables works as in TF.
#include "lib/tf/saved_model/saved_model_files.h"
#include "runtime/autodiff/function_gradient.h"
#include "runtime/tf/executable.h"

namespace tfs::runtime::tf {

void recordRestoredCallOnTapes(Interpreter &in, const std::shared_ptr<ir::Module> &module, const ir::Function &fn,
                               RestoredGradientCache &cache, const std::vector<Ref<VariableObject>> &variables,
                               const std::vector<Tensor> &args, const std::vector<int64_t> &argIds,
                               const std::vector<Value> &outs) {
  auto &tapes = ctx(in).tapes;
  if (tapes.empty()) return;
  std::vector<int64_t> inIds = argIds;
  std::vector<TapeValue> inVals(args.begin(), args.end());
  for (const ir::Capture &c : fn.captures()) {
    if (c.kind != ir::Capture::Kind::Tensor) continue;
    inIds.push_back(make<TensorObject>()->id);  // a saved constant no tape can watch
    inVals.push_back(*std::static_pointer_cast<Tensor>(c.handle));
  }
  for (const ir::Capture &c : fn.captures()) {
    if (c.kind != ir::Capture::Kind::Variable) continue;
    VariableObject *var = nullptr;
    for (const auto &v : variables)
      if (v->value.get() == c.handle.get()) var = v.get();
    if (!var) {
      // A signature function's variable has no Python object: a value no
      // tape can watch (the arguments' gradients still flow).
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
    if (!cache.gradient) {
      try {
        cache.gradient = std::make_shared<FunctionGradient>(buildFunctionGradient(*module, fn));
      } catch (const ir::OpError &e) {
        raiseOpError(in, e);
      }
    }
    Interpreter *ip = &in;
    FunctionRunner runner = [ip, module, execs = cache.execs](const ir::Function &f, std::span<const Tensor> a) {
      std::shared_ptr<Executable> &e = (*execs)[&f];
      if (!e) e = std::make_shared<Executable>(f);
      return e->run(*ip, a);
    };
    t->tape.record(ir::OpKind::Call, {}, inIds, inVals, outIds, outVals, eagerFunctionGradient(cache.gradient, runner));
  }
}

}  // namespace tfs::runtime::tf
