// Type rules of the 2-D window ops on NHWC tensors: conv2d, the depthwise
// conv, pooling, and their gradient ops. Attribute conventions:
// strides / dilations / ksize are 4 ints [1, h, w, 1] or 2 ints [h, w];
// padding is "SAME" or "VALID" (TF's output sizes: SAME ceil(in / stride),
// VALID ceil((in - effective_window + 1) / stride)); backprop ops carry
// the shape they produce (input_sizes, filter_sizes, orig_input_shape).
#include "ir/op_rules.h"
#include "ir/shape_args.h"

#include <fmt/format.h>

namespace tfs::ir {

namespace {
using Types = std::vector<TensorType>;
using In = std::span<const TensorType>;

OpError windowError(OpKind kind, const std::string &msg) {
  return OpError{"InvalidArgumentError", fmt::format("{} [Op:{}]", msg, tfOpType(kind))};
}

void requireFloatOperands(OpKind k, In in) {
  for (size_t i = 0; i < in.size(); ++i) {
    if (i > 0 && in[i].dtype != in[0].dtype) throw dtypeMismatch(k, int(i), in[0].dtype, in[i].dtype);
    if (!isFloating(in[i].dtype))
      throw windowError(k, fmt::format("Value for attr 'T' of {} is not in the list of allowed "
                                       "values: half, bfloat16, float, double",
                                       dtypeName(in[i].dtype)));
  }
}

std::vector<int64_t> nhwc(const Attrs &attrs, const char *key) {
  const auto *s = attrInts(attrs, key);
  if (!s) return {1, 1, 1, 1};
  if (s->size() == 2) return {1, (*s)[0], (*s)[1], 1};
  if (s->size() == 1) return {1, (*s)[0], (*s)[0], 1};
  return *s;
}

void checkWindowAttrs(OpKind k, const Attrs &attrs) {
  std::string pad = attrString(attrs, "padding", "VALID");
  if (pad != "SAME" && pad != "VALID")
    throw windowError(k, fmt::format("padding must be \"SAME\" or \"VALID\", got \"{}\"", pad));
  for (const char *key : {"strides", "dilations", "ksize"}) {
    auto v = nhwc(attrs, key);
    if (v.size() != 4) throw windowError(k, fmt::format("{} must have 4 elements", key));
    for (int64_t d : v)
      if (d < 1) throw windowError(k, fmt::format("{} must be positive, got {}", key, d));
    if (v[0] != 1 || v[3] != 1)
      throw windowError(k, fmt::format("Current implementation does not yet support {} in the batch and depth dimensions.", key));
  }
}

int64_t windowOut(int64_t in, int64_t k, int64_t stride, int64_t dilation, const std::string &padding) {
  if (in < 0 || k < 0) return kUnknownDim;
  if (padding == "SAME") return (in + stride - 1) / stride;
  int64_t eff = (k - 1) * dilation + 1;
  return in >= eff ? (in - eff) / stride + 1 : 0;
}

void requireRank4(OpKind k, const Shape &s, const char *what) {
  if (s.rank() != 4)
    throw windowError(k, fmt::format("{} must be 4-dimensional{}", what, s.debugString()));
}

// The NHWC output of a window of kh x kw over x with `channels` outputs.
Shape windowOutput(const Shape &x, int64_t kh, int64_t kw, int64_t channels, const Attrs &attrs) {
  auto st = nhwc(attrs, "strides"), dl = nhwc(attrs, "dilations");
  std::string pad = attrString(attrs, "padding", "VALID");
  return Shape({x.dims[0], windowOut(x.dims[1], kh, st[1], dl[1], pad),
                windowOut(x.dims[2], kw, st[2], dl[2], pad), channels});
}

template <OpKind K> Types conv(In in, const Attrs &attrs) {
  requireFloatOperands(K, in);
  checkWindowAttrs(K, attrs);
  const Shape &x = in[0].shape, &w = in[1].shape;
  if (!x.ranked || !w.ranked) return {TensorType{in[0].dtype, Shape::unranked()}};
  requireRank4(K, x, "input");
  requireRank4(K, w, "filter");
  if (x.dims[3] >= 0 && w.dims[2] >= 0 && x.dims[3] != w.dims[2])
    throw windowError(K, fmt::format("input depth must be evenly divisible by filter depth: {} vs {}",
                                     x.dims[3], w.dims[2]));
  int64_t channels = w.dims[3];
  if (K == OpKind::DepthwiseConv2D)
    channels = x.dims[3] < 0 || w.dims[3] < 0 ? kUnknownDim : x.dims[3] * w.dims[3];
  return {TensorType{in[0].dtype, windowOutput(x, w.dims[0], w.dims[1], channels, attrs)}};
}

// A backprop op: the shape it produces comes from its `sizes` attr.
// The sizes may come at run time (a trailing operand: ir/shape_args.h).
template <OpKind K> Types sized(In in, const Attrs &attrs) {
  In data = in.first(size_t(opDef(K).dataOperands));
  requireFloatOperands(K, data);
  checkWindowAttrs(K, attrs);
  const char *key = K == OpKind::Conv2DBackpropInput || K == OpKind::DepthwiseConv2DBackpropInput
                        ? "input_sizes"
                        : K == OpKind::AvgPoolGrad ? "orig_input_shape" : "filter_sizes";
  std::optional<Shape> sizes = attrShape(attrs, key);
  if (!sizes) throw windowError(K, fmt::format("missing attr {}", key));
  if (!sizes->ranked) return {TensorType{data.back().dtype, Shape(std::vector<int64_t>(4, kUnknownDim))}};
  if (sizes->rank() != 4) throw windowError(K, fmt::format("{} must have 4 elements", key));
  return {TensorType{data.back().dtype, *sizes}};
}

template <OpKind K> Types pool(In in, const Attrs &attrs) {
  requireFloatOperands(K, in);
  checkWindowAttrs(K, attrs);
  const Shape &x = in[0].shape;
  if (!x.ranked) return {TensorType{in[0].dtype, Shape::unranked()}};
  requireRank4(K, x, "input");
  if (K == OpKind::MaxPoolGrad) return {TensorType{in[0].dtype, x}};
  auto k = nhwc(attrs, "ksize");
  return {TensorType{in[0].dtype, windowOutput(x, k[1], k[2], x.dims[3], attrs)}};
}
// max_pool_with_argmax -> (output, argmax of Targmax); its gradient op
// (input, grad, argmax) -> input's type.
template <OpKind K> Types poolWithArgmax(In in, const Attrs &attrs) {
  requireFloatOperands(K, in.first(K == OpKind::MaxPoolWithArgmax ? 1 : 2));
  checkWindowAttrs(K, attrs);
  if (K == OpKind::MaxPoolGradWithArgmax) {
    if (in[2].dtype != DType::Int32 && in[2].dtype != DType::Int64)
      throw windowError(K, fmt::format("Value for attr 'Targmax' of {} is not in the list of allowed values: int32, int64",
                                       dtypeTfTypeName(in[2].dtype)));
    return {in[0]};
  }
  DType idx = attrDType(attrs, "Targmax").value_or(DType::Int64);
  const Shape &x = in[0].shape;
  if (!x.ranked) return {TensorType{in[0].dtype, Shape::unranked()}, TensorType{idx, Shape::unranked()}};
  requireRank4(K, x, "input");
  auto k = nhwc(attrs, "ksize");
  Shape y = windowOutput(x, k[1], k[2], x.dims[3], attrs);
  return {TensorType{in[0].dtype, y}, TensorType{idx, y}};
}
}  // namespace

TypeRule windowTypeRule(OpKind k) {
  switch (k) {
  case OpKind::Conv2D: return conv<OpKind::Conv2D>;
  case OpKind::DepthwiseConv2D: return conv<OpKind::DepthwiseConv2D>;
  case OpKind::Conv2DBackpropInput: return sized<OpKind::Conv2DBackpropInput>;
  case OpKind::Conv2DBackpropFilter: return sized<OpKind::Conv2DBackpropFilter>;
  case OpKind::DepthwiseConv2DBackpropInput: return sized<OpKind::DepthwiseConv2DBackpropInput>;
  case OpKind::DepthwiseConv2DBackpropFilter: return sized<OpKind::DepthwiseConv2DBackpropFilter>;
  case OpKind::AvgPoolGrad: return sized<OpKind::AvgPoolGrad>;
  case OpKind::MaxPool: return pool<OpKind::MaxPool>;
  case OpKind::AvgPool: return pool<OpKind::AvgPool>;
  case OpKind::MaxPoolGrad: return pool<OpKind::MaxPoolGrad>;
  case OpKind::MaxPoolGradGrad: return pool<OpKind::MaxPoolGradGrad>;
  case OpKind::MaxPoolWithArgmax: return poolWithArgmax<OpKind::MaxPoolWithArgmax>;
  case OpKind::MaxPoolGradWithArgmax: return poolWithArgmax<OpKind::MaxPoolGradWithArgmax>;
  default: return nullptr;
  }
}

}  // namespace tfs::ir
