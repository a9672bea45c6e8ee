// dtype names and shapes: see types.h.
#include "ir/types.h"

#include <fmt/format.h>

namespace tfs::ir {

namespace {
enum class Kind : uint8_t { Bool, Signed, Unsigned, Float, Complex, String };
struct DTypeInfo {
  const char *name, *shortName, *tfTypeName, *enumName;
  int enumValue;
  size_t size;
  Kind kind;
};
// Indexed by DType; enum values from TF's types.proto.
constexpr DTypeInfo kInfo[kNumDTypes] = {
    {"bool", "bool", "bool", "DT_BOOL", 10, 1, Kind::Bool},
    {"int32", "i32", "int32", "DT_INT32", 3, 4, Kind::Signed},
    {"int64", "i64", "int64", "DT_INT64", 9, 8, Kind::Signed},
    {"float32", "f32", "float", "DT_FLOAT", 1, 4, Kind::Float},
    {"float64", "f64", "double", "DT_DOUBLE", 2, 8, Kind::Float},
    {"string", "str", "string", "DT_STRING", 7, sizeof(std::string), Kind::String},
    {"int8", "i8", "int8", "DT_INT8", 6, 1, Kind::Signed},
    {"int16", "i16", "int16", "DT_INT16", 5, 2, Kind::Signed},
    {"uint8", "u8", "uint8", "DT_UINT8", 4, 1, Kind::Unsigned},
    {"uint16", "u16", "uint16", "DT_UINT16", 17, 2, Kind::Unsigned},
    {"uint32", "u32", "uint32", "DT_UINT32", 22, 4, Kind::Unsigned},
    {"uint64", "u64", "uint64", "DT_UINT64", 23, 8, Kind::Unsigned},
    {"float16", "f16", "half", "DT_HALF", 19, 2, Kind::Float},
    {"bfloat16", "bf16", "bfloat16", "DT_BFLOAT16", 14, 2, Kind::Float},
    {"complex64", "c64", "complex64", "DT_COMPLEX64", 8, 8, Kind::Complex},
    {"complex128", "c128", "complex128", "DT_COMPLEX128", 18, 16, Kind::Complex},
};
const DTypeInfo &info(DType t) { return kInfo[int(t)]; }
}  // namespace

const char *dtypeName(DType t) { return info(t).name; }
const char *dtypeShortName(DType t) { return info(t).shortName; }
const char *dtypeTfTypeName(DType t) { return info(t).tfTypeName; }
const char *dtypeEnumName(DType t) { return info(t).enumName; }
int dtypeEnumValue(DType t) { return info(t).enumValue; }
size_t dtypeSize(DType t) { return info(t).size; }
bool isFloating(DType t) { return info(t).kind == Kind::Float; }
bool isInteger(DType t) { return info(t).kind == Kind::Signed || info(t).kind == Kind::Unsigned; }
bool isUnsigned(DType t) { return info(t).kind == Kind::Unsigned; }
bool isComplex(DType t) { return info(t).kind == Kind::Complex; }
DType realDType(DType t) {
  return t == DType::Complex64 ? DType::Float32 : t == DType::Complex128 ? DType::Float64 : t;
}

std::optional<DType> parseDTypeName(std::string_view name) {
  for (int i = 0; i < kNumDTypes; ++i)
    if (name == kInfo[i].name) return DType(i);
  // Aliases TF and numpy share (tf.half, tf.double, np.dtype("half")).
  if (name == "half") return DType::Float16;
  if (name == "double") return DType::Float64;
  return std::nullopt;
}

std::optional<DType> parseDTypeShortName(std::string_view name) {
  for (int i = 0; i < kNumDTypes; ++i)
    if (name == kInfo[i].shortName) return DType(i);
  return std::nullopt;
}

bool Shape::fullyDefined() const {
  if (!ranked) return false;
  for (int64_t d : dims)
    if (d < 0) return false;
  return true;
}

int64_t Shape::numElements() const {
  if (!fullyDefined()) return -1;
  int64_t n = 1;
  for (int64_t d : dims) n *= d;
  return n;
}

std::string Shape::tfString() const {
  if (!ranked) return "<unknown>";
  std::string s = "(";
  for (size_t i = 0; i < dims.size(); ++i) {
    if (i) s += ", ";
    s += dims[i] < 0 ? "None" : std::to_string(dims[i]);
  }
  if (dims.size() == 1) s += ",";
  return s + ")";
}

std::string Shape::debugString() const {
  if (!ranked) return "<unknown>";
  std::string s = "[";
  for (size_t i = 0; i < dims.size(); ++i) {
    if (i) s += ',';
    s += dims[i] < 0 ? "?" : std::to_string(dims[i]);
  }
  return s + "]";
}

bool Shape::isCompatibleWith(const Shape &concrete) const {
  if (!ranked || !concrete.ranked) return true;
  if (dims.size() != concrete.dims.size()) return false;
  for (size_t i = 0; i < dims.size(); ++i)
    if (dims[i] >= 0 && concrete.dims[i] >= 0 && dims[i] != concrete.dims[i]) return false;
  return true;
}

std::string TensorType::str() const {
  if (!shape.ranked) return fmt::format("{}[*]", dtypeShortName(dtype));
  std::string s = fmt::format("{}[", dtypeShortName(dtype));
  for (size_t i = 0; i < shape.dims.size(); ++i) {
    if (i) s += ',';
    s += shape.dims[i] < 0 ? "?" : std::to_string(shape.dims[i]);
  }
  return s + "]";
}

}  // namespace tfs::ir
