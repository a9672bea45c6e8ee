// Type rules of the file and parsing ops of tf.io: read_file (a scalar
// string), decode_csv (one result per record default, of its dtype and
// the records' shape) and parse_example_dense (one feature of Examples). The errors are the ones TF's op definitions and
// DecodeCSV's kernel constructor give for malformed arguments.
#include "ir/op_rules.h"

#include <fmt/format.h>

namespace tfs::ir {

namespace {
using Types = std::vector<TensorType>;
using In = std::span<const TensorType>;

OpError ioError(OpKind kind, const std::string &msg) {
  return OpError{"InvalidArgumentError", fmt::format("{} [Op:{}]", msg, tfOpType(kind))};
}

Types readFile(In in, const Attrs &) {
  if (in[0].dtype != DType::String) throw dtypeMismatch(OpKind::ReadFile, 0, DType::String, in[0].dtype);
  if (in[0].shape.ranked && in[0].shape.rank() != 0)
    throw ioError(OpKind::ReadFile, fmt::format("Shape must be rank 0 but is rank {}", in[0].shape.rank()));
  return {TensorType{DType::String, Shape(std::vector<int64_t>{})}};
}

// decode_csv(records, defaults...): TF's OUT_TYPE list is float, double,
// int32, int64, string; each default holds at most one element.
Types decodeCsv(In in, const Attrs &attrs) {
  if (in[0].dtype != DType::String) throw dtypeMismatch(OpKind::DecodeCsv, 0, DType::String, in[0].dtype);
  std::string delim = attrString(attrs, "field_delim", ",");
  if (delim.size() != 1) throw ioError(OpKind::DecodeCsv, "field_delim should be only 1 char");
  Types out;
  for (size_t i = 1; i < in.size(); ++i) {
    DType d = in[i].dtype;
    if (d != DType::Float32 && d != DType::Float64 && d != DType::Int32 && d != DType::Int64 &&
        d != DType::String)
      throw ioError(OpKind::DecodeCsv,
                    fmt::format("Value for attr 'OUT_TYPE' of {} is not in the list of allowed values: "
                                "float, double, int32, int64, string",
                                dtypeName(d)));
    if (in[i].shape.ranked && in[i].shape.rank() > 1)
      throw ioError(OpKind::DecodeCsv, "Each record default should be at most rank 1");
    out.push_back(TensorType{d, in[0].shape});
  }
  if (const auto *cols = attrInts(attrs, "select_cols"); cols && !cols->empty()) {
    if (cols->size() != out.size()) throw ioError(OpKind::DecodeCsv, "select_cols should match output size");
    for (size_t i = 1; i < cols->size(); ++i)
      if ((*cols)[i - 1] >= (*cols)[i])
        throw ioError(OpKind::DecodeCsv, "select_cols should be strictly increasing indices");
    if (cols->front() < 0) throw ioError(OpKind::DecodeCsv, "select_cols should be non-negative indices");
  }
  return out;
}

// parse_example_dense(serialized, [default]) {key, dtype, dense_shape}.
Types parseExampleDense(In in, const Attrs &attrs) {
  if (in[0].dtype != DType::String) throw dtypeMismatch(OpKind::ParseExampleDense, 0, DType::String, in[0].dtype);
  DType d = attrDType(attrs, "dtype").value_or(DType::Float32);
  if (d != DType::Float32 && d != DType::Int64 && d != DType::String)
    throw ioError(OpKind::ParseExampleDense,
                  fmt::format("Value for attr 'Tdense' of {} is not in the list of allowed values: float, int64, "
                              "string",
                              dtypeName(d)));
  if (in.size() > 1 && in[1].dtype != d) throw dtypeMismatch(OpKind::ParseExampleDense, 1, d, in[1].dtype);
  if (!in[0].shape.ranked) return {TensorType{d, Shape::unranked()}};
  if (in[0].shape.rank() > 1)
    throw ioError(OpKind::ParseExampleDense,
                  fmt::format("Expected serialized to be a scalar or vector, got shape: {}", in[0].shape.debugString()));
  std::vector<int64_t> dims = in[0].shape.dims;
  if (const auto *shape = attrInts(attrs, "dense_shape")) dims.insert(dims.end(), shape->begin(), shape->end());
  return {TensorType{d, Shape(dims)}};
}

// decode_raw(bytes) {out_type, little_endian, fixed_length}: TF's DecodeRaw
// (every string one length, checked by the kernel) and DecodePaddedRaw
// (fixed_length bytes per string). The element count is known here only
// for a fixed length.
Types decodeRaw(In in, const Attrs &attrs) {
  if (in[0].dtype != DType::String) throw dtypeMismatch(OpKind::DecodeRaw, 0, DType::String, in[0].dtype);
  DType d = attrDType(attrs, "out_type").value_or(DType::UInt8);
  int64_t fixed = attrInt(attrs, "fixed_length", -1);
  int64_t size = int64_t(dtypeSize(d));
  if (!in[0].shape.ranked) return {TensorType{d, Shape::unranked()}};
  std::vector<int64_t> dims = in[0].shape.dims;
  dims.push_back(fixed > 0 && fixed % size == 0 ? fixed / size : -1);
  return {TensorType{d, Shape(dims)}};
}

}  // namespace

TypeRule ioTypeRule(OpKind k) {
  switch (k) {
  case OpKind::ReadFile: return readFile;
  case OpKind::DecodeCsv: return decodeCsv;
  case OpKind::ParseExampleDense: return parseExampleDense;
  case OpKind::DecodeRaw: return decodeRaw;
  default: return nullptr;
  }
}

const char *ioOpType(OpKind k) {
  switch (k) {
  case OpKind::ReadFile: return "ReadFile";
  case OpKind::DecodeCsv: return "DecodeCSV";
  case OpKind::ParseExampleDense: return "ParseExampleV2";
  case OpKind::DecodeRaw: return "DecodeRaw";
  default: return "?";
  }
}

}  // namespace tfs::ir
