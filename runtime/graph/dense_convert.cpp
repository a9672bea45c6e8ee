// DenseElements <-> Tensor: element bytes are copied as is (both sides are
// native-endian row-major; bool is one byte 0/1 on both sides).
#include "runtime/graph/dense_convert.h"

#include <cstring>

namespace tfs::runtime {

Tensor tensorFromDense(const ir::DenseElements &d) {
  Tensor t = Tensor::empty(d.dtype(), d.shape().dims);
  const int64_t n = d.numElements();
  if (n == 0) return t;  // empty: no buffers (memcpy from null is undefined)
  if (d.dtype() == ir::DType::String) {
    auto *out = t.data<std::string>();
    for (int64_t i = 0; i < n; ++i)
      out[i] = d.strings()[i];
  } else if (d.dtype() == ir::DType::Bool) {
    auto *out = t.data<bool>();
    for (int64_t i = 0; i < n; ++i)
      out[i] = d.bytes()[i] != 0;
  } else {
    std::memcpy(t.rawData(), d.bytes().data(), t.byteSize());
  }
  return t;
}

ir::DenseElements denseFromTensor(const Tensor &t) {
  ir::Shape shape(t.shape());
  const int64_t n = t.numElements();
  if (t.dtype() == ir::DType::String) {
    const auto *in = t.data<std::string>();
    return ir::DenseElements::fromStrings(shape, std::vector<std::string>(in, in + n));
  }
  size_t eb = ir::DenseElements::elementBytes(t.dtype());
  std::vector<uint8_t> bytes(n * eb);
  if (n == 0) return ir::DenseElements(t.dtype(), shape, std::move(bytes));
  if (t.dtype() == ir::DType::Bool) {
    const bool *in = t.data<bool>();
    for (int64_t i = 0; i < n; ++i)
      bytes[i] = in[i] ? 1 : 0;
  } else {
    std::memcpy(bytes.data(), t.rawData(), bytes.size());
  }
  return ir::DenseElements(t.dtype(), shape, std::move(bytes));
}

}  // namespace tfs::runtime
