// Recording an eager call of a function tf.saved_model.load restored on the
// active GradientTapes, as an eager tf.function call is recorded
// (runtime/tf/function_tapes.cpp): one op whose gradient is the gradient
// graph of the restored trace; the variables it captures are watched like
// a read in eager code (tape.watched_variables() lists them), so training
// a loaded model's variables works as in TF.
#include "lib/tf/saved_model/saved_model_files.h"
#include "runtime/tf/function_variables.h"

namespace tfs::runtime::tf {

void recordRestoredCallOnTapes(Interpreter &in, const std::shared_ptr<ir::Module> &module, const ir::Function &fn,
                               RestoredGradientCache &cache, const std::vector<Ref<VariableObject>> &variables,
                               const std::vector<Tensor> &args, const std::vector<int64_t> &argIds,
                               const std::vector<Value> &outs) {
  // A signature function's variable has no Python object: a value no tape
  // can watch (the arguments' gradients still flow).
  auto variableOf = [&variables](const void *handle) -> VariableObject * {
    for (const auto &v : variables)
      if (v->value.get() == handle) return v.get();
    return nullptr;
  };
  recordGraphCallOnTapes(in, {*module, fn, &cache.gradient, cache.execs, variableOf, false, {}, module}, args, argIds,
                         outs);
}

}  // namespace tfs::runtime::tf
