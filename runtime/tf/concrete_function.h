// A traced tf.function (TF's ConcreteFunction): the graph of one trace, the
// variables it captures and the Python structure of its outputs. Calling
// and caching live in function.cpp; its Python attributes (graph,
// structured_input_signature, structured_outputs, ...) in
// concrete_function.cpp.
#pragma once

#include "runtime/autodiff/function_gradient.h"
#include "runtime/tf/executable.h"
#include "runtime/tf/function_args.h"
#include "runtime/tf/function_nested.h"
#include "runtime/tf/tf.h"
#include "runtime/tf/trace_report.h"

#include <memory>
#include <unordered_map>

namespace tfs::runtime::tf {

// The output structure of a trace (collectOutputs in function.cpp): an int
// (the slot of a tensor output), or ("list"|"tuple"|"dict"|"none"|"object", ...).
Value rebuildOutputs(Interpreter &in, const Value &s, const std::vector<Value> &results);
// The same structure with TypeSpecs at its composites (or their `attr`,
// "shape"/"dtype", when not null) and `leaves` at its tensors.
Value outputSpecStructure(Interpreter &in, const Value &s, const std::vector<Value> &leaves, const char *attr);
// TF's output type text of a concrete function: TensorSpec(...), Tuple[...].
std::string outputSpecText(Interpreter &in, const Value &s, const std::vector<ir::TensorType> &types);

struct ConcreteFunction : Object, CycleTracked {
  std::shared_ptr<GraphScope> scope;
  std::vector<Ref<VariableObject>> variables;  // the variables it captures
  // Its tf.Variable arguments (the traced call's), by alias id: each call
  // binds their captures to the variables it passes (function_variables.h).
  std::vector<ArgVariable> argVariables;
  // Tensors of enclosing graphs its trace used (a tf.function traced inside
  // another): extra parameters after the arguments' (function_nested.h).
  std::vector<EnclosingCapture> enclosingCaptures;
  Value outputStructure;        // Python structure with TensorObject placeholders
  std::vector<ir::TensorType> outputTypes;  // of the traced outputs, as traced
  std::vector<size_t> outputSlots;
  // Built on the first call recorded by a GradientTape (see callConcrete).
  std::shared_ptr<FunctionGradient> gradient;
  // What runs: the optimized copy of the trace (and of its gradient graph),
  // built once, on first use.
  std::shared_ptr<Executable> exec;
  // Optimized copies of the gradient functions (the gradient, and the
  // gradient of the gradient under nested tapes), by function.
  std::shared_ptr<std::unordered_map<const ir::Function *, std::shared_ptr<Executable>>> gradientExecs =
      std::make_shared<std::unordered_map<const ir::Function *, std::shared_ptr<Executable>>>();
  Executable &executable(Profiler *profiler = nullptr) {
    if (!exec) exec = std::make_shared<Executable>(scope->function(), profiler);
    return *exec;
  }
  std::vector<ArgSpec> argSpecs;  // the arguments it was traced for
  // The Python function's parameter names (without self): a call binds
  // its positional arguments to them.
  std::vector<std::string> paramNames;
  // Arguments its cache key names by identity, kept alive so that their
  // addresses are not reused by other objects (function.cpp, identityKeyed).
  std::vector<Value> identityKeyedArgs;
  TraceInfo info;
  std::vector<std::string> emitHeader;  // --emit=graph-opt: above its specializations
  const char *typeName() const override { return "ConcreteFunction"; }
  ConcreteSignature printedSignature(Interpreter &in) const {
    ConcreteSignature sig;
    sig.inputs = argSpecs;
    sig.output = outputSpecText(in, outputStructure, outputTypes);
    for (const ir::Capture &c : scope->function().captures())
      if (!isArgumentVariableCapture(c))  // an input: TF lists its VariableSpec with the parameters
        sig.captures.push_back(c.kind == ir::Capture::Kind::Variable
                                 ? "TensorSpec(shape=(), dtype=tf.resource, name=None)"
                                 : tensorSpecText(c.type.shape, c.type.dtype));
    return sig;
  }
  // Whether a capture's storage is a variable argument's.
  bool isArgumentVariable(const void *handle) const {
    for (const ArgVariable &a : argVariables)
      if (a.variable->value.get() == handle) return true;
    return false;
  }
  bool isArgumentVariableCapture(const ir::Capture &c) const {
    return c.kind == ir::Capture::Kind::Variable && isArgumentVariable(c.handle.get());
  }
  std::optional<std::string> str(Interpreter &in) override { return concreteFunctionStr(printedSignature(in)); }
  std::optional<std::string> repr(Interpreter &in) override {
    return concreteFunctionRepr(printedSignature(in), this);
  }
  void clearReferences() override {
    variables.clear();
    argVariables.clear();
    outputStructure = Value();
    inputSignature = Value();
    identityKeyedArgs.clear();
  }
  // TF's structured_input_signature: ((specs of the positional arguments), {keywords}).
  Value inputSignature;
  std::optional<Value> getAttr(Interpreter &in, const std::string &name) override;  // concrete_function.cpp
  std::optional<Value> call(Interpreter &in, Args args, const Kwargs &kwargs) override;
  // TF's pretty_printed_signature(verbose): print(cf) without
  // "ConcreteFunction " (verbose), or repr's "(x: TensorSpec(...)) -> ...".
  std::string prettySignature(Interpreter &in, bool verbose) const;
};

// The concrete functions tf.saved_model.save keeps of a tf.function `f`
// (its input_signature's trace, else every trace so far); none when `f` is
// not a tf.function.
std::vector<Ref<ConcreteFunction>> savedTraces(Interpreter &in, const Value &f);

// get_concrete_function's arguments: TensorSpecs become zero tensors and
// every tensor argument's shape (a spec's own) goes to `shapes`.
Value specToTensor(Interpreter &in, const Value &v, std::vector<ir::Shape> &shapes, bool &anySpec);
// The structured_input_signature of a call with these arguments.
Value inputSignatureOf(Interpreter &in, const std::vector<std::string> &names, const std::vector<Value> &args,
                       const Kwargs &kwargs);

}  // namespace tfs::runtime::tf
