// Tensor: dtype + shape + a refcounted buffer. The value type of the eager
// runtime, the graph interpreter, constants in the IR and the JIT's calling
// convention.
//
// Invariants: data is contiguous row-major (no strides); a Tensor is
// immutable once shared except through Variable assignment, which replaces
// or writes the buffer of a tensor held only by the variable. Buffers come
// from the caching allocator (runtime/tensor/allocator.h); small tensors keep
// their data inline so scalar ops allocate nothing.
// String tensors hold std::string elements (bytes, not necessarily UTF-8).
#pragma once

#include "ir/types.h"

#include <cmath>
#include <cstdint>
#include <limits>
#include <type_traits>
#include <memory>
#include <span>
#include <string>
#include <vector>

namespace tfs::runtime {

using ir::DType;

class Tensor {
public:
  Tensor();  // an invalid tensor (valid() == false)
  // Uninitialized storage of the given type (strings default-constructed).
  static Tensor empty(DType dtype, std::vector<int64_t> shape);
  static Tensor scalar(float v);
  static Tensor scalar(double v);  // float64
  static Tensor scalar(int32_t v);
  static Tensor scalar(int64_t v);
  static Tensor scalar(bool v);
  static Tensor scalar(std::string v);
  // A tensor of `shape` whose elements are `values` converted to `dtype`.
  static Tensor fromDoubles(DType dtype, std::vector<int64_t> shape,
                            const std::vector<double> &values);

  bool valid() const;
  DType dtype() const;
  const std::vector<int64_t> &shape() const;
  size_t rank() const { return shape().size(); }
  int64_t numElements() const;

  // Typed element access (T must match dtype: float, double, int32_t,
  // int64_t, bool, std::string).
  template <typename T> T *data();
  template <typename T> const T *data() const;
  template <typename T> T scalarValue() const;  // requires numElements()==1

  // Element i converted to double / int64 whatever the numeric dtype.
  double elementAsDouble(int64_t i) const;
  int64_t elementAsInt(int64_t i) const;

  Tensor reshaped(std::vector<int64_t> shape) const;  // same elements, new shape
  Tensor copy() const;                                // deep copy

  // Buffer identity (used by the eager tape and variable aliasing checks).
  const void *bufferId() const;
  // Raw element storage (numeric/bool) and its size in bytes.
  void *rawData() const;
  size_t byteSize() const;
  ir::TensorType type() const;

private:
  struct Impl;
  std::shared_ptr<Impl> impl_;
};

// One element converted between numeric dtypes as tf.cast does: float to
// int truncates, and NaN or out-of-range values give the integer minimum,
// as x86 does (a plain C++ conversion would be undefined behaviour).
template <class From, class To> To numericCast(From v) {
  if constexpr (std::is_same_v<To, bool>) {
    return v != From(0);
  } else if constexpr (std::is_floating_point_v<From> && std::is_integral_v<To>) {
    if (std::isnan(v)) return std::numeric_limits<To>::min();
    if (v >= double(std::numeric_limits<To>::max())) return std::numeric_limits<To>::min();
    if (v <= double(std::numeric_limits<To>::min())) return std::numeric_limits<To>::min();
    return To(v);
  } else {
    return To(v);
  }
}

}  // namespace tfs::runtime
