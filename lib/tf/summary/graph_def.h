// A traced graph as TensorFlow's GraphDef, for TensorBoard's graph dashboard
// (trace_export, the Keras TensorBoard callback's write_graph,
// compat.v1.summary.FileWriter(graph=...)).
//
// Each IR node becomes a NodeDef named as tracing named it ("StringJoin",
// "Square_1"; generated from the op type otherwise), with TF's op type, its
// inputs ("node", "node:1"), and attributes: the IR's own, "T" (the result
// dtype), "_output_shapes", and for constants dtype/value, for parameters
// (Placeholder) dtype/shape. Nodes inside a cond / while_loop region are
// named under the region op ("cond/then/Square"), which TensorBoard draws
// as a group.
#pragma once

#include "ir/graph.h"
#include "lib/tf/proto/graph.pb.h"

#include <functional>
#include <map>
#include <set>
#include <string>

namespace tfs::lib::summary {

// The TF name tracing gave a value ("" when none).
using ValueNamer = std::function<std::string(const ir::Value *)>;

// `nodeNames` (optional) receives the NodeDef name of every IR node;
// `argumentNames` / `captureNames` (optional) those of the Placeholders made
// for the function's parameters and for its captures.
tensorflow::GraphDef graphDefOf(const ir::Function &fn, const ValueNamer &nameOf,
                                std::map<const ir::Node *, std::string> *nodeNames = nullptr,
                                std::set<std::string> *argumentNames = nullptr,
                                std::set<std::string> *captureNames = nullptr);

}  // namespace tfs::lib::summary
