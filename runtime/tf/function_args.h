// The argument and result walks of a tf.function (function.cpp): what a
// trace's parameters are made of, which tensors a call feeds, and how its
// returned structure is recorded (function_args.cpp).
#pragma once

#include "runtime/tf/tf.h"

#include <optional>
#include <span>
#include <string>
#include <vector>

namespace tfs::runtime::tf {

// The arguments as an error lists them, one per line.
std::string argsText(Interpreter &in, const std::vector<Value> &args);
// A composite argument's stand-in: its components as parameters of the
// shapes its class leaves open (function_key.h).
Value symbolizeComposite(Interpreter &in, const Value &v, GraphScope &g, const std::string &name);
// A tf.Variable argument of a trace: TF keys it by its VariableSpec (dtype,
// shape, trainable and its alias id: the number of the distinct variable
// among the call's variable arguments), so the trace must work for any
// variable of that spec. As in TF (whose placeholder for a variable
// argument is the traced call's variable), the trace sees the variable it
// was called with, but reads and assigns it through a capture (of the
// trace's, possibly relaxed, shape) that each call binds to the storage of
// the variable it passes (function_variables.cpp). By alias id.
struct ArgVariable {
  Ref<VariableObject> variable;  // the traced call's
  ir::Shape shape;               // the trace's (relaxed under reduce_retracing)
};
// Symbolic stand-ins for tensor arguments (in lists, tuples, dicts and
// composites), parameters named after the argument; `sigShapes` (from
// `sigIndex` on) replaces the tensors' shapes (an input_signature, relaxed
// shapes). Variables are recorded in `variables` and captured (bound per call).
Value symbolize(Interpreter &in, const Value &v, GraphScope &g, const std::string &name,
                std::vector<ArgVariable> &variables, const std::vector<ir::Shape> *sigShapes, size_t &sigIndex);
// The distinct variables of a call's argument, in the order of their alias
// ids (the order symbolize and the cache key meet them), appended to `out`.
void variableArgs(Interpreter &in, const Value &v, std::vector<VariableObject *> &out);
// The tensors of an argument, in the order of the trace's parameters (and
// their ids, for the tapes).
void tensorArgs(Interpreter &in, const Value &v, std::vector<Tensor> &out, std::vector<int64_t> *ids = nullptr);
// An input_signature entry that is a tuple/list/dict of TensorSpecs: its
// leaves' (shape, dtype) in tf.nest order. A composite's spec inside such
// an entry adds none (its stand-in's components are traced, see
// nestedTraceArg).
void flattenSpec(Interpreter &in, const Value &spec, std::vector<std::pair<ir::Shape, DType>> &leaves);
// `arg` in `spec`'s structure (tuples where the spec has them, as TF packs
// the inputs), leaves converted to tensors of the spec's dtypes; nullopt when
// the structures differ. Without an argument: zero tensors of the spec's
// shapes (unknown dimensions 1), the stand-ins get_concrete_function traces.
std::optional<Value> packToSpec(Interpreter &in, const Value &spec, const std::optional<Value> &arg);
// `arg` (already packed) with each composite inside it replaced by the
// stand-in of its spec in `spec`: what a signature's trace sees.
Value nestedTraceArg(Interpreter &in, const Value &spec, const Value &arg);
// Whether every leaf of `arg` (already packed) is compatible with its spec;
// if not, `why` is TF's cast error for the first leaf that is not.
bool nestedCompatible(Interpreter &in, const Value &spec, const Value &arg, std::string &why);
// An input_signature entry as TF's FunctionType prints its constraint:
// Tuple[...], List[...], Dict[[key, spec], ...], or the spec.
std::string specTypeText(Interpreter &in, const Value &spec);
// The TypeError of a call that does not bind to the input_signature
// `specs`: with `why` (the first failing parameter's reason), TF 2.15's
// FunctionType text; without, tfs's listing of inputs and signature.
[[noreturn]] void raiseSignatureBinding(Interpreter &in, const std::string &why, std::span<const Value> args,
                                        const Kwargs &kwargs, const std::vector<std::string> &names, size_t offset,
                                        const std::vector<Value> &specs);
// TF's TensorSpec.cast error: "Can not cast TensorSpec(...) to TensorSpec(...)".
std::string castErrorText(const ir::Shape &shape, DType dtype, const ir::Shape &want, DType wantDtype);
// The TypeSpec a trace's composite argument was traced for: a stand-in's
// spec (get_concrete_function, input_signature), else its own.
Value tracedCompositeSpec(Interpreter &in, const Value &v);
// The Python function's parameter names.
std::vector<std::string> paramNames(const Value &f);
// The returned structure with each tensor replaced by its slot in `outs`
// (concrete_function.h's rebuildOutputs reads it).
Value collectOutputs(Interpreter &in, const Value &v, GraphScope &g, std::vector<ir::Value *> &outs);

}  // namespace tfs::runtime::tf
