// Gradient rules of the image colour ops. TF registers a gradient only for
// RGBToHSV (image_grad.py); AdjustContrastv2, AdjustSaturation, AdjustHue
// and HSVToRGB have none, so a tape through them raises TF's LookupError
// (the guide's "No gradient registered" example) instead of returning None.
#include "runtime/autodiff/rule_macros.h"

namespace tfs::runtime::autodiff_detail {
namespace {

RULE(rgbToHsvGrad) {
  PRELUDE;
  return {b.op(OpKind::RgbToHsvGrad, {g, op.inputs[0], op.outputs[0]})};
}

// TF's eager tape looks the op type up in its gradient registry.
template <OpKind K> RULE(unregistered) {
  (void)em, (void)op, (void)og;
  throwGradError(std::string("gradient registry has no entry for: ") + ir::tfOpType(K));
}

const RuleEntry kImageRules[] = {
    {OpKind::RgbToHsv, rgbToHsvGrad},
    {OpKind::AdjustContrastv2, unregistered<OpKind::AdjustContrastv2>},
    {OpKind::AdjustSaturation, unregistered<OpKind::AdjustSaturation>},
    {OpKind::AdjustHue, unregistered<OpKind::AdjustHue>},
    {OpKind::HsvToRgb, unregistered<OpKind::HsvToRgb>},
    {OpKind::RgbToHsvGrad, unregistered<OpKind::RgbToHsvGrad>},
};

}  // namespace

std::span<const RuleEntry> imageRules() { return kImageRules; }

}  // namespace tfs::runtime::autodiff_detail
