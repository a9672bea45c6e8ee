// A tf.function called while another is being traced (function_nested.cpp).
//
// TF 2.15 traces the inner function into a graph of its own (its own
// concrete function, cached and counted like any trace: its Python side
// effects run once per inner trace, and get_concrete_function finds it) and
// puts a call of that function into the outer graph. tfs does the same
// tracing and then copies the inner trace's nodes into the outer graph at
// the call site, so the outer graph stays one flat graph for the optimizer
// and the JIT.
#pragma once

#include "runtime/tf/tf.h"

#include <optional>
#include <span>

namespace tfs::runtime::tf {

struct ConcreteFunction;

// The attribute marking a node copied from another tf.function's trace
// (its value: that function's name), on the nodes at the caller's top
// level: TF's GraphDef of the caller shows one call node there instead
// (graph_def_object.cpp refuses to print it).
inline constexpr const char *kNestedCallAttr = "_tfs_nested_call";

// A tensor of an enclosing graph that a nested trace used: TF captures it
// as an extra input of the inner function (after the arguments' tensors),
// which the call site feeds.
struct EnclosingCapture {
  GraphScope *scope;       // the enclosing graph
  ir::Value *outerValue;   // the tensor there
  ir::Value *param;        // the inner graph's parameter for it
  std::string name;
};

// Given the graph being traced and a tensor of a graph enclosing it (one
// the trace stack holds). Result: the parameter standing for it (added on
// first use).
ir::Value *captureEnclosingTensor(Interpreter &in, GraphScope &g, GraphScope &enclosing, ir::Value *v,
                                  const std::string &name);
// Execute: removes and returns the enclosing captures recorded for `g`
// (function.cpp keeps them with the trace's concrete function).
std::vector<EnclosingCapture> takeEnclosingCaptures(const GraphScope *g);

// Whether a call with these arguments can be traced apart and copied in:
// none has a custom trace type (those are traced inline).
bool canTraceNestedApart(Interpreter &in, std::span<const Value> args, const Kwargs &kwargs);

// Given `cf`, the inner function's trace for `args`/`kwargs`, and the graph
// being traced. Execute: copies cf's nodes into `outer` at its current
// insertion point, its arguments bound to the call's tensors and its
// captures re-captured by `outer`. Result: the call's Python result.
Value inlineNestedCall(Interpreter &in, GraphScope &outer, const ConcreteFunction &cf, std::span<const Value> args,
                       const Kwargs &kwargs);

}  // namespace tfs::runtime::tf
