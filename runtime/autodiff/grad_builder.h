// Private to runtime/autodiff: a thin, readable layer over GradEmitter used
// by the gradient rules (`b.mul(g, b.cos(x))` instead of emit(...) calls).
// Shape-dependent helpers (reduction axes, static dims) consult typeOf and
// throw a gradient error when a graph shape is too unknown to proceed.
#pragma once

#include "runtime/autodiff/gradients.h"

#include <string>

namespace tfs::runtime::autodiff_detail {

using ir::Attrs;
using ir::OpKind;

class GradBuilder {
public:
  explicit GradBuilder(GradEmitter &em) : em_(em) {}
  GradEmitter &emitter() { return em_; }

  Handle op(OpKind k, std::initializer_list<Handle> xs, const Attrs &a = {}) {
    std::vector<Handle> v(xs);
    return em_.emit(k, v, a);
  }
  Handle opv(OpKind k, const std::vector<Handle> &xs, const Attrs &a = {}) {
    return em_.emit(k, xs, a);
  }
  ir::TensorType type(Handle h) { return em_.typeOf(h); }
  ir::DType dtype(Handle h) { return em_.typeOf(h).dtype; }
  bool isFloat(Handle h) { return ir::isFloating(dtype(h)); }
  bool isComplex(Handle h) { return ir::isComplex(dtype(h)); }
  // Throws UnimplementedError when an input or output of `op` is complex.
  void rejectComplex(const GradOpInfo &op);
  // Scalar constant with the dtype of `like`.
  Handle scalar(double v, Handle like) { return em_.constant(v, dtype(like)); }

  Handle add(Handle a, Handle b) { return op(OpKind::Add, {a, b}); }
  Handle sub(Handle a, Handle b) { return op(OpKind::Sub, {a, b}); }
  Handle mul(Handle a, Handle b) { return op(OpKind::Mul, {a, b}); }
  Handle div(Handle a, Handle b) { return op(OpKind::Div, {a, b}); }
  Handle neg(Handle a) { return op(OpKind::Neg, {a}); }
  Handle zerosLike(Handle a) { return op(OpKind::ZerosLike, {a}); }
  Handle onesLike(Handle a) { return op(OpKind::OnesLike, {a}); }
  Handle select(Handle c, Handle t, Handle e) { return op(OpKind::Select, {c, t, e}); }
  Handle cast(Handle a, ir::DType t);

  // Sums `g` down to the shape of `like` (identity when shapes match).
  Handle unbroadcast(Handle g, Handle like);
  // Broadcasts `g` up to the shape of `like`.
  Handle broadcastLike(Handle g, Handle like);
  Handle reduceSum(Handle x, std::vector<int64_t> axes, bool keepdims);
  Handle reshape(Handle x, std::vector<int64_t> dims);
  // Reshape to the (static) shape of `like`; one unknown dim becomes -1.
  Handle reshapeLike(Handle x, Handle like);
  Handle transpose(Handle x, std::vector<int64_t> perm);
  Handle expandDims(Handle x, int64_t axis);
  Handle matmul(Handle a, Handle b, bool ta, bool tb);

  // --- shapes known only at run time (ir/shape_args.h) ---
  // Rules build shape arguments as int32 tensors; a graph folds the ones it
  // knows into attributes, so static graphs keep the static form.
  Handle ints(const std::vector<int64_t> &v);
  Handle intScalar(int64_t v) { return em_.constant(double(v), ir::DType::Int32); }
  // The shape of `h` (a constant when static).
  Handle shapeOf(Handle h);
  // Dim `axis` of `h` as an int32 scalar (a constant when static).
  Handle dimOf(Handle h, int64_t axis);
  // Elements [begin, end) of the int vector `v`.
  Handle sliceVec(Handle v, int64_t begin, int64_t end);
  // Int vectors / scalars joined into one vector.
  Handle concatVecs(const std::vector<Handle> &parts);
  Handle stackScalars(const std::vector<Handle> &parts);
  // reshape(x, shape) with a shape tensor.
  Handle reshapeTo(Handle x, Handle shape);
  // Given an op whose shape argument `key` is like's shape: the op, with
  // the shape as the attribute when static and as an operand otherwise.
  Handle withShapeOf(OpKind k, std::vector<Handle> operands, Attrs attrs, const char *key, Handle like);

  // Rank of `h`; throws a gradient error when unranked.
  int64_t rank(Handle h, const char *what);
  // Static dims of `h`; throws when any is unknown.
  std::vector<int64_t> staticDims(Handle h, const char *what);

private:
  GradEmitter &em_;
};

// Reduction axes of a reduce op on an input of rank `rank`: normalized,
// sorted, unique; all axes when the attr is absent.
std::vector<int64_t> reductionAxes(const Attrs &attrs, int64_t rank);
int64_t normalizeAxis(int64_t axis, int64_t rank);

// Rule registration tables, filled by each rules_*.cpp file.
struct RuleEntry {
  OpKind kind;
  GradRule rule;
};
std::span<const RuleEntry> mathRules();
std::span<const RuleEntry> arrayRules();
std::span<const RuleEntry> nnRules();
std::span<const RuleEntry> windowRules();
std::span<const RuleEntry> indexRules();
std::span<const RuleEntry> linalgRules();
std::span<const RuleEntry> scatterRules();
std::span<const RuleEntry> specialRules();  // rules_special.cpp
std::span<const RuleEntry> spectralRules();  // rules_spectral.cpp
std::span<const RuleEntry> imageRules();  // rules_image.cpp

}  // namespace tfs::runtime::autodiff_detail
