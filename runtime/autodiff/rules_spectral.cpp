// Gradient rules of the spectral ops, TF 2.15's fft_ops.py: the complex
// transforms' gradients are the opposite transform scaled by the size
// (fft: ifft(g) * N; ifft: fft(g) / N). A real transform's gradient is the
// adjoint of the real-linear map: rfft's is Re(A^H g), computed as the
// complex inverse of g zero-padded to the full spectrum times N (what TF's
// irfft-plus-correction formula equals); irfft's is TF's rfft(g) * mask / N
// with mask [1, 2, ..., 2, 1 (even lengths) or 2 (odd)]. Both then crop or
// zero-pad back to the input's innermost dims (the kernel padded or cropped
// them to fft_length). TF registers no gradient for rfft3d / irfft3d; the
// same formulas hold there and are given.
#include "runtime/autodiff/rule_macros.h"

#include <fmt/format.h>

namespace tfs::runtime::autodiff_detail {
namespace {

struct Transform {
  int rank;
  OpKind forward, inverse;  // the complex pair of this rank
};

Transform transformOf(OpKind k) {
  switch (k) {
  case OpKind::Fft: case OpKind::Ifft: case OpKind::Rfft: case OpKind::Irfft:
    return {1, OpKind::Fft, OpKind::Ifft};
  case OpKind::Fft2d: case OpKind::Ifft2d: case OpKind::Rfft2d: case OpKind::Irfft2d:
    return {2, OpKind::Fft2d, OpKind::Ifft2d};
  default: return {3, OpKind::Fft3d, OpKind::Ifft3d};
  }
}

// The number of points of the innermost `rank` dims of h, as a complex
// scalar of h's dtype (or its complex counterpart).
Handle transformSize(GradBuilder &b, Handle h, int rank, ir::DType complexType) {
  int64_t r = b.rank(h, "a spectral op");
  Handle dims = b.sliceVec(b.shapeOf(h), r - rank, r);
  Handle n = b.cast(b.op(OpKind::ReduceProd, {dims}), ir::realDType(complexType));
  return b.op(OpKind::Complex, {n, b.zerosLike(n)});
}

ir::DType complexOf(ir::DType real) {
  return real == ir::DType::Float32 ? ir::DType::Complex64 : ir::DType::Complex128;
}

// Innermost dims of `h` (static), for the crop / pad back to an input.
std::vector<int64_t> innerDims(GradBuilder &b, Handle h, int rank) {
  ir::TensorType t = b.type(h);
  if (!t.shape.ranked) throwGradError("gradient of a spectral op needs a tensor of known rank");
  std::vector<int64_t> d(t.shape.dims.end() - rank, t.shape.dims.end());
  for (int64_t v : d)
    if (v < 0) throwGradError(fmt::format("gradient of a spectral op needs known innermost dims, got {}",
                                          t.shape.debugString()));
  return d;
}

// x's innermost dims (now `have`) cropped or zero-padded to `want`.
Handle fitInner(GradBuilder &b, Handle x, const std::vector<int64_t> &have, const std::vector<int64_t> &want) {
  if (have == want) return x;
  int64_t r = b.rank(x, "a spectral op");
  size_t outer = size_t(r) - have.size();
  std::vector<int64_t> paddings(size_t(2 * r), 0), begin(size_t(r), 0), size(size_t(r), -1);
  bool pad = false, crop = false;
  for (size_t i = 0; i < have.size(); ++i) {
    if (want[i] > have[i]) {
      paddings[2 * (outer + i) + 1] = want[i] - have[i];
      pad = true;
    } else if (want[i] < have[i]) {
      size[outer + i] = want[i];
      crop = true;
    }
  }
  if (crop) x = b.op(OpKind::Slice, {x}, {{"begin", begin}, {"size", size}});
  if (pad) x = b.op(OpKind::Pad, {x, b.scalar(0, x)}, {{"paddings", paddings}, {"mode", std::string("CONSTANT")}});
  return x;
}

std::vector<int64_t> fftLength(const GradOpInfo &op, int rank) {
  const auto *v = ir::attrInts(op.attrs, "fft_length");
  if (!v || int(v->size()) != rank) throwGradError("gradient of a real FFT with a run-time fft_length");
  return *v;
}

RULE(complexFftGrad) {
  COMPLEX_PRELUDE;
  Transform t = transformOf(op.kind);
  bool inverse = op.kind == OpKind::Ifft || op.kind == OpKind::Ifft2d || op.kind == OpKind::Ifft3d;
  Handle n = transformSize(b, g, t.rank, b.dtype(g));
  if (inverse) return {b.div(b.op(t.forward, {g}), n)};
  return {b.mul(b.op(t.inverse, {g}), n)};
}

RULE(rfftGrad) {
  COMPLEX_PRELUDE;
  Transform t = transformOf(op.kind);
  std::vector<int64_t> length = fftLength(op, t.rank);
  std::vector<int64_t> half = length;
  half.back() = length.back() / 2 + 1;
  // g zero-padded to the full spectrum, then N * ifft: sum_k g_k e^{+i..}.
  Handle full = fitInner(b, g, half, length);
  Handle adj = b.mul(b.op(t.inverse, {full}), transformSize(b, full, t.rank, b.dtype(g)));
  Handle dx = b.op(OpKind::Real, {adj});
  return {fitInner(b, dx, length, innerDims(b, op.inputs[0], t.rank))};
}

RULE(irfftGrad) {
  COMPLEX_PRELUDE;
  Transform t = transformOf(op.kind);
  std::vector<int64_t> length = fftLength(op, t.rank);
  OpKind forward = op.kind == OpKind::Irfft ? OpKind::Rfft : op.kind == OpKind::Irfft2d ? OpKind::Rfft2d
                                                                                         : OpKind::Rfft3d;
  int64_t bins = length.back() / 2 + 1;
  std::vector<int64_t> mask(size_t(bins), 2);
  mask[0] = 1;
  if (length.back() % 2 == 0) mask.back() = 1;
  ir::DType ct = complexOf(b.dtype(g));
  Handle spectrum = b.op(forward, {g}, {{"fft_length", length}});
  Handle weights = b.div(b.cast(b.ints(mask), ct), transformSize(b, g, t.rank, ct));
  std::vector<int64_t> half = length;
  half.back() = bins;
  return {fitInner(b, b.mul(spectrum, weights), half, innerDims(b, op.inputs[0], t.rank))};
}

const RuleEntry kSpectralRules[] = {
    {OpKind::Fft, complexFftGrad},   {OpKind::Ifft, complexFftGrad},   {OpKind::Fft2d, complexFftGrad},
    {OpKind::Ifft2d, complexFftGrad}, {OpKind::Fft3d, complexFftGrad}, {OpKind::Ifft3d, complexFftGrad},
    {OpKind::Rfft, rfftGrad},         {OpKind::Rfft2d, rfftGrad},       {OpKind::Rfft3d, rfftGrad},
    {OpKind::Irfft, irfftGrad},       {OpKind::Irfft2d, irfftGrad},     {OpKind::Irfft3d, irfftGrad},
};

}  // namespace

std::span<const RuleEntry> spectralRules() { return kSpectralRules; }

}  // namespace tfs::runtime::autodiff_detail
