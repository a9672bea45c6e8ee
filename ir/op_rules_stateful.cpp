// Type rules of the ops whose results depend on state outside their
// operands: the random draws beyond normal / uniform (truncated normal,
// shuffle, multinomial, gamma, poisson) and the clock (timestamp).
#include "ir/op_rules.h"
#include "ir/shape_args.h"

#include <fmt/format.h>

namespace tfs::ir {

namespace {
using Types = std::vector<TensorType>;
using In = std::span<const TensorType>;

OpError statefulError(OpKind kind, const std::string &msg) {
  return OpError{"InvalidArgumentError", fmt::format("{} [Op:{}]", msg, tfOpType(kind))};
}

Shape requestedShape(OpKind k, const Attrs &attrs) {
  std::optional<Shape> shape = attrShape(attrs, "shape");
  if (!shape) throw statefulError(k, "random ops need a shape attribute");
  if (!isDynamicArg(attrs, "shape"))
    for (int64_t d : shape->dims)
      if (d < 0) throw statefulError(k, fmt::format("Dimension {} must be >= 0", d));
  return *shape;
}

void requireFloat(OpKind k, const TensorType &t, const char *what) {
  if (!isFloating(t.dtype))
    throw statefulError(k, fmt::format("Value for attr '{}' of {} is not in the list of allowed values: half, "
                                       "float, double", what, dtypeName(t.dtype)));
}

// shape + the parameter tensor's shape (gamma's alpha, poisson's rate).
Types parameterized(OpKind k, In in, const Attrs &attrs) {
  Shape shape = requestedShape(k, attrs);
  DType d = attrDType(attrs, "dtype").value_or(in[0].dtype);
  if (!in[0].shape.ranked || !shape.ranked) return {TensorType{d, Shape::unranked()}};
  std::vector<int64_t> dims = shape.dims;
  dims.insert(dims.end(), in[0].shape.dims.begin(), in[0].shape.dims.end());
  return {TensorType{d, Shape(dims)}};
}

Types multinomial(In in, const Attrs &attrs) {
  requireFloat(OpKind::Multinomial, in[0], "T");
  if (in[0].shape.ranked && in[0].shape.rank() != 2)
    throw statefulError(OpKind::Multinomial, fmt::format("logits should be a matrix, got shape {}",
                                                         in[0].shape.tfString()));
  std::optional<Shape> n = attrShape(attrs, "num_samples");
  int64_t samples = kUnknownDim;
  if (n && !isDynamicArg(attrs, "num_samples") && !n->dims.empty()) samples = n->dims[0];
  if (auto v = attrs.find("num_samples"); v != attrs.end() && std::holds_alternative<int64_t>(v->second))
    samples = std::get<int64_t>(v->second);
  if (samples < 0 && samples != kUnknownDim)
    throw statefulError(OpKind::Multinomial, fmt::format("num_samples should be nonnegative, got {}", samples));
  int64_t batch = in[0].shape.ranked ? in[0].shape.dims[0] : kUnknownDim;
  return {TensorType{attrDType(attrs, "output_dtype").value_or(DType::Int64), Shape({batch, samples})}};
}

Types truncatedNormal(In, const Attrs &attrs) {
  return {TensorType{attrDType(attrs, "dtype").value_or(DType::Float32),
                     requestedShape(OpKind::RandomTruncatedNormal, attrs)}};
}

Types shuffle(In in, const Attrs &) { return {in[0]}; }

Types gamma(In in, const Attrs &attrs) {
  requireFloat(OpKind::RandomGamma, in[0], "T");
  return parameterized(OpKind::RandomGamma, in, attrs);
}

Types poisson(In in, const Attrs &attrs) { return parameterized(OpKind::RandomPoisson, in, attrs); }

Types timestamp(In, const Attrs &) { return {TensorType{DType::Float64, Shape(std::vector<int64_t>{})}}; }

}  // namespace

TypeRule statefulTypeRule(OpKind kind) {
  switch (kind) {
  case OpKind::RandomTruncatedNormal: return truncatedNormal;
  case OpKind::RandomShuffle: return shuffle;
  case OpKind::Multinomial: return multinomial;
  case OpKind::RandomGamma: return gamma;
  case OpKind::RandomPoisson: return poisson;
  case OpKind::Timestamp: return timestamp;
  default: return nullptr;
  }
}

}  // namespace tfs::ir
