// dtype names and shapes: see types.h.
#include "ir/types.h"

#include <fmt/format.h>

namespace tfs::ir {

namespace {
struct DTypeInfo {
  const char *name, *shortName;
  size_t size;
};
constexpr DTypeInfo kInfo[] = {
    {"bool", "bool", 1}, {"int32", "i32", 4},   {"int64", "i64", 8},
    {"float32", "f32", 4}, {"float64", "f64", 8}, {"string", "str", sizeof(std::string)},
};
}  // namespace

const char *dtypeName(DType t) { return kInfo[int(t)].name; }
const char *dtypeShortName(DType t) { return kInfo[int(t)].shortName; }
size_t dtypeSize(DType t) { return kInfo[int(t)].size; }

std::optional<DType> parseDTypeName(std::string_view name) {
  for (int i = 0; i < 6; ++i)
    if (name == kInfo[i].name) return DType(i);
  return std::nullopt;
}

std::optional<DType> parseDTypeShortName(std::string_view name) {
  for (int i = 0; i < 6; ++i)
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
