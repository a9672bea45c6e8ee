// Tensor element types and (possibly partially known) shapes, shared by the
// op table, the graph IR, the eager runtime and codegen.
//
// Text forms follow STYLE.md: dtype short names f32/f64/i32/i64/bool/str;
// types `f32[]`, `f32[2,3]`, `f32[?,3]`, `f32[*]`.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tfs::ir {

enum class DType : uint8_t { Bool, Int32, Int64, Float32, Float64, String };

// "float32", "int32", ... (TF's names, used in reprs and error messages).
const char *dtypeName(DType t);
// "f32", "i32", ... (IR text).
const char *dtypeShortName(DType t);
std::optional<DType> parseDTypeName(std::string_view name);       // "float32"
std::optional<DType> parseDTypeShortName(std::string_view name);  // "f32"
size_t dtypeSize(DType t);  // bytes per element; String: sizeof(runtime string handle)
inline bool isFloating(DType t) { return t == DType::Float32 || t == DType::Float64; }
inline bool isInteger(DType t) { return t == DType::Int32 || t == DType::Int64; }

constexpr int64_t kUnknownDim = -1;

// A static shape: unranked, or a list of dims where kUnknownDim is `?`.
struct Shape {
  bool ranked = true;
  std::vector<int64_t> dims;

  Shape() = default;
  Shape(std::vector<int64_t> d) : dims(std::move(d)) {}
  static Shape unranked() { Shape s; s.ranked = false; return s; }
  size_t rank() const { return dims.size(); }
  bool fullyDefined() const;
  int64_t numElements() const;  // -1 if not fully defined
  bool operator==(const Shape &o) const { return ranked == o.ranked && dims == o.dims; }
  // TF text: "(2, 3)", "()", "(None, 3)", "<unknown>"
  std::string tfString() const;
  // TF's C++ TensorShape debug text (kernel/shape-inference messages):
  // "[2,3]", "[]", "[?,3]", "<unknown>"
  std::string debugString() const;
  // Is `concrete` an instance of this (possibly partial) shape?
  bool isCompatibleWith(const Shape &concrete) const;
};

struct TensorType {
  DType dtype = DType::Float32;
  Shape shape;
  bool operator==(const TensorType &o) const { return dtype == o.dtype && shape == o.shape; }
  std::string str() const;  // "f32[2,?]"
};

}  // namespace tfs::ir
