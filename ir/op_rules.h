// Type rules of the op table (private to ir/): dtype + static shape
// inference per op, TF's op type names for error messages, and which ops
// have no gradient.
#pragma once

#include "ir/op_table.h"

namespace tfs::ir {

TypeRule typeRuleFor(OpKind kind);
// The rules of the 2-D window ops (conv, depthwise conv, pooling and their
// gradients; op_rules_window.cpp), null for any other op.
TypeRule windowTypeRule(OpKind kind);
// The rules of the indexing, scan and sorting ops (cumsum, reverse, top_k,
// where_indices, unsorted_segment_sum, strided_slice_grad, pad;
// op_rules_index.cpp) and their TF op type names; null for any other op.
TypeRule indexTypeRule(OpKind kind);
// Random draws beyond normal/uniform, and the clock (op_rules_stateful.cpp).
TypeRule statefulTypeRule(OpKind kind);
// tf.strings ops and py_function (op_rules_strings.cpp).
TypeRule stringsTypeRule(OpKind kind);
const char *indexOpType(OpKind kind);
// The matrix ops (inverse, solves, decompositions, band/diag;
// op_rules_linalg.cpp) and the index-tuple ops (gather_nd, scatters, slice,
// ensure_shape; op_rules_scatter.cpp): rules and TF op type names, null /
// "?" for any other op.
TypeRule linalgTypeRule(OpKind kind);
const char *linalgOpType(OpKind kind);
TypeRule scatterTypeRule(OpKind kind);
const char *scatterOpType(OpKind kind);
// The rules and TF op type names of the tf.io ops (read_file, decode_csv;
// op_rules_io.cpp); null / "?" for any other op.
TypeRule ioTypeRule(OpKind kind);
const char *ioOpType(OpKind kind);
// The image colour ops (adjust_contrastv2 / saturation / hue, rgb_to_hsv,
// hsv_to_rgb; op_rules_image.cpp): rules and TF op type names.
#define TFS_IMAGE_OP_CASES                                                                                    \
  case OpKind::AdjustContrastv2: case OpKind::AdjustSaturation: case OpKind::AdjustHue:                       \
  case OpKind::RgbToHsv: case OpKind::HsvToRgb: case OpKind::RgbToHsvGrad
TypeRule imageTypeRule(OpKind kind);
const char *imageOpType(OpKind kind);
bool isNotDifferentiable(OpKind kind);

// The image codec ops and write_file (op_rules_codec.cpp): rules and TF op
// type names; none has a gradient.
#define TFS_CODEC_OP_CASES                                                                                    \
  case OpKind::DecodePng: case OpKind::DecodeJpeg: case OpKind::DecodeGif: case OpKind::DecodeBmp:            \
  case OpKind::DecodeImage: case OpKind::EncodePng: case OpKind::EncodeJpeg: case OpKind::ExtractJpegShape:   \
  case OpKind::WriteFile: case OpKind::DecodeWav: case OpKind::EncodeWav
TypeRule codecTypeRule(OpKind kind);
const char *codecOpType(OpKind kind);

// The special functions (lgamma ... betainc, mul_no_nan,
// cumulative_logsumexp; op_rules_special.cpp): rules and TF op type names.
#define TFS_SPECIAL_OP_CASES                                                                                  \
  case OpKind::Lgamma: case OpKind::Digamma: case OpKind::Erfc: case OpKind::Erfinv: case OpKind::Ndtri:       \
  case OpKind::BesselI0: case OpKind::BesselI0e: case OpKind::BesselI1: case OpKind::BesselI1e:               \
  case OpKind::BesselK0: case OpKind::BesselK0e: case OpKind::BesselK1: case OpKind::BesselK1e:               \
  case OpKind::BesselJ0: case OpKind::BesselJ1: case OpKind::BesselY0: case OpKind::BesselY1:                 \
  case OpKind::Igamma: case OpKind::Igammac: case OpKind::IgammaGradA: case OpKind::Zeta:                     \
  case OpKind::Polygamma: case OpKind::Betainc: case OpKind::MulNoNan: case OpKind::CumulativeLogsumexp
TypeRule specialTypeRule(OpKind kind);
const char *specialOpType(OpKind kind);

// The spectral ops (fft ... irfft3d; op_rules_fft.cpp): rules and TF op type names.
#define TFS_SPECTRAL_OP_CASES                                                                                 \
  case OpKind::Fft: case OpKind::Ifft: case OpKind::Fft2d: case OpKind::Ifft2d: case OpKind::Fft3d:           \
  case OpKind::Ifft3d: case OpKind::Rfft: case OpKind::Irfft: case OpKind::Rfft2d: case OpKind::Irfft2d:      \
  case OpKind::Rfft3d: case OpKind::Irfft3d
TypeRule spectralTypeRule(OpKind kind);
const char *spectralOpType(OpKind kind);

// The bitwise ops and bitcast (op_rules_bitwise.cpp): rules and TF op type names.
#define TFS_BITWISE_OP_CASES                                                                                  \
  case OpKind::BitwiseAnd: case OpKind::BitwiseOr: case OpKind::BitwiseXor: case OpKind::LeftShift:          \
  case OpKind::RightShift: case OpKind::Invert: case OpKind::Bitcast
TypeRule bitwiseTypeRule(OpKind kind);
const char *bitwiseOpType(OpKind kind);

// The dtypes an op accepts (TF's op-def "allowed" lists), as a bit set
// over DType, and the error when an operand's dtype is not among them.
using DTypeSet = uint32_t;
constexpr DTypeSet bit(DType t) { return DTypeSet(1) << int(t); }
constexpr DTypeSet kFloatTypes = bit(DType::Float16) | bit(DType::BFloat16) | bit(DType::Float32) | bit(DType::Float64);
constexpr DTypeSet kComplexTypes = bit(DType::Complex64) | bit(DType::Complex128);
constexpr DTypeSet kSignedInts = bit(DType::Int8) | bit(DType::Int16) | bit(DType::Int32) | bit(DType::Int64);
constexpr DTypeSet kUnsignedInts = bit(DType::UInt8) | bit(DType::UInt16) | bit(DType::UInt32) | bit(DType::UInt64);
// TF's realnumbertypes / numbertypes; "signed" adds complex to the signed reals.
constexpr DTypeSet kRealTypes = kFloatTypes | kSignedInts | kUnsignedInts;
constexpr DTypeSet kNumberTypes = kRealTypes | kComplexTypes;
constexpr DTypeSet kSignedTypes = kFloatTypes | kSignedInts | kComplexTypes;
constexpr DTypeSet kFloatOrComplex = kFloatTypes | kComplexTypes;
// "Value for attr 'T' of int32 is not in the list of allowed values: ...".
void requireIn(OpKind k, const TensorType &t, DTypeSet allowed);
// An InvalidArgumentError "msg [Op:TFType]".
OpError opError(OpKind kind, const std::string &msg);

// Numpy broadcasting of two static shapes; throws OpError
// ("Incompatible shapes: [2,3] vs. [4]") naming `kind`.
Shape broadcastShapes(const Shape &a, const Shape &b, OpKind kind);

// The error TF gives when operand `index` has the wrong dtype.
OpError dtypeMismatch(OpKind kind, int index, DType expected, DType actual);

}  // namespace tfs::ir
