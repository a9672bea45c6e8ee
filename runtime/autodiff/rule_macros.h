// Shorthand shared by the gradient-rule files (rules_*.cpp, private to
// runtime/autodiff): the rule signature and the common first lines.
//   RULE(squareGrad) { PRELUDE; return {b.mul(g, ...)}; }
#pragma once

#include "runtime/autodiff/grad_builder.h"

namespace tfs::runtime::autodiff_detail {
using Grads = std::vector<OptHandle>;
using OG = std::span<const OptHandle>;
}  // namespace tfs::runtime::autodiff_detail

#define RULE(Name)                                                             \
  Grads Name(GradEmitter &em, const GradOpInfo &op, OG og)
// Rules written with PRELUDE are for real-valued tensors: one that meets
// a complex tensor (TF differentiates those with conjugates) refuses it
// instead of returning a wrong or missing gradient. Rules that handle
// complex values (complex parts, cast) use COMPLEX_PRELUDE.
#define COMPLEX_PRELUDE                                                        \
  GradBuilder b(em);                                                           \
  Handle g = *og[0];                                                           \
  (void)g
#define PRELUDE                                                                \
  COMPLEX_PRELUDE;                                                             \
  b.rejectComplex(op)
