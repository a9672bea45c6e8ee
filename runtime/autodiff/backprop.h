// Reverse-mode accumulation over a recorded list of ops: the algorithm
// shared by eager tapes, tapes inside tf.function, and tf.gradients.
//
// Input: ops in forward (topological) order, each naming its inputs and
// outputs by caller-assigned ids (unique per value), the targets (ids, their
// values, optional seed gradients) and the source ids.
// Algorithm:
//   1. keep the ops that lie on a path from a source to a target;
//   2. seed each target with its given gradient or ones_like(target);
//   3. walk the kept ops in reverse order; sum the pending gradients of
//      each op's outputs, call its rule, add the results to its inputs;
//   4. a source's gradient is the sum of what reached it, or nullopt when
//      nothing did (TF's unconnected_gradients=NONE).
// Ops marked not differentiable stop the gradient, and so does
// `identity {stop_gradient = true}` (tf.stop_gradient); an op with no rule that
// a gradient must cross throws LookupError like TF.
#pragma once

#include "runtime/autodiff/gradients.h"

#include <functional>

namespace tfs::runtime {

// Rules for ops outside the table (cond, while_loop, call in graphs; an
// eager call of a traced function).
using CustomGradFn = std::function<std::vector<OptHandle>(
    GradEmitter &, const GradOpInfo &, std::span<const OptHandle>)>;

struct OpRecord {
  ir::OpKind kind;
  ir::Attrs attrs;
  std::vector<int64_t> inputIds, outputIds;
  std::vector<TapeValue> inputs, outputs;
  const ir::Node *node = nullptr;  // graph gradients: the forward node
  CustomGradFn customGrad = {};    // overrides the table rule when set
};

struct BackpropTarget {
  int64_t id;
  TapeValue value;
  std::optional<TapeValue> seed;  // the output gradient; ones_like if absent
  // The seed's tape id: ops built from it are recorded on outer tapes with
  // it as input, so a gradient with respect to output_gradients exists.
  int64_t seedId = -1;
};


struct BackpropOptions {
  CustomGradFn custom;  // consulted when the op kind has no table rule
};

// Returns one entry per source: a handle in `em`, or nullopt.
std::vector<OptHandle> backprop(GradEmitter &em, std::span<const OpRecord> ops,
                                std::span<const BackpropTarget> targets,
                                std::span<const int64_t> sources,
                                const BackpropOptions &options = {});

}  // namespace tfs::runtime
