// Type rules of TF's bitwise ops (bitwise_and/or/xor, left/right_shift,
// invert) and of bitcast, with the dtype lists of TF 2.15's
// op definitions (bitwise_ops.cc, array_ops.cc).
#include "ir/op_rules.h"

#include <fmt/format.h>

namespace tfs::ir {

namespace {
using Types = std::vector<TensorType>;
using In = std::span<const TensorType>;

constexpr DTypeSet kIntegers = kSignedInts | kUnsignedInts;
// Bitcast's T and type: the numeric types (no bool, no string).
constexpr DTypeSet kBitcastTypes = kRealTypes | kComplexTypes;

template <OpKind K> Types binary(In in, const Attrs &) {
  if (in[1].dtype != in[0].dtype) throw dtypeMismatch(K, 1, in[0].dtype, in[1].dtype);
  requireIn(K, in[0], kIntegers);
  return {TensorType{in[0].dtype, broadcastShapes(in[0].shape, in[1].shape, K)}};
}

Types invert(In in, const Attrs &) {
  requireIn(OpKind::Invert, in[0], kIntegers);
  return {in[0]};
}

// The message of TF's C kernel (tensorflow/c/kernels/bitcast_op.cc), which
// prints the DataType enum values ("Cannot bitcast from 1 to 18").
OpError bitcastError(DType from, DType to) {
  return opError(OpKind::Bitcast, fmt::format("Cannot bitcast from {} to {}", dtypeEnumValue(from), dtypeEnumValue(to)));
}

// A wider target consumes the last dimension (which must hold exactly
// wide/narrow elements); a narrower one appends a dimension of that ratio.
Types bitcast(In in, const Attrs &attrs) {
  std::optional<DType> to = attrDType(attrs, "type");
  if (!to) throw opError(OpKind::Bitcast, "bitcast needs a type attribute");
  requireIn(OpKind::Bitcast, in[0], kBitcastTypes);
  if (!(kBitcastTypes & bit(*to)))
    requireIn(OpKind::Bitcast, TensorType{*to, in[0].shape}, kBitcastTypes);
  size_t from = dtypeSize(in[0].dtype), width = dtypeSize(*to);
  const Shape &s = in[0].shape;
  if (from == width || !s.ranked) return {TensorType{*to, from == width ? s : Shape::unranked()}};
  std::vector<int64_t> dims = s.dims;
  if (from > width) {
    dims.push_back(int64_t(from / width));
    return {TensorType{*to, Shape(dims)}};
  }
  if (dims.empty() || (dims.back() >= 0 && dims.back() != int64_t(width / from)))
    throw bitcastError(in[0].dtype, *to);
  dims.pop_back();
  return {TensorType{*to, Shape(dims)}};
}

}  // namespace

TypeRule bitwiseTypeRule(OpKind kind) {
  switch (kind) {
  case OpKind::BitwiseAnd: return binary<OpKind::BitwiseAnd>;
  case OpKind::BitwiseOr: return binary<OpKind::BitwiseOr>;
  case OpKind::BitwiseXor: return binary<OpKind::BitwiseXor>;
  case OpKind::LeftShift: return binary<OpKind::LeftShift>;
  case OpKind::RightShift: return binary<OpKind::RightShift>;
  case OpKind::Invert: return invert;
  case OpKind::Bitcast: return bitcast;
  default: return nullptr;
  }
}

const char *bitwiseOpType(OpKind kind) {
  switch (kind) {
  case OpKind::BitwiseAnd: return "BitwiseAnd";
  case OpKind::BitwiseOr: return "BitwiseOr";
  case OpKind::BitwiseXor: return "BitwiseXor";
  case OpKind::LeftShift: return "LeftShift";
  case OpKind::RightShift: return "RightShift";
  case OpKind::Invert: return "Invert";
  case OpKind::Bitcast: return "Bitcast";
  default: return "?";
  }
}

}  // namespace tfs::ir
