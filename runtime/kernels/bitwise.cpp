// Bitwise kernels (TF's bitwise_ops: and/or/xor, shifts, invert) on the
// integer dtypes, and bitcast (the bytes of any numeric tensor reinterpreted
// as another dtype).
#include "runtime/kernels/kernel_util.h"

#include <type_traits>

namespace tfs::runtime::kernels {

namespace {

// Calls f.template operator()<T>() for the C++ type of an integer dtype
// (the type rules have rejected every other dtype).
template <class F> void dispatchInteger(DType t, F &&f) {
  switch (t) {
  case DType::Int8: f.template operator()<int8_t>(); break;
  case DType::Int16: f.template operator()<int16_t>(); break;
  case DType::Int32: f.template operator()<int32_t>(); break;
  case DType::Int64: f.template operator()<int64_t>(); break;
  case DType::UInt8: f.template operator()<uint8_t>(); break;
  case DType::UInt16: f.template operator()<uint16_t>(); break;
  case DType::UInt32: f.template operator()<uint32_t>(); break;
  case DType::UInt64: f.template operator()<uint64_t>(); break;
  default: break;
  }
}

// TF's shift functors clamp the count to [0, bits - 1] and shift in the
// unsigned type (left) / the type itself (right: arithmetic for signed).
template <class T> T shiftCount(T y) {
  constexpr T top = T(sizeof(T) * 8 - 1);
  if constexpr (std::is_signed_v<T>)
    if (y < 0) return T(0);
  return y > top ? top : y;
}

template <OpKind K, class T> T apply(T x, T y) {
  using U = std::make_unsigned_t<T>;
  if constexpr (K == OpKind::BitwiseAnd) return T(x & y);
  else if constexpr (K == OpKind::BitwiseOr) return T(x | y);
  else if constexpr (K == OpKind::BitwiseXor) return T(x ^ y);
  else if constexpr (K == OpKind::LeftShift) return T(U(U(x) << U(shiftCount(y))));
  else return T(x >> shiftCount(y));
}

template <OpKind K> std::vector<Tensor> binary(std::span<const Tensor> in, const ir::Attrs &attrs) {
  std::vector<Tensor> out = allocateOutputs(K, in, attrs);
  dispatchInteger(in[0].dtype(), [&]<class T>() {
    const T *a = in[0].data<T>();
    const T *b = in[1].data<T>();
    T *o = out[0].data<T>();
    forEachBroadcast<2>(out[0].shape(), {&in[0].shape(), &in[1].shape()},
                        [&](int64_t i, const std::array<int64_t, 2> &off) { o[i] = apply<K, T>(a[off[0]], b[off[1]]); });
  });
  return out;
}

std::vector<Tensor> invert(std::span<const Tensor> in, const ir::Attrs &attrs) {
  std::vector<Tensor> out = allocateOutputs(OpKind::Invert, in, attrs);
  dispatchInteger(in[0].dtype(), [&]<class T>() {
    const T *a = in[0].data<T>();
    T *o = out[0].data<T>();
    for (int64_t i = 0, n = out[0].numElements(); i < n; ++i) o[i] = T(~a[i]);
  });
  return out;
}

// The output shares the input's bytes in order (little-endian hosts, as
// TF's CPU kernel on x86/ARM).
std::vector<Tensor> bitcast(std::span<const Tensor> in, const ir::Attrs &attrs) {
  std::vector<Tensor> out = allocateOutputs(OpKind::Bitcast, in, attrs);
  size_t bytes = size_t(in[0].numElements()) * ir::dtypeSize(in[0].dtype());
  if (bytes) std::memcpy(out[0].rawData(), in[0].rawData(), bytes);
  return out;
}

}  // namespace

void registerBitwise(KernelTable &t) {
  t[size_t(OpKind::BitwiseAnd)] = binary<OpKind::BitwiseAnd>;
  t[size_t(OpKind::BitwiseOr)] = binary<OpKind::BitwiseOr>;
  t[size_t(OpKind::BitwiseXor)] = binary<OpKind::BitwiseXor>;
  t[size_t(OpKind::LeftShift)] = binary<OpKind::LeftShift>;
  t[size_t(OpKind::RightShift)] = binary<OpKind::RightShift>;
  t[size_t(OpKind::Invert)] = invert;
  t[size_t(OpKind::Bitcast)] = bitcast;
}

}  // namespace tfs::runtime::kernels
