// Gradient rules of the neural-network ops (TF 2.15 nn_grad.py): softmax,
// log_softmax and the cross-entropy losses (convolutions and pooling are in
// rules_window.cpp).
//
// Conventions assumed from the kernels: xent ops take (labels, logits) and
// return the per-example loss (shape of logits without the class axis).
#include "runtime/autodiff/rule_macros.h"

namespace tfs::runtime::autodiff_detail {
namespace {

std::vector<int64_t> softmaxAxis(GradBuilder &b, const GradOpInfo &op) {
  int64_t r = b.rank(op.inputs[0], "softmax");
  return {normalizeAxis(ir::attrInt(op.attrs, "axis", -1), r)};
}

// dx = (g - sum(g * y, axis)) * y
RULE(softmaxGrad) {
  PRELUDE;
  Handle y = op.outputs[0];
  Handle s = b.reduceSum(b.mul(g, y), softmaxAxis(b, op), true);
  return {b.mul(b.sub(g, s), y)};
}

// dx = g - exp(y) * sum(g, axis)
RULE(logSoftmaxGrad) {
  PRELUDE;
  Handle y = op.outputs[0];
  Handle s = b.reduceSum(g, softmaxAxis(b, op), true);
  return {b.sub(g, b.mul(b.op(OpKind::Exp, {y}), s))};
}

// loss = -sum(labels * log_softmax(logits), -1)
RULE(softmaxXentGrad) {
  PRELUDE;
  Handle labels = op.inputs[0], logits = op.inputs[1];
  Handle ge = b.expandDims(g, -1);
  Handle dLogits = b.mul(ge, b.sub(b.op(OpKind::Softmax, {logits}), labels));
  Handle dLabels = b.mul(ge, b.neg(b.op(OpKind::LogSoftmax, {logits})));
  return {b.isFloat(labels) ? OptHandle(b.unbroadcast(dLabels, labels)) : std::nullopt,
          b.unbroadcast(dLogits, logits)};
}

RULE(sparseSoftmaxXentGrad) {
  PRELUDE;
  Handle labels = op.inputs[0], logits = op.inputs[1];
  auto tl = b.type(logits);
  if (tl.shape.ranked && tl.shape.rank() == 0)
    throwGradError("gradient of sparse_softmax_cross_entropy_with_logits needs logits of rank >= 1");
  // The number of classes may be known only at run time (one_hot's depth).
  int64_t r = b.rank(logits, "sparse_softmax_cross_entropy_with_logits");
  Handle oneHot = b.op(OpKind::OneHot, {labels, b.dimOf(logits, r - 1)}, {{"dtype", tl.dtype}});
  Handle ge = b.expandDims(g, -1);
  return {std::nullopt,
          b.mul(ge, b.sub(b.op(OpKind::Softmax, {logits}), oneHot))};
}

// loss = max(x, 0) - x * z + log(1 + exp(-|x|)); dx = sigmoid(x) - z, dz = -x
RULE(sigmoidXentGrad) {
  PRELUDE;
  Handle labels = op.inputs[0], logits = op.inputs[1];
  Handle dLogits = b.mul(g, b.sub(b.op(OpKind::Sigmoid, {logits}), labels));
  Handle dLabels = b.mul(g, b.neg(logits));
  return {b.isFloat(labels) ? OptHandle(b.unbroadcast(dLabels, labels)) : std::nullopt,
          b.unbroadcast(dLogits, logits)};
}

const RuleEntry kNnRules[] = {
    {OpKind::Softmax, softmaxGrad},
    {OpKind::LogSoftmax, logSoftmaxGrad},
    {OpKind::SoftmaxCrossEntropy, softmaxXentGrad},
    {OpKind::SparseSoftmaxCrossEntropy, sparseSoftmaxXentGrad},
    {OpKind::SigmoidCrossEntropy, sigmoidXentGrad},
};

}  // namespace

std::span<const RuleEntry> nnRules() { return kNnRules; }

}  // namespace tfs::runtime::autodiff_detail
