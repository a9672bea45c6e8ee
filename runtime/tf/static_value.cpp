// The value of a symbolic tensor when it is known while tracing (TF's
// tensor_util.constant_value): constants, the shape/size of a value whose
// static shape is fully defined, and pure ops on such values, evaluated with
// the eager kernels. Ops whose arguments must be static (the shape of a
// random op, a reshape target) read it here.
#include "runtime/kernels/kernels.h"
#include "runtime/tf/tf.h"
#include "runtime/tf/lifted_value.h"

namespace tfs::runtime::tf {

namespace {

Tensor intVector(ir::DType dtype, const std::vector<int64_t> &xs) {
  std::vector<double> ds(xs.begin(), xs.end());
  return Tensor::fromDoubles(dtype, {int64_t(xs.size())}, ds);
}

// The ops tensor_util.constant_value evaluates (tf.get_static_value
// reports None past them, even where tfs could compute more).
bool tfEvaluates(ir::OpKind k) {
  switch (k) {
  case ir::OpKind::Range: case ir::OpKind::Cast: case ir::OpKind::Concat: case ir::OpKind::Stack:
  case ir::OpKind::Fill: case ir::OpKind::Equal: case ir::OpKind::NotEqual: case ir::OpKind::Identity:
    return true;
  default:
    return false;
  }
}

// The random ops TF's lift_to_graph copies out of a function with their
// seed attributes: the copy is a new kernel, so it draws the first numbers
// of its (seed, seed2) stream.
bool isRandomDraw(ir::OpKind k) {
  switch (k) {
  case ir::OpKind::RandomNormal: case ir::OpKind::RandomUniform: case ir::OpKind::RandomTruncatedNormal:
    return true;
  default:
    return false;
  }
}

std::optional<Tensor> evaluate(const ir::Value *x, int depth, bool tfOnly, bool freshRandom = false) {
  if (const ir::DenseElements *d = ir::constValueOf(x)) return tensorFromDense(*d);
  const ir::Node *n = x->definingNode();
  if (!n || depth > 64) return std::nullopt;
  ir::DType outType = ir::attrDType(n->attrs, "out_type").value_or(ir::DType::Int32);
  if (n->kind() == ir::OpKind::ShapeOf || n->kind() == ir::OpKind::SizeOf) {
    const ir::Shape &s = n->operand(0)->type.shape;
    if (!s.ranked || !s.fullyDefined()) return std::nullopt;
    if (n->kind() == ir::OpKind::ShapeOf) return intVector(outType, s.dims);
    return Tensor::fromDoubles(outType, {}, {double(s.numElements())});
  }
  bool randomDraw = freshRandom && isRandomDraw(n->kind());
  if ((!n->isPure() && !randomDraw) || n->numRegions() > 0 || !kernelFor(n->kind())) return std::nullopt;
  if (tfOnly && !tfEvaluates(n->kind())) return std::nullopt;
  std::vector<Tensor> ins;
  for (const ir::Value *o : n->operands()) {
    auto t = evaluate(o, depth + 1, tfOnly, freshRandom);
    if (!t) return std::nullopt;
    ins.push_back(*t);
  }
  ir::Attrs attrs = n->attrs;
  if (randomDraw && ir::attrInt(attrs, "stateful", 0) != 0) attrs["counter"] = int64_t(0);
  try {
    auto outs = runKernel(n->kind(), ins, attrs);
    for (size_t i = 0; i < n->numResults(); ++i)
      if (n->result(unsigned(i)) == x) return outs.at(i);
  } catch (const ir::OpError &) {
  }
  return std::nullopt;
}

}  // namespace

std::optional<Tensor> constantValue(const ir::Value *v, bool tfOpsOnly) { return evaluate(v, 0, tfOpsOnly); }

std::optional<Tensor> liftedValue(const ir::Value *v) { return evaluate(v, 0, false, true); }

std::optional<Tensor> staticValue(const TensorObject &t, bool tfOpsOnly) {
  if (!t.symbolic()) return t.eager;
  return constantValue(t.sym, tfOpsOnly);
}

}  // namespace tfs::runtime::tf
