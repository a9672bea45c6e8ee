// Type rules of the string ops of tf.strings (case, strip, length,
// to_number, substr, reduce_join, format, regex_full_match / replace, the
// hash buckets), tf.fingerprint and
// py_function, whose result dtypes are its Tout attribute and whose shapes
// are known only when it runs.
#include "ir/op_rules.h"

#include <fmt/format.h>

namespace tfs::ir {

namespace {
using Types = std::vector<TensorType>;
using In = std::span<const TensorType>;

void requireString(OpKind k, In in, size_t i) {
  if (in[i].dtype != DType::String) throw dtypeMismatch(k, int(i), DType::String, in[i].dtype);
}

template <OpKind K> Types elementwise(In in, const Attrs &attrs) {
  requireString(K, in, 0);
  DType out = DType::String;
  if (K == OpKind::StringLength) out = DType::Int32;
  if (K == OpKind::RegexFullMatch) out = DType::Bool;
  if (K == OpKind::StringToNumber) out = attrDType(attrs, "out_type").value_or(DType::Float32);
  if (K == OpKind::StringToHashBucketFast || K == OpKind::StringToHashBucketStrong || K == OpKind::StringToHashBucket)
    out = DType::Int64;
  return {TensorType{out, in[0].shape}};
}

// TF's Substr: pos and len of one shape; scalars or input's shape apply
// per element, any other shape broadcasts against input (TF's kernel has
// the 1-D and 2-D cases only).
Types substr(In in, const Attrs &) {
  requireString(OpKind::Substr, in, 0);
  for (size_t i = 1; i < 3; ++i)
    if (in[i].dtype != DType::Int32 && in[i].dtype != DType::Int64)
      throw dtypeMismatch(OpKind::Substr, int(i), DType::Int32, in[i].dtype);
  if (in[1].dtype != in[2].dtype) throw dtypeMismatch(OpKind::Substr, 2, in[1].dtype, in[2].dtype);
  const Shape &pos = in[1].shape, &len = in[2].shape;
  if (!pos.ranked || !len.ranked || !in[0].shape.ranked) return {TensorType{DType::String, Shape::unranked()}};
  bool same = pos.rank() == len.rank();
  for (size_t i = 0; same && i < pos.rank(); ++i)
    same = pos.dims[i] < 0 || len.dims[i] < 0 || pos.dims[i] == len.dims[i];
  if (!same)
    throw opError(OpKind::Substr, fmt::format("pos and len should have the same shape, got: {} vs. {}",
                                              pos.debugString(), len.debugString()));
  if (pos.rank() == 0 || pos == in[0].shape) return {TensorType{DType::String, in[0].shape}};
  Shape out = broadcastShapes(in[0].shape, pos, OpKind::Substr);
  if (out.rank() > 2)
    throw OpError{"UnimplementedError", fmt::format("Substr broadcast not implemented for {} dimensions [Op:Substr]",
                                                    out.rank())};
  return {TensorType{DType::String, out}};
}

Types reduceJoin(In in, const Attrs &attrs) {
  requireString(OpKind::ReduceJoin, in, 0);
  if (!in[0].shape.ranked) return {TensorType{DType::String, Shape::unranked()}};
  int64_t r = int64_t(in[0].shape.rank());
  std::vector<bool> reduced(size_t(r), attrInts(attrs, "axis") == nullptr);
  if (const auto *axes = attrInts(attrs, "axis"))
    for (int64_t a : *axes) {
      if (a < -r || a >= r)
        throw OpError{"InvalidArgumentError",
                      fmt::format("Invalid reduction dimension {} for input with {} dimension(s) [Op:ReduceJoin]", a, r)};
      reduced[size_t(a < 0 ? a + r : a)] = true;
    }
  bool keep = attrBool(attrs, "keepdims", false);
  std::vector<int64_t> dims;
  for (int64_t i = 0; i < r; ++i) {
    if (!reduced[size_t(i)]) dims.push_back(in[0].shape.dims[size_t(i)]);
    else if (keep) dims.push_back(1);
  }
  return {TensorType{DType::String, Shape(dims)}};
}

Types scalarString(In, const Attrs &) { return {TensorType{DType::String, Shape(std::vector<int64_t>{})}}; }

// TF's Fingerprint: 8 uint8 bytes per row of data (any dtype, rank >= 1).
Types fingerprint(In in, const Attrs &) {
  const Shape &s = in[0].shape;
  int64_t rows = s.ranked && s.rank() > 0 ? s.dims[0] : -1;
  return {TensorType{DType::UInt8, Shape(std::vector<int64_t>{rows, 8})}};
}

Types pyFunction(In, const Attrs &attrs) {
  Types out;
  if (const auto *tout = attrInts(attrs, "Tout"))
    for (int64_t d : *tout) out.push_back(TensorType{DType(d), Shape::unranked()});
  return out;
}

}  // namespace

TypeRule stringsTypeRule(OpKind kind) {
  switch (kind) {
  case OpKind::StringUpper: return elementwise<OpKind::StringUpper>;
  case OpKind::StringLower: return elementwise<OpKind::StringLower>;
  case OpKind::StringStrip: return elementwise<OpKind::StringStrip>;
  case OpKind::StringLength: return elementwise<OpKind::StringLength>;
  case OpKind::StringToNumber: return elementwise<OpKind::StringToNumber>;
  case OpKind::RegexFullMatch: return elementwise<OpKind::RegexFullMatch>;
  case OpKind::RegexReplace: return elementwise<OpKind::RegexReplace>;
  case OpKind::StringToHashBucketFast: return elementwise<OpKind::StringToHashBucketFast>;
  case OpKind::StringToHashBucketStrong: return elementwise<OpKind::StringToHashBucketStrong>;
  case OpKind::StringToHashBucket: return elementwise<OpKind::StringToHashBucket>;
  case OpKind::Fingerprint: return fingerprint;
  case OpKind::Substr: return substr;
  case OpKind::ReduceJoin: return reduceJoin;
  case OpKind::StringFormat: return scalarString;
  case OpKind::PyFunction: return pyFunction;
  default: return nullptr;
  }
}

}  // namespace tfs::ir
