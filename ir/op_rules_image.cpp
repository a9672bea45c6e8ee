// Type rules of the image colour ops (adjust_contrastv2, adjust_saturation,
// adjust_hue, rgb_to_hsv, hsv_to_rgb, rgb_to_hsv_grad): TF's allowed dtypes and the checks
// its kernels make, with their messages (the eager ones: TF runs no shape
// function for an eager op).
#include "ir/op_rules.h"

#include <fmt/format.h>

namespace tfs::ir {

namespace {
using Types = std::vector<TensorType>;
using In = std::span<const TensorType>;

constexpr DTypeSet kAdjustTypes = bit(DType::Float16) | bit(DType::Float32);

int64_t lastDim(const Shape &s) { return s.ranked && s.rank() > 0 ? s.dims.back() : -1; }

// The scalar float32 factor of the adjust ops (operand 1).
void requireScalarFactor(OpKind k, In in, const char *what) {
  if (in[1].dtype != DType::Float32) throw dtypeMismatch(k, 1, DType::Float32, in[1].dtype);
  if (in[1].shape.ranked && in[1].shape.rank() != 0)
    throw opError(k, fmt::format("{} must be scalar: {}", what, in[1].shape.debugString()));
}

Types adjustContrast(In in, const Attrs &) {
  requireIn(OpKind::AdjustContrastv2, in[0], kAdjustTypes);
  if (in[0].shape.ranked && in[0].shape.rank() < 3)
    throw opError(OpKind::AdjustContrastv2,
                  fmt::format("input must be at least 3-D, got shape{}", in[0].shape.debugString()));
  requireScalarFactor(OpKind::AdjustContrastv2, in, "contrast_factor");
  return {in[0]};
}

template <OpKind K> Types adjustHsv(In in, const Attrs &) {
  requireIn(K, in[0], kAdjustTypes);
  if (in[0].shape.ranked && in[0].shape.rank() < 3)
    throw opError(K, fmt::format("input must be at least 3-D, got shape{}", in[0].shape.debugString()));
  requireScalarFactor(K, in, K == OpKind::AdjustHue ? "delta" : "scale");
  if (int64_t c = lastDim(in[0].shape); c >= 0 && c != 3)
    throw opError(K, fmt::format("input must have 3 channels but instead has {} channels.", c));
  return {in[0]};
}

template <OpKind K> Types colorspace(In in, const Attrs &) {
  requireIn(K, in[0], kFloatTypes);
  if (in[0].shape.ranked && in[0].shape.rank() < 1)
    throw opError(K, fmt::format("input must be at least 1D{}", in[0].shape.debugString()));
  if (int64_t c = lastDim(in[0].shape); c >= 0 && c != 3)
    throw opError(K, fmt::format("input must have 3 channels but input only has {} channels.", c));
  return {in[0]};
}

Types rgbToHsvGrad(In in, const Attrs &) {
  for (size_t i = 1; i < 3; ++i)
    if (in[i].dtype != in[0].dtype) throw dtypeMismatch(OpKind::RgbToHsvGrad, int(i), in[0].dtype, in[i].dtype);
  return {in[1]};
}

}  // namespace

TypeRule imageTypeRule(OpKind k) {
  switch (k) {
  case OpKind::AdjustContrastv2: return adjustContrast;
  case OpKind::AdjustSaturation: return adjustHsv<OpKind::AdjustSaturation>;
  case OpKind::AdjustHue: return adjustHsv<OpKind::AdjustHue>;
  case OpKind::RgbToHsv: return colorspace<OpKind::RgbToHsv>;
  case OpKind::HsvToRgb: return colorspace<OpKind::HsvToRgb>;
  case OpKind::RgbToHsvGrad: return rgbToHsvGrad;
  default: return nullptr;
  }
}

const char *imageOpType(OpKind k) {
  switch (k) {
  case OpKind::AdjustContrastv2: return "AdjustContrastv2";
  case OpKind::AdjustSaturation: return "AdjustSaturation";
  case OpKind::AdjustHue: return "AdjustHue";
  case OpKind::RgbToHsv: return "RGBToHSV";
  case OpKind::HsvToRgb: return "HSVToRGB";
  case OpKind::RgbToHsvGrad: return "RGBToHSVGrad";
  default: return "?";
  }
}

}  // namespace tfs::ir
