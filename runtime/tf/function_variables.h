// tf.Variable arguments of a tf.function (function_args.h's ArgVariable):
// binding a trace's stand-in variables to the variables a call passes, and
// their VariableSpec, TF's trace type of a variable.
#pragma once

#include "runtime/tf/concrete_function.h"

#include <functional>
#include <memory>
#include <unordered_map>
#include <span>
#include <vector>

namespace tfs::runtime::tf {

// One stand-in of a trace and the storage of the call's variable for it.
struct VariableBinding {
  const void *traced;  // the traced variable's storage: its capture's handle
  std::shared_ptr<Tensor> storage;
};

// While alive, graph runs (both backends, through VariableRunContext) read
// and assign the call's variables where the trace has stand-ins; the
// bindings in force before are restored after (a py_function may call the
// same tf.function again inside a run).
class BoundVariables {
public:
  explicit BoundVariables(std::vector<VariableBinding> bindings);
  ~BoundVariables();
  BoundVariables(const BoundVariables &) = delete;
  BoundVariables &operator=(const BoundVariables &) = delete;

private:
  std::vector<VariableBinding> saved_;
  bool active_;
};

// While alive, no bindings are in force: Python code a graph run calls
// back (tf.py_function) sees its variables as they are, and a tf.function
// it calls binds its own.
class UnboundVariables {
public:
  UnboundVariables();
  ~UnboundVariables();
  UnboundVariables(const UnboundVariables &) = delete;
  UnboundVariables &operator=(const UnboundVariables &) = delete;

private:
  std::vector<VariableBinding> saved_;
};

// The storage a variable capture's handle stands for in the current run:
// the bound variable's, or null when the handle is no stand-in in force.
const std::shared_ptr<Tensor> *boundStorage(const void *handle);

// The bindings of a call of `cf` with these arguments: its variable
// arguments in alias order against the trace's stand-ins (the cache key
// guarantees they correspond; a ConcreteFunction call checks it here).
std::vector<VariableBinding> variableBindings(Interpreter &in, const ConcreteFunction &cf, std::span<const Value> args,
                                              const Kwargs &kwargs);
// The variable a stand-in capture of `cf` is bound to in this call, by the
// capture's handle (null when the handle is no stand-in of `cf`).
VariableObject *boundVariable(const ConcreteFunction &cf, const std::vector<VariableObject *> &callVariables,
                              const void *handle);
// Records an eager call of `cf` (its tensor arguments and their ids, its
// outputs, the distinct variables it was passed) on the active tapes as one
// op whose gradient is the trace's gradient graph (function_tapes.cpp).
void recordCallOnTapes(Interpreter &in, ConcreteFunction &cf, const std::vector<Tensor> &args,
                       const std::vector<int64_t> &argIds, const std::vector<Value> &outs,
                       const std::vector<VariableObject *> &callVariables);

// An eager call of a traced graph to record on the active tapes: the graph
// `fn` (of `module`), the slot its gradient graph is built into once, the
// cache of that graph's executables, how a variable capture's handle maps to
// its variable (null: a value no tape watches; with `untrackedSkips` the
// call then goes unrecorded), the variable bindings the gradient runs with,
// and what the gradient runner must keep alive (the traced graph).
struct GraphCallRecording {
  ir::Module &module;
  const ir::Function &fn;
  std::shared_ptr<FunctionGradient> *gradient;
  std::shared_ptr<std::unordered_map<const ir::Function *, std::shared_ptr<Executable>>> execs;
  std::function<VariableObject *(const void *handle)> variableOf;
  bool untrackedSkips = false;
  std::vector<VariableBinding> binding;
  std::shared_ptr<const void> keepAlive;
};
// Records the call as one op whose gradient is `fn`'s gradient graph
// (recordCallOnTapes; tf.saved_model.load's restored functions).
void recordGraphCallOnTapes(Interpreter &in, const GraphCallRecording &r, const std::vector<Tensor> &args,
                            const std::vector<int64_t> &argIds, const std::vector<Value> &outs);

// TF's VariableSpec(shape, dtype, trainable, alias_id): what
// structured_input_signature shows for a variable argument.
Value variableSpecValue(Interpreter &in, const ir::Shape &shape, DType dtype, bool trainable, int64_t aliasId);

}  // namespace tfs::runtime::tf
