// Strided-slice canonicalization: see slicing.h.
#include "ir/slicing.h"
#include "ir/shape_args.h"

#include <fmt/format.h>

namespace tfs::ir {

SlicePlan planStridedSlice(const std::vector<int64_t> &inputDims, const Attrs &attrs) {
  static const std::vector<int64_t> none;
  const auto *begin = attrInts(attrs, "begin");
  const auto *end = attrInts(attrs, "end");
  const auto *strides = attrInts(attrs, "strides");
  // begin / end known only at run time (a Shape attribute: ir/shape_args.h)
  // leave the dims they slice unknown, as TF's shape function does.
  std::optional<Shape> dynBegin, dynEnd;
  if (isDynamicArg(attrs, "begin")) dynBegin = attrShape(attrs, "begin");
  if (isDynamicArg(attrs, "end")) dynEnd = attrShape(attrs, "end");
  std::vector<int64_t> beginZeros, endZeros;
  if (dynBegin) {
    beginZeros.assign(dynBegin->ranked ? dynBegin->rank() : 0, 0);
    begin = &beginZeros;
  }
  if (dynEnd) {
    endZeros.assign(dynEnd->ranked ? dynEnd->rank() : 0, 0);
    end = &endZeros;
  }
  if (!begin) begin = &none;
  if (!end) end = &none;
  size_t n = begin->size();
  if (end->size() != n || (strides && strides->size() != n))
    throw OpError{"InvalidArgumentError",
                  "Expected begin, end, and strides to be 1D equal size tensors"};
  int64_t beginMask = attrInt(attrs, "begin_mask", 0), endMask = attrInt(attrs, "end_mask", 0);
  int64_t ellipsisMask = attrInt(attrs, "ellipsis_mask", 0);
  int64_t newAxisMask = attrInt(attrs, "new_axis_mask", 0);
  int64_t shrinkMask = attrInt(attrs, "shrink_axis_mask", 0);

  // Spec entries that consume an input dim.
  size_t consuming = 0;
  for (size_t i = 0; i < n; ++i)
    if (!(newAxisMask >> i & 1) && !(ellipsisMask >> i & 1)) ++consuming;
  SlicePlan plan;
  plan.dims.resize(inputDims.size());
  for (size_t d = 0; d < inputDims.size(); ++d)  // defaults: full range
    plan.dims[d] = SliceDim{0, 1, inputDims[d]};
  std::vector<int64_t> shape;
  size_t dim = 0;
  bool sawEllipsis = false;
  for (size_t i = 0; i < n; ++i) {
    if (ellipsisMask >> i & 1) {
      if (sawEllipsis) throw OpError{"InvalidArgumentError", "Multiple ellipses in slice spec not allowed"};
      sawEllipsis = true;
      size_t skip = inputDims.size() >= consuming ? inputDims.size() - consuming : 0;
      for (size_t k = 0; k < skip && dim < inputDims.size(); ++k, ++dim)
        shape.push_back(inputDims[dim]);
      continue;
    }
    if (newAxisMask >> i & 1) {
      shape.push_back(1);
      continue;
    }
    if (dim >= inputDims.size())
      throw OpError{"InvalidArgumentError",
                    fmt::format("Index out of range using input dim {}; input has only {} dims",
                                dim, inputDims.size())};
    int64_t size = inputDims[dim];
    int64_t step = strides ? (*strides)[i] : 1;
    if (step == 0) throw OpError{"InvalidArgumentError", "strides[i] must be non-zero"};
    bool shrink = shrinkMask >> i & 1;
    SliceDim &sd = plan.dims[dim];
    sd.step = step;
    if (shrink) {
      int64_t idx = (*begin)[i];
      if (dynBegin) {
        sd = SliceDim{0, 1, 1};
        ++dim;
        continue;
      }
      if (size >= 0) {
        if (idx < -size || idx >= size)
          throw OpError{"InvalidArgumentError",
                        fmt::format("slice index {} of dimension {} out of bounds.", idx, dim)};
        if (idx < 0) idx += size;
      }
      sd = SliceDim{idx, 1, 1};
      ++dim;
      continue;
    }
    bool bothMasked = (beginMask >> i & 1) && (endMask >> i & 1);
    if ((dynBegin || dynEnd) && !(bothMasked && size >= 0)) {
      sd.size = kUnknownDim;
      shape.push_back(kUnknownDim);
      ++dim;
      continue;
    }
    if (size < 0) {
      sd.size = kUnknownDim;
      shape.push_back(kUnknownDim);
      ++dim;
      continue;
    }
    // Python slice semantics clamped to [0, size] (or [-1, size-1] for negative steps).
    auto clampIndex = [&](int64_t v, bool isBegin) {
      bool masked = isBegin ? (beginMask >> i & 1) : (endMask >> i & 1);
      if (masked) return step > 0 ? (isBegin ? int64_t(0) : size) : (isBegin ? size - 1 : int64_t(-1));
      if (v < 0) v += size;
      if (step > 0) return std::clamp<int64_t>(v, 0, size);
      return std::clamp<int64_t>(v, -1, size - 1);
    };
    int64_t b = clampIndex((*begin)[i], true), e = clampIndex((*end)[i], false);
    // In 128 bits: -step of INT64_MIN does not exist in 64.
    __int128 st = step;
    int64_t count = int64_t(st > 0 ? (e > b ? (e - b + st - 1) / st : 0)
                                   : (b > e ? (b - e - st - 1) / -st : 0));
    sd = SliceDim{b, step, count};
    shape.push_back(count);
    ++dim;
  }
  for (; dim < inputDims.size(); ++dim)
    shape.push_back(inputDims[dim]);
  plan.resultShape = std::move(shape);
  return plan;
}

}  // namespace tfs::ir
