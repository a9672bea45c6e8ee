// Type rules and TF op type names of the spectral ops (fft / ifft over 1, 2
// or 3 innermost dims, rfft / irfft with their fft_length). The dtype lists
// and messages are TF 2.15's spectral_ops.cc / fft_ops.cc: complex
// transforms keep complex64 / complex128; rfft maps float32 -> complex64,
// float64 -> complex128 and irfft back. The innermost dims of a real
// transform are fft_length's (rfft's last one fft_length[-1] / 2 + 1).
#include "ir/op_rules.h"
#include "ir/shape_args.h"

#include <fmt/format.h>

namespace tfs::ir {

namespace {
using Types = std::vector<TensorType>;
using In = std::span<const TensorType>;

struct Spectral {
  int rank;  // transformed innermost dims
  enum Kind { Complex, Real, InverseReal } kind;
};

Spectral spectralOf(OpKind k) {
  switch (k) {
  case OpKind::Fft: case OpKind::Ifft: return {1, Spectral::Complex};
  case OpKind::Fft2d: case OpKind::Ifft2d: return {2, Spectral::Complex};
  case OpKind::Fft3d: case OpKind::Ifft3d: return {3, Spectral::Complex};
  case OpKind::Rfft: return {1, Spectral::Real};
  case OpKind::Rfft2d: return {2, Spectral::Real};
  case OpKind::Rfft3d: return {3, Spectral::Real};
  case OpKind::Irfft: return {1, Spectral::InverseReal};
  case OpKind::Irfft2d: return {2, Spectral::InverseReal};
  default: return {3, Spectral::InverseReal};
  }
}

void requireDType(OpKind k, const TensorType &t, const char *attr, DTypeSet allowed, const char *list) {
  if (!(allowed & bit(t.dtype)))
    throw opError(k, fmt::format("Value for attr '{}' of {} is not in the list of allowed values: {}", attr,
                                 dtypeTfTypeName(t.dtype), list));
}

template <OpKind K> Types spectral(In in, const Attrs &attrs) {
  Spectral sp = spectralOf(K);
  const TensorType &x = in[0];
  DType out = x.dtype;
  if (sp.kind == Spectral::Real) {
    requireDType(K, x, "Treal", bit(DType::Float32) | bit(DType::Float64), "float, double");
    out = x.dtype == DType::Float32 ? DType::Complex64 : DType::Complex128;
  } else {
    requireDType(K, x, "Tcomplex", kComplexTypes, "complex64, complex128");
    if (sp.kind == Spectral::InverseReal) out = realDType(x.dtype);
  }
  if (!x.shape.ranked) return {TensorType{out, Shape::unranked()}};
  if (int(x.shape.rank()) < sp.rank)
    throw opError(K, fmt::format("Input must have rank of at least {} but got: {}", sp.rank,
                                 x.shape.debugString()));
  if (sp.kind == Spectral::Complex) return {x};
  std::vector<int64_t> dims = x.shape.dims;
  std::optional<Shape> length = attrShape(attrs, "fft_length");
  if (!length || !length->ranked) {
    for (int i = 0; i < sp.rank; ++i) dims[dims.size() - 1 - size_t(i)] = kUnknownDim;
    return {TensorType{out, Shape(dims)}};
  }
  if (int(length->rank()) != sp.rank)
    throw opError(K, fmt::format("fft_length must be length {} vectors, got: {}", sp.rank, length->rank()));
  for (int i = 0; i < sp.rank; ++i) {
    int64_t n = length->dims[size_t(i)];
    if (sp.kind == Spectral::Real && i == sp.rank - 1 && n >= 0) n = n / 2 + 1;
    dims[dims.size() - size_t(sp.rank) + size_t(i)] = n;
  }
  return {TensorType{out, Shape(dims)}};
}
}  // namespace

TypeRule spectralTypeRule(OpKind k) {
  switch (k) {
  case OpKind::Fft: return spectral<OpKind::Fft>;
  case OpKind::Ifft: return spectral<OpKind::Ifft>;
  case OpKind::Fft2d: return spectral<OpKind::Fft2d>;
  case OpKind::Ifft2d: return spectral<OpKind::Ifft2d>;
  case OpKind::Fft3d: return spectral<OpKind::Fft3d>;
  case OpKind::Ifft3d: return spectral<OpKind::Ifft3d>;
  case OpKind::Rfft: return spectral<OpKind::Rfft>;
  case OpKind::Irfft: return spectral<OpKind::Irfft>;
  case OpKind::Rfft2d: return spectral<OpKind::Rfft2d>;
  case OpKind::Irfft2d: return spectral<OpKind::Irfft2d>;
  case OpKind::Rfft3d: return spectral<OpKind::Rfft3d>;
  case OpKind::Irfft3d: return spectral<OpKind::Irfft3d>;
  default: return nullptr;
  }
}

const char *spectralOpType(OpKind k) {
  switch (k) {
  case OpKind::Fft: return "FFT";
  case OpKind::Ifft: return "IFFT";
  case OpKind::Fft2d: return "FFT2D";
  case OpKind::Ifft2d: return "IFFT2D";
  case OpKind::Fft3d: return "FFT3D";
  case OpKind::Ifft3d: return "IFFT3D";
  case OpKind::Rfft: return "RFFT";
  case OpKind::Irfft: return "IRFFT";
  case OpKind::Rfft2d: return "RFFT2D";
  case OpKind::Irfft2d: return "IRFFT2D";
  case OpKind::Rfft3d: return "RFFT3D";
  case OpKind::Irfft3d: return "IRFFT3D";
  default: return "?";
  }
}

}  // namespace tfs::ir
