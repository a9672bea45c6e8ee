// Gradient rules of linear algebra, shape and indexing ops (TF 2.15
// array_grad.py / math_grad.py). Slices go back through strided_slice_grad,
// gathers through unsorted_segment_sum; shapes the graph does not know come
// from shape tensors, so the rules work with unknown dims.
#include "runtime/autodiff/rule_macros.h"

#include <algorithm>
#include <fmt/format.h>

namespace tfs::runtime::autodiff_detail {
namespace {

// The rules below written with COMPLEX_PRELUDE only move, copy or sum
// elements (transpose, reshape, slices, concat, stack, broadcast, tile):
// linear maps whose adjoint involves no conjugate, so they hold for complex
// tensors as they are (a complex spectrum of tf.linalg.LinearOperatorCirculant
// goes through them). matmul and gather keep refusing complex tensors.

RULE(matmulGrad) {
  PRELUDE;
  Handle a = op.inputs[0], bb = op.inputs[1];
  if (!b.isFloat(a))
    return {std::nullopt, std::nullopt};
  bool ta = ir::attrBool(op.attrs, "transpose_a", false);
  bool tb = ir::attrBool(op.attrs, "transpose_b", false);
  Handle ga, gb;
  if (!ta && !tb) {
    ga = b.matmul(g, bb, false, true);
    gb = b.matmul(a, g, true, false);
  } else if (!ta && tb) {
    ga = b.matmul(g, bb, false, false);
    gb = b.matmul(g, a, true, false);
  } else if (ta && !tb) {
    ga = b.matmul(bb, g, false, true);
    gb = b.matmul(a, g, false, false);
  } else {
    ga = b.matmul(bb, g, true, true);
    gb = b.matmul(g, a, true, true);
  }
  // Batch dims that were broadcast are summed away.
  return {b.unbroadcast(ga, a), b.unbroadcast(gb, bb)};
}

RULE(transposeGrad) {
  COMPLEX_PRELUDE;
  int64_t r = b.rank(op.inputs[0], "transpose");
  std::vector<int64_t> perm;
  if (auto *p = ir::attrInts(op.attrs, "perm"))
    perm = *p;
  else
    for (int64_t i = r - 1; i >= 0; --i)
      perm.push_back(i);
  std::vector<int64_t> inv(r);
  for (int64_t i = 0; i < r; ++i)
    inv[normalizeAxis(perm[i], r)] = i;
  return {b.transpose(g, inv)};
}

RULE(reshapeGrad) {
  COMPLEX_PRELUDE;
  return {b.reshapeLike(g, op.inputs[0])};
}

RULE(expandDimsGrad) {
  COMPLEX_PRELUDE;
  int64_t r = b.rank(op.inputs[0], "expand_dims");
  int64_t axis = normalizeAxis(ir::attrInt(op.attrs, "axis", 0), r + 1);
  return {b.op(OpKind::Squeeze, {g}, {{"axis", std::vector<int64_t>{axis}}})};
}

RULE(squeezeGrad) {
  COMPLEX_PRELUDE;
  Handle x = op.inputs[0];
  auto *axes = ir::attrInts(op.attrs, "axis");
  if (!axes || axes->empty())
    return {b.reshapeLike(g, x)};
  int64_t r = b.rank(x, "squeeze");
  std::vector<int64_t> norm;
  for (int64_t a : *axes)
    norm.push_back(normalizeAxis(a, r));
  std::sort(norm.begin(), norm.end());
  for (int64_t a : norm)
    g = b.expandDims(g, a);
  return {g};
}

// Each input's gradient is its slice of g along the axis, at offsets that
// are the running sum of the inputs' sizes there (shape tensors where the
// sizes are unknown).
RULE(concatGrad) {
  COMPLEX_PRELUDE;
  int64_t r = b.rank(op.inputs[0], "concat");
  int64_t axis = normalizeAxis(ir::attrInt(op.attrs, "axis", 0), r);
  // Every dim but the axis is taken whole.
  int64_t allButAxis = ((int64_t(1) << r) - 1) & ~(int64_t(1) << axis);
  std::vector<int64_t> zeros(static_cast<size_t>(r), 0), ones(static_cast<size_t>(r), 1);
  Grads out;
  Handle offset = b.intScalar(0);
  for (Handle x : op.inputs) {
    Handle size = b.dimOf(x, axis);
    Handle end = b.add(offset, size);
    if (!b.isFloat(x) && !b.isComplex(x)) {
      out.push_back(std::nullopt);
    } else {
      std::vector<Handle> begins, ends;
      for (int64_t d = 0; d < r; ++d) {
        begins.push_back(d == axis ? offset : b.intScalar(0));
        ends.push_back(d == axis ? end : b.intScalar(0));
      }
      out.push_back(b.op(OpKind::StridedSlice, {g, b.stackScalars(begins), b.stackScalars(ends)},
                         {{"strides", ones}, {"begin_mask", allButAxis}, {"end_mask", allButAxis}}));
    }
    offset = end;
  }
  return out;
}

RULE(stackGrad) {
  COMPLEX_PRELUDE;
  int64_t r = b.rank(op.inputs[0], "stack");
  int64_t axis = normalizeAxis(ir::attrInt(op.attrs, "axis", 0), r + 1);
  Grads out;
  for (size_t i = 0; i < op.inputs.size(); ++i) {
    if (!b.isFloat(op.inputs[i]) && !b.isComplex(op.inputs[i])) {
      out.push_back(std::nullopt);
      continue;
    }
    Handle index = em.constant(static_cast<double>(i), ir::DType::Int32);
    out.push_back(b.op(OpKind::Gather, {g, index}, {{"axis", axis}}));
  }
  return out;
}

// gather(params, indices, axis): g has shape P[:a] + I + P[a+1:]. The
// index dims go first, fold to one, and unsorted_segment_sum adds each row
// into its index; the sum's first dim then moves back to `a` (TF's
// _GatherV2Grad, dense).
RULE(gatherGrad) {
  PRELUDE;
  Handle params = op.inputs[0], indices = op.inputs[1];
  if (!b.isFloat(params))
    return {std::nullopt, std::nullopt};
  if (ir::attrInt(op.attrs, "batch_dims", 0) != 0)
    throwGradError("gradient of gather with batch_dims is not supported");
  int64_t r = b.rank(params, "gather"), ri = b.rank(indices, "gather");
  int64_t axis = normalizeAxis(ir::attrInt(op.attrs, "axis", 0), r);
  Handle pshape = b.shapeOf(params);
  if (axis != 0) {
    std::vector<int64_t> perm;
    for (int64_t i = 0; i < ri; ++i) perm.push_back(axis + i);
    for (int64_t i = 0; i < axis; ++i) perm.push_back(i);
    for (int64_t i = axis + ri; i < r - 1 + ri; ++i) perm.push_back(i);
    g = b.transpose(g, perm);
  }
  // [-1] + P[:a] + P[a+1:]
  std::vector<Handle> parts{b.ints({-1})};
  if (axis > 0) parts.push_back(b.sliceVec(pshape, 0, axis));
  if (axis + 1 < r) parts.push_back(b.sliceVec(pshape, axis + 1, r));
  Handle rows = b.reshapeTo(g, b.concatVecs(parts));
  Handle sums = b.op(OpKind::UnsortedSegmentSum,
                     {rows, b.reshape(indices, {-1}), b.dimOf(params, axis)});
  if (axis == 0)
    return {sums, std::nullopt};
  std::vector<int64_t> back;
  for (int64_t i = 1; i <= axis; ++i) back.push_back(i);
  back.push_back(0);
  for (int64_t i = axis + 1; i < r; ++i) back.push_back(i);
  return {b.transpose(sums, back), std::nullopt};
}

// strided_slice(x): the gradient is g placed at the slice in zeros of x's
// shape (TF's StridedSliceGrad op); run-time begin/end/strides pass on.
RULE(stridedSliceGrad) {
  COMPLEX_PRELUDE;
  Handle x = op.inputs[0];
  if (!b.isFloat(x) && !b.isComplex(x))
    return {std::nullopt};
  std::vector<Handle> operands{g};
  ir::Attrs attrs = op.attrs;
  auto t = b.type(x);
  if (t.shape.ranked && t.shape.fullyDefined())
    attrs["shape"] = t.shape.dims;
  else
    operands.push_back(b.op(OpKind::ShapeOf, {x}));
  for (size_t i = 1; i < op.inputs.size(); ++i)
    operands.push_back(op.inputs[i]);
  Grads out{b.opv(OpKind::StridedSliceGrad, operands, attrs)};
  out.resize(op.inputs.size());
  return out;
}

RULE(broadcastToGrad) {
  COMPLEX_PRELUDE;
  return {b.unbroadcast(g, op.inputs[0])};
}

// tile(x, m): view g as [m0, s0, m1, s1, ...] and sum the multiples away
// (sizes and multiples from tensors where only known at run time).
RULE(tileGrad) {
  COMPLEX_PRELUDE;
  Handle x = op.inputs[0];
  int64_t r = b.rank(x, "tile");
  const auto *m = ir::attrInts(op.attrs, "multiples");
  if (m && m->size() != static_cast<size_t>(r))
    throwGradError("gradient of tile needs a multiples attribute of the input's rank");
  std::vector<Handle> split;
  std::vector<int64_t> axes;
  for (int64_t i = 0; i < r; ++i) {
    axes.push_back(2 * i);
    split.push_back(m ? b.intScalar((*m)[i])
                      : b.cast(b.op(OpKind::StridedSlice, {op.inputs[1]},
                                    {{"begin", std::vector<int64_t>{i}}, {"end", std::vector<int64_t>{i + 1}},
                                     {"strides", std::vector<int64_t>{1}}, {"shrink_axis_mask", int64_t(1)}}),
                               ir::DType::Int32));
    split.push_back(b.dimOf(x, i));
  }
  Grads out{b.reduceSum(b.reshapeTo(g, b.stackScalars(split)), axes, false)};
  out.resize(op.inputs.size());
  return out;
}

// unbroadcast(x, like) sums x to like's shape: its adjoint broadcasts back.
RULE(unbroadcastGrad) {
  COMPLEX_PRELUDE;
  return {b.broadcastLike(g, op.inputs[0]), std::nullopt};
}

RULE(fillGrad) {
  PRELUDE;
  Handle v = op.inputs[0];
  if (!b.isFloat(v))
    return {std::nullopt};
  int64_t r = b.rank(g, "fill");
  std::vector<int64_t> all(r);
  for (int64_t i = 0; i < r; ++i)
    all[i] = i;
  return {b.reshapeLike(b.reduceSum(g, all, false), v)};
}

const RuleEntry kArrayRules[] = {
    {OpKind::MatMul, matmulGrad},
    {OpKind::Transpose, transposeGrad},
    {OpKind::Reshape, reshapeGrad},
    {OpKind::ExpandDims, expandDimsGrad},
    {OpKind::Squeeze, squeezeGrad},
    {OpKind::Concat, concatGrad},
    {OpKind::Stack, stackGrad},
    {OpKind::Gather, gatherGrad},
    {OpKind::StridedSlice, stridedSliceGrad},
    {OpKind::BroadcastTo, broadcastToGrad},
    {OpKind::Tile, tileGrad},
    {OpKind::Unbroadcast, unbroadcastGrad},
    {OpKind::Fill, fillGrad},
};

}  // namespace

std::span<const RuleEntry> arrayRules() { return kArrayRules; }

}  // namespace tfs::runtime::autodiff_detail
