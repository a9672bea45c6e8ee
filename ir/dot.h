// Graphviz pictures of graphs (--emit=dot, `tfs graph`).
//
// One node per IR node, labelled with its op and its result type (dtype and
// shape: `matmul` / `f32[2,3]`), with its source line as the tooltip (SVG
// shows it on hover); parameters, tensor captures and region block
// arguments are nodes too (ellipses), so every edge starts at a node. An
// edge runs from the node defining an operand to its user. The regions of
// cond / while_loop are clusters ("then", "else", "cond", "body"); a yield
// has a dashed edge back to its region op. The output is deterministic.
#pragma once

#include "ir/graph.h"

#include <string>

namespace tfs::ir {

struct DotOptions {
  // The header comment lines (without the leading `// `), e.g. the trace
  // header; empty for none.
  std::vector<std::string> comments;
  // When set, the function is drawn as `subgraph cluster_<id>` (to put
  // several functions in one picture) instead of a whole `digraph`.
  bool asCluster = false;
  std::string clusterId;  // unique among the clusters of one picture
  // The graph's (or cluster's) label; "@<function name>" when empty.
  std::string title;
};

std::string printDot(const Function &fn, const DotOptions &opts = {});

// The lines that open and close a digraph of clusters (`tfs graph` puts
// every traced function in one picture).
std::string dotPictureBegin();
std::string dotPictureEnd();

}  // namespace tfs::ir
