// GradBuilder helpers: shape-aware compositions the gradient rules share.
// Attribute keys follow the kernels' conventions (runtime/kernels).
#include "runtime/autodiff/grad_builder.h"

#include <algorithm>
#include <fmt/format.h>
#include <numeric>

namespace tfs::runtime {

void throwGradError(const std::string &message) {
  throw ir::OpError{"LookupError", message};
}

namespace autodiff_detail {

int64_t normalizeAxis(int64_t axis, int64_t rank) {
  int64_t a = axis < 0 ? axis + rank : axis;
  if (a < 0 || a >= std::max<int64_t>(rank, 1))
    throw ir::OpError{"InvalidArgumentError",
                      fmt::format("axis {} out of range for rank {}", axis, rank)};
  return a;
}

std::vector<int64_t> reductionAxes(const Attrs &attrs, int64_t rank) {
  std::vector<int64_t> axes;
  auto it = attrs.find("axis");
  if (it == attrs.end()) {
    axes.resize(rank);
    std::iota(axes.begin(), axes.end(), 0);
    return axes;
  }
  if (auto *v = std::get_if<std::vector<int64_t>>(&it->second))
    axes = *v;
  else if (auto *i = std::get_if<int64_t>(&it->second))
    axes = {*i};
  for (auto &a : axes)
    a = normalizeAxis(a, rank);
  std::sort(axes.begin(), axes.end());
  axes.erase(std::unique(axes.begin(), axes.end()), axes.end());
  return axes;
}

int64_t GradBuilder::rank(Handle h, const char *what) {
  auto t = type(h);
  if (!t.shape.ranked)
    throwGradError(fmt::format("gradient of {} needs a tensor of known rank", what));
  return static_cast<int64_t>(t.shape.rank());
}

std::vector<int64_t> GradBuilder::staticDims(Handle h, const char *what) {
  auto t = type(h);
  if (!t.shape.ranked || !t.shape.fullyDefined())
    throwGradError(fmt::format("gradient of {} needs a fully known shape, got {}",
                               what, t.str()));
  return t.shape.dims;
}

void GradBuilder::rejectComplex(const GradOpInfo &op) {
  auto complexIn = [&](std::span<const Handle> hs) {
    for (Handle h : hs)
      if (isComplex(h))
        return true;
    return false;
  };
  if (complexIn(op.inputs) || complexIn(op.outputs))
    throw ir::OpError{"UnimplementedError",
                      fmt::format("gradients of {} on complex tensors are not supported by tfs",
                                  ir::tfOpType(op.kind))};
}

Handle GradBuilder::cast(Handle a, ir::DType t) {
  if (dtype(a) == t)
    return a;
  return op(OpKind::Cast, {a}, {{"dtype", t}});
}

Handle GradBuilder::unbroadcast(Handle g, Handle like) {
  auto tg = type(g), tl = type(like);
  if (tg.shape.ranked && tl.shape.ranked && tg.shape.fullyDefined() &&
      tg.shape == tl.shape)
    return g;
  return op(OpKind::Unbroadcast, {g, like});
}

Handle GradBuilder::broadcastLike(Handle g, Handle like) {
  auto tg = type(g), tl = type(like);
  if (tg.shape.ranked && tl.shape.ranked && tg.shape.fullyDefined() &&
      tg.shape == tl.shape)
    return g;
  if (tl.shape.ranked && tl.shape.fullyDefined())
    return op(OpKind::BroadcastTo, {g}, {{"shape", tl.shape.dims}});
  // Unknown dims: broadcasting against zeros of the target shape.
  Handle zeros = zerosLike(like);
  if (dtype(like) != dtype(g))
    zeros = cast(zeros, dtype(g));
  return add(g, zeros);
}

Handle GradBuilder::reduceSum(Handle x, std::vector<int64_t> axes, bool keepdims) {
  return op(OpKind::ReduceSum, {x}, {{"axis", std::move(axes)}, {"keepdims", keepdims}});
}

Handle GradBuilder::reshape(Handle x, std::vector<int64_t> dims) {
  auto t = type(x);
  if (t.shape.ranked && t.shape.fullyDefined() && t.shape.dims == dims)
    return x;
  return op(OpKind::Reshape, {x}, {{"shape", std::move(dims)}});
}

Handle GradBuilder::reshapeLike(Handle x, Handle like) {
  auto t = type(like);
  if (t.shape.ranked && std::count(t.shape.dims.begin(), t.shape.dims.end(), ir::kUnknownDim) <= 1)
    return reshape(x, t.shape.dims);
  return reshapeTo(x, shapeOf(like));
}

Handle GradBuilder::ints(const std::vector<int64_t> &v) {
  Tensor t = Tensor::empty(ir::DType::Int32, {static_cast<int64_t>(v.size())});
  for (size_t i = 0; i < v.size(); ++i)
    t.data<int32_t>()[i] = static_cast<int32_t>(v[i]);
  return em_.constantTensor(t);
}

Handle GradBuilder::shapeOf(Handle h) {
  auto t = type(h);
  if (t.shape.ranked && t.shape.fullyDefined())
    return ints(t.shape.dims);
  return op(OpKind::ShapeOf, {h});
}

Handle GradBuilder::dimOf(Handle h, int64_t axis) {
  auto t = type(h);
  if (t.shape.ranked && axis < int64_t(t.shape.rank()) && t.shape.dims[axis] >= 0)
    return intScalar(t.shape.dims[axis]);
  return op(OpKind::StridedSlice, {op(OpKind::ShapeOf, {h})},
            {{"begin", std::vector<int64_t>{axis}}, {"end", std::vector<int64_t>{axis + 1}},
             {"strides", std::vector<int64_t>{1}}, {"shrink_axis_mask", int64_t(1)}});
}

Handle GradBuilder::sliceVec(Handle v, int64_t begin, int64_t end) {
  return op(OpKind::StridedSlice, {v},
            {{"begin", std::vector<int64_t>{begin}}, {"end", std::vector<int64_t>{end}},
             {"strides", std::vector<int64_t>{1}}});
}

Handle GradBuilder::concatVecs(const std::vector<Handle> &parts) {
  if (parts.size() == 1)
    return parts[0];
  return opv(OpKind::Concat, parts, {{"axis", int64_t(0)}});
}

Handle GradBuilder::stackScalars(const std::vector<Handle> &parts) {
  return opv(OpKind::Stack, parts, {{"axis", int64_t(0)}});
}

Handle GradBuilder::reshapeTo(Handle x, Handle shape) {
  return op(OpKind::Reshape, {x, shape});
}

Handle GradBuilder::withShapeOf(OpKind k, std::vector<Handle> operands, Attrs attrs, const char *key,
                                Handle like) {
  auto t = type(like);
  if (t.shape.ranked && t.shape.fullyDefined())
    attrs[key] = t.shape.dims;
  else
    operands.push_back(op(OpKind::ShapeOf, {like}));
  return opv(k, operands, attrs);
}

Handle GradBuilder::transpose(Handle x, std::vector<int64_t> perm) {
  bool identity = true;
  for (size_t i = 0; i < perm.size(); ++i)
    identity = identity && perm[i] == static_cast<int64_t>(i);
  if (identity)
    return x;
  return op(OpKind::Transpose, {x}, {{"perm", std::move(perm)}});
}

Handle GradBuilder::expandDims(Handle x, int64_t axis) {
  return op(OpKind::ExpandDims, {x}, {{"axis", axis}});
}

Handle GradBuilder::matmul(Handle a, Handle b, bool ta, bool tb) {
  return op(OpKind::MatMul, {a, b}, {{"transpose_a", ta}, {"transpose_b", tb}});
}

}  // namespace autodiff_detail
}  // namespace tfs::runtime
