// Type rules of the image codec ops (decode_png / jpeg / gif / bmp / image,
// encode_png / jpeg, extract_jpeg_shape), the WAV codec and write_file: TF's shape
// functions (DecodeImageShapeFn: [?, ?, channels], the channel count
// unknown for channels=0; DecodeImage with expand_animations: unknown rank)
// and the rank checks its kernels make, with their eager messages (TF runs
// no shape function for an eager op). Attribute values (channels, ratio,
// dct_method, quality, ...) are checked by the kernels, as TF's kernel
// constructors check them, so eager and graph runs report them alike.
#include "ir/op_rules.h"

#include <fmt/format.h>

namespace tfs::ir {

namespace {
using Types = std::vector<TensorType>;
using In = std::span<const TensorType>;

Shape scalar() { return Shape(std::vector<int64_t>{}); }

// The encoded bytes: a string; its rank checked by the kernel (TF's
// "`contents` must be scalar but got shape[2]").
void requireContents(OpKind k, In in) {
  if (in[0].dtype != DType::String) throw dtypeMismatch(k, 0, DType::String, in[0].dtype);
}

int64_t channelsDim(const Attrs &attrs) {
  int64_t c = attrInt(attrs, "channels", 0);
  return c > 0 ? c : -1;
}

Types decodeImage(OpKind k, In in, const Attrs &attrs) {
  requireContents(k, in);
  DType d = k == OpKind::DecodePng || k == OpKind::DecodeImage ? attrDType(attrs, "dtype").value_or(DType::UInt8)
                                                                : DType::UInt8;
  // The dtypes TF's op definitions allow.
  if ((k == OpKind::DecodePng || k == OpKind::DecodeImage) && d != DType::UInt8 && d != DType::UInt16 &&
      (k == OpKind::DecodePng || d != DType::Float32))
    throw opError(k, fmt::format("Value for attr 'dtype' of {} is not in the list of allowed values: uint8, uint16{}",
                                 dtypeTfTypeName(d), k == OpKind::DecodeImage ? ", float" : ""));
  if (k == OpKind::DecodeGif) return {TensorType{d, Shape(std::vector<int64_t>{-1, -1, -1, 3})}};
  if (k == OpKind::DecodeImage && attrBool(attrs, "expand_animations", true)) return {TensorType{d, Shape::unranked()}};
  return {TensorType{d, Shape(std::vector<int64_t>{-1, -1, channelsDim(attrs)})}};
}

template <OpKind K> Types decode(In in, const Attrs &attrs) { return decodeImage(K, in, attrs); }

// encode_png(image) / encode_jpeg(image): a 3-D image to one string. The
// kernels check the rank and channel count (TF's messages).
Types encodePng(In in, const Attrs &) {
  requireIn(OpKind::EncodePng, in[0], bit(DType::UInt8) | bit(DType::UInt16));
  return {TensorType{DType::String, scalar()}};
}

Types encodeJpeg(In in, const Attrs &) {
  if (in[0].dtype != DType::UInt8) throw dtypeMismatch(OpKind::EncodeJpeg, 0, DType::UInt8, in[0].dtype);
  return {TensorType{DType::String, scalar()}};
}

Types extractJpegShape(In in, const Attrs &attrs) {
  requireContents(OpKind::ExtractJpegShape, in);
  DType d = attrDType(attrs, "output_type").value_or(DType::Int32);
  if (d != DType::Int32 && d != DType::Int64)
    throw opError(OpKind::ExtractJpegShape,
                  fmt::format("Value for attr 'output_type' of {} is not in the list of allowed values: int32, int64",
                              dtypeName(d)));
  return {TensorType{d, Shape(std::vector<int64_t>{3})}};
}

// decode_wav(contents) {desired_channels, desired_samples}: TF's shape
// function: a requested count is known, the file's is not.
Types decodeWav(In in, const Attrs &attrs) {
  requireContents(OpKind::DecodeWav, in);
  int64_t channels = attrInt(attrs, "desired_channels", -1), samples = attrInt(attrs, "desired_samples", -1);
  return {TensorType{DType::Float32, Shape(std::vector<int64_t>{samples >= 0 ? samples : -1,
                                                                channels >= 0 ? channels : -1})},
          TensorType{DType::Int32, scalar()}};
}

Types encodeWav(In in, const Attrs &) {
  if (in[0].dtype != DType::Float32) throw dtypeMismatch(OpKind::EncodeWav, 0, DType::Float32, in[0].dtype);
  if (in[1].dtype != DType::Int32) throw dtypeMismatch(OpKind::EncodeWav, 1, DType::Int32, in[1].dtype);
  return {TensorType{DType::String, scalar()}};
}

Types writeFile(In in, const Attrs &) {
  if (in[0].dtype != DType::String) throw dtypeMismatch(OpKind::WriteFile, 0, DType::String, in[0].dtype);
  if (in[1].dtype != DType::String) throw dtypeMismatch(OpKind::WriteFile, 1, DType::String, in[1].dtype);
  return {};
}

}  // namespace

TypeRule codecTypeRule(OpKind k) {
  switch (k) {
  case OpKind::DecodePng: return decode<OpKind::DecodePng>;
  case OpKind::DecodeJpeg: return decode<OpKind::DecodeJpeg>;
  case OpKind::DecodeGif: return decode<OpKind::DecodeGif>;
  case OpKind::DecodeBmp: return decode<OpKind::DecodeBmp>;
  case OpKind::DecodeImage: return decode<OpKind::DecodeImage>;
  case OpKind::EncodePng: return encodePng;
  case OpKind::EncodeJpeg: return encodeJpeg;
  case OpKind::ExtractJpegShape: return extractJpegShape;
  case OpKind::WriteFile: return writeFile;
  case OpKind::DecodeWav: return decodeWav;
  case OpKind::EncodeWav: return encodeWav;
  default: return nullptr;
  }
}

const char *codecOpType(OpKind k) {
  switch (k) {
  case OpKind::DecodePng: return "DecodePng";
  case OpKind::DecodeJpeg: return "DecodeJpeg";
  case OpKind::DecodeGif: return "DecodeGif";
  case OpKind::DecodeBmp: return "DecodeBmp";
  case OpKind::DecodeImage: return "DecodeImage";
  case OpKind::EncodePng: return "EncodePng";
  case OpKind::EncodeJpeg: return "EncodeJpeg";
  case OpKind::ExtractJpegShape: return "ExtractJpegShape";
  case OpKind::WriteFile: return "WriteFile";
  case OpKind::DecodeWav: return "DecodeWav";
  case OpKind::EncodeWav: return "EncodeWav";
  default: return "?";
  }
}

}  // namespace tfs::ir
