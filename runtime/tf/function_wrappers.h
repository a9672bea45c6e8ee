// Variants of the tf.function wrapper (function.cpp).
//
// makeScratchFunction: a tf.function traced the way Keras 2.15 traces a layer's `call` on
// KerasTensors (base_layer._infer_output_signature, in a scratch FuncGraph):
// once, with variable creation allowed on that one trace. tf.function's own
// rule (a first trace that creates variables is traced again) would run the
// call, and its Python side effects, twice.
#pragma once

#include "runtime/interp/value.h"

namespace tfs::runtime {
class Interpreter;
}

namespace tfs::runtime::tf {

struct ConcreteFunction;
struct TracedSignature;

Value makeScratchFunction(Interpreter &in, const Value &f, const Value &signature);

// tf.function(f, autograph=..., input_signature=...).
Value makeFunction(Interpreter &in, const Value &f, bool autograph, const Value &signature);
// A concrete function as a SavedModel signature: its graph, variables and
// output keys (traceForExport traces a tf.function for its input_signature).
TracedSignature tracedSignatureOf(Interpreter &in, const ConcreteFunction &cf);
// tf.function(reduce_retracing=True) on a wrapper made by makeFunction.
void setReduceRetracing(const Value &function, bool reduce);

}  // namespace tfs::runtime::tf
