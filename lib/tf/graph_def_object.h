// Graph.as_graph_def() (graph_def_object.cpp).
#pragma once

#include "lib/tf/tf_lib.h"

namespace tfs::runtime::tf {

// The GraphDef of graph `g` as a Python object (printable, with `node`);
// `addShapes`: as_graph_def(add_shapes=True), nodes list "_output_shapes".
Value graphDefValue(GraphScope &g, bool addShapes = false);
// The NodeDef text of the node `name` of `g` as TF prints an Operation, or
// nullopt when the graph has no such node; NotImplementedError when tfs
// does not reproduce TF's NodeDef of that op.
std::optional<std::string> nodeDefText(Interpreter &in, GraphScope &g, const std::string &name);

}  // namespace tfs::runtime::tf
