// Gradient rules of the 2-D window ops (TF 2.15 nn_grad.py): conv2d and
// depthwise_conv2d_native with their backprop ops, max_pool and avg_pool
// with theirs. Every backprop op is linear in its gradient operand, so
// the family is closed under differentiation (second derivatives work).
//
// Conventions assumed from the kernels: X_backprop_input(filter, dy) with
// attr input_sizes and X_backprop_filter(input, dy) with attr filter_sizes
// share X's strides/padding/dilations; max_pool_grad(x, dy),
// max_pool_grad_grad(x, g) and avg_pool_grad(dy) {orig_input_shape} share
// the pool's ksize/strides/padding.
#include "runtime/autodiff/rule_macros.h"

namespace tfs::runtime::autodiff_detail {
namespace {

ir::Attrs windowAttrs(const ir::Attrs &a) {
  ir::Attrs out;
  for (const char *k : {"strides", "padding", "dilations", "ksize"})
    if (auto it = a.find(k); it != a.end())
      out.emplace(k, it->second);
  return out;
}

// The three ops of one convolution family.
struct ConvFamily {
  OpKind forward, input, filter;
  const char *name;
};
constexpr ConvFamily kConv{OpKind::Conv2D, OpKind::Conv2DBackpropInput,
                           OpKind::Conv2DBackpropFilter, "conv2d"};
constexpr ConvFamily kDepthwise{OpKind::DepthwiseConv2D, OpKind::DepthwiseConv2DBackpropInput,
                                OpKind::DepthwiseConv2DBackpropFilter, "depthwise_conv2d_native"};

// y = conv(x, w): dx = backprop_input(w, g), dw = backprop_filter(x, g)
template <const ConvFamily &F> RULE(convGrad) {
  PRELUDE;
  Handle x = op.inputs[0], w = op.inputs[1];
  return {b.withShapeOf(F.input, {w, g}, windowAttrs(op.attrs), "input_sizes", x),
          b.withShapeOf(F.filter, {x, g}, windowAttrs(op.attrs), "filter_sizes", w)};
}

// dx = backprop_input(w, dy) is linear in w and dy:
//   d w  = backprop_filter(g, dy)   (g plays the input)
//   d dy = conv(g, w)
template <const ConvFamily &F> RULE(convInputGrad) {
  PRELUDE;
  Handle w = op.inputs[0], dy = op.inputs[1];
  return {b.withShapeOf(F.filter, {g, dy}, windowAttrs(op.attrs), "filter_sizes", w),
          b.op(F.forward, {g, w}, windowAttrs(op.attrs))};
}

// dw = backprop_filter(x, dy):
//   d x  = backprop_input(g, dy)    (g plays the filter)
//   d dy = conv(x, g)
template <const ConvFamily &F> RULE(convFilterGrad) {
  PRELUDE;
  Handle x = op.inputs[0], dy = op.inputs[1];
  return {b.withShapeOf(F.input, {g, dy}, windowAttrs(op.attrs), "input_sizes", x),
          b.op(F.forward, {x, g}, windowAttrs(op.attrs))};
}

// y = max_pool(x): dx = max_pool_grad(x, g)
RULE(maxPoolGrad) {
  PRELUDE;
  return {b.op(OpKind::MaxPoolGrad, {op.inputs[0], g}, windowAttrs(op.attrs))};
}

// dx = max_pool_grad(x, dy) is piecewise constant in x (zero gradient) and
// linear in dy: d dy = max_pool_grad_grad(x, g)
RULE(maxPoolGradGrad) {
  PRELUDE;
  return {b.zerosLike(op.inputs[0]), b.op(OpKind::MaxPoolGradGrad, {op.inputs[0], g}, windowAttrs(op.attrs))};
}

// (y, argmax) = max_pool_with_argmax(x): dx scatters g to argmax
// (argmax itself has no gradient).
RULE(maxPoolWithArgmaxGrad) {
  GradBuilder b(em);
  b.rejectComplex(op);
  if (!og[0]) return {b.zerosLike(op.inputs[0])};
  return {b.op(OpKind::MaxPoolGradWithArgmax, {op.inputs[0], *og[0], op.outputs[1]}, op.attrs)};
}

// dx = max_pool_grad_with_argmax(x, dy, argmax) is linear in dy: d dy reads
// g at each argmax, which is max_pool_grad_grad's read at each window's
// first maximum (the argmax the forward op produced).
RULE(maxPoolGradWithArgmaxGrad) {
  PRELUDE;
  return {b.zerosLike(op.inputs[0]), b.op(OpKind::MaxPoolGradGrad, {op.inputs[0], g}, windowAttrs(op.attrs)),
          std::nullopt};
}

// y = max_pool_grad_grad(x, gx): d gx = max_pool_grad(x, g)
RULE(maxPoolGradGradGrad) {
  PRELUDE;
  return {b.zerosLike(op.inputs[0]), b.op(OpKind::MaxPoolGrad, {op.inputs[0], g}, windowAttrs(op.attrs))};
}

// y = avg_pool(x): dx = avg_pool_grad(g) {orig_input_shape = shape(x)}
RULE(avgPoolGrad) {
  PRELUDE;
  return {b.withShapeOf(OpKind::AvgPoolGrad, {g}, windowAttrs(op.attrs), "orig_input_shape", op.inputs[0])};
}

// avg_pool_grad is linear: its transpose is avg_pool.
RULE(avgPoolGradGrad) {
  PRELUDE;
  return {b.op(OpKind::AvgPool, {g}, windowAttrs(op.attrs))};
}

const RuleEntry kWindowRules[] = {
    {OpKind::Conv2D, convGrad<kConv>},
    {OpKind::Conv2DBackpropInput, convInputGrad<kConv>},
    {OpKind::Conv2DBackpropFilter, convFilterGrad<kConv>},
    {OpKind::DepthwiseConv2D, convGrad<kDepthwise>},
    {OpKind::DepthwiseConv2DBackpropInput, convInputGrad<kDepthwise>},
    {OpKind::DepthwiseConv2DBackpropFilter, convFilterGrad<kDepthwise>},
    {OpKind::MaxPool, maxPoolGrad},
    {OpKind::MaxPoolGrad, maxPoolGradGrad},
    {OpKind::MaxPoolGradGrad, maxPoolGradGradGrad},
    {OpKind::MaxPoolWithArgmax, maxPoolWithArgmaxGrad},
    {OpKind::MaxPoolGradWithArgmax, maxPoolGradWithArgmaxGrad},
    {OpKind::AvgPool, avgPoolGrad},
    {OpKind::AvgPoolGrad, avgPoolGradGrad},
};

}  // namespace

std::span<const RuleEntry> windowRules() { return kWindowRules; }

}  // namespace tfs::runtime::autodiff_detail
