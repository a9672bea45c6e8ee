// Tensor element types and (possibly partially known) shapes, shared by the
// op table, the graph IR, the eager runtime and codegen.
//
// Text forms follow STYLE.md: dtype short names f32/f64/i32/i64/bool/str
// (and i8/i16/u8/u16/u32/u64/f16/bf16/c64/c128); types `f32[]`, `f32[2,3]`,
// `f32[?,3]`, `f32[*]`. Everything about a dtype (names, size, kind) lives in
// one table (types.cpp); the C++ element type of each is in element_types.h.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tfs::ir {

// New dtypes are appended: the numeric values of the first six are stable.
enum class DType : uint8_t {
  Bool, Int32, Int64, Float32, Float64, String,
  Int8, Int16, UInt8, UInt16, UInt32, UInt64, Float16, BFloat16, Complex64, Complex128,
};
constexpr int kNumDTypes = 16;

// "float32", "int32", ... (TF's Python names, used in reprs and error messages).
const char *dtypeName(DType t);
// "f32", "i32", ... (IR text).
const char *dtypeShortName(DType t);
// TF's C++ type names as its kernels print them: "float", "double", "half", "int32".
const char *dtypeTfTypeName(DType t);
// The DataType enum name: "DT_FLOAT", "DT_HALF", ...
const char *dtypeEnumName(DType t);
// The DataType enum value (types.proto): DT_FLOAT = 1, DT_HALF = 19, ...
int dtypeEnumValue(DType t);
std::optional<DType> parseDTypeName(std::string_view name);       // "float32" (also "half", "double")
std::optional<DType> parseDTypeShortName(std::string_view name);  // "f32"
size_t dtypeSize(DType t);  // bytes per element; String: sizeof(runtime string handle)

// Floating point: float16, bfloat16, float32, float64 (TF's is_floating).
bool isFloating(DType t);
// Any integer type, signed or unsigned (TF's is_integer; bool excluded).
bool isInteger(DType t);
bool isUnsigned(DType t);  // uint8/16/32/64 (bool excluded)
bool isComplex(DType t);
// Half-precision floats: stored as 16 bits, computed in float32 by kernels.
inline bool isHalfFloat(DType t) { return t == DType::Float16 || t == DType::BFloat16; }
// Integers, floats, complex (not bool, not string).
inline bool isNumber(DType t) { return isFloating(t) || isInteger(t) || isComplex(t); }
// The real type of a complex dtype (complex64 -> float32); t otherwise.
DType realDType(DType t);

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
