// TF 2.15's NodeDef attributes for an IR node (node_def_attrs.cpp), for
// printing graphs as TF does (Operation.__str__, print(graph_def)).
#pragma once

#include "ir/graph.h"
#include "lib/tf/proto/graph.pb.h"

namespace tfs::runtime::tf {

// Given an IR node of a traced graph (not a Placeholder).
// Execute: replaces `out`'s attributes with the ones TF gives that op.
// Result: false when tfs does not reproduce TF's NodeDef for this node
// (its inputs or attributes would differ); `out` is then incomplete.
bool tfNodeAttrs(const ir::Node &node, tensorflow::NodeDef &out);
// The same for a Placeholder node (tf.compat.v1.placeholder): dtype, shape.
bool tfPlaceholderAttrs(const ir::Node &node, tensorflow::NodeDef &out);

}  // namespace tfs::runtime::tf
