// The IR passes, one entry point each (`bool runX(Function&)`: "changed?"),
// and the flat optimization pipeline (Taichi `compile_to_offloads` style:
// pass; print; verify).
//
// Every pass keeps the invariants of ir/graph.h. In particular no pass
// removes, merges or reorders side-effecting nodes (OpTrait::SideEffect:
// variable ops, print, random, call, placeholder): the printed order of
// those nodes is the program order TF2's automatic control dependencies
// guarantee. Passes expect verified input.
#pragma once

#include "ir/graph.h"
#include "ir/verifier.h"

#include <functional>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace tfs::ir {

// Refines value types by re-running the op type rules in program order,
// inside regions too: cond results from their branches, while_loop carried
// types to the fixpoint of init and body types, function result types from
// `return`. Types only become more specific. Stored types that claim more
// than the rules prove (hand-written `add %a, %b : f32[9]` on f32[?]
// operands that turn out to be f32[3]) are kept; the verifier then reports
// the contradiction.
bool runShapeInference(Function &fn);

// Evaluates a node on constant operands. ir/ cannot call kernels; the exec
// layer supplies this (it runs the op's eager kernel). Returns the results,
// or nullopt to leave the node alone (e.g. the kernel raised: the error then
// happens at run time, where TF raises it).
using ConstFolder = std::function<std::optional<std::vector<DenseElements>>(
    const Node &node, std::span<const DenseElements *const> operands)>;

struct ConstFoldOptions {
  ConstFolder folder;               // null: the pass does nothing
  int64_t maxResultElements = 1024; // do not materialize bigger constants
};
// Folds Pure nodes whose operands are all constants and whose results are
// small, through `opts.folder`.
bool runConstantFolding(Function &fn, const ConstFoldOptions &opts);

// Common subexpression elimination of Pure nodes (constants included),
// region-aware: a node inside a region may reuse an equal node of an
// enclosing region that comes before it. Never merges side-effecting nodes.
bool runCse(Function &fn);

// Dead code elimination: Pure nodes whose results are unused, cond /
// while_loop nodes without side effects whose results are unused, unused
// cond results and unused loop-carried values. Never removes side-effecting
// nodes.
bool runDce(Function &fn);

// Algebraic simplification: x+0, x-0 (floats: only the zero that keeps
// -0.0 unchanged), x*1, x/1 (when the type is unchanged), x*0 (integers only), neg(neg x), logical_not(logical_not x), identity x,
// cast to the same dtype, reshape to the same static shape, transpose of a
// transpose, shape/size of a static shape, cond on a constant predicate,
// values passed through a cond or a while_loop unchanged; shape operands
// whose value became known move into their attributes (ir/shape_args.h).
bool runSimplify(Function &fn);

struct PipelineOptions {
  bool shapeInference = true;
  bool simplify = true;
  bool cse = true;
  bool dce = true;
  // Constant folding runs when a folder is supplied.
  ConstFoldOptions constantFolding;
  // Rounds of simplify / fold / cse / dce until nothing changes.
  int maxRounds = 8;
  // Verify the input and the result of every pass (--verify-each).
  bool verifyEach = false;
  // --print-ir-after-all: receives "// -----// IR after <pass> //----- //"
  // and the function's text after every pass. Passes never print directly.
  std::function<void(const std::string &)> printAfterAll;
};

// Given a module of verified functions.
// Execute: runs the pipeline on every function.
// Result: nullopt, or the first verifier error (naming the pass that broke
// the invariant) when verifyEach is on.
std::optional<IrError> optimize(Module &module, const PipelineOptions &opts);
std::optional<IrError> optimizeFunction(Function &fn,
                                        const PipelineOptions &opts);

} // namespace tfs::ir
