// Helpers shared by the kernel files (private to runtime/kernels/): dtype
// dispatch, broadcasting iteration, output allocation and errors.
#pragma once

// The kernels' inner loops are simple counted loops over raw pointers; at
// -O2 GCC 12 uses the "very-cheap" vectorizer cost model, which refuses any
// loop needing a runtime alias check or a remainder loop -- i.e. all of them
// (0 of ~300 loops vectorized). The dynamic model vectorizes them.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC optimize("vect-cost-model=dynamic")
#endif

#include "ir/element_types.h"
#include "ir/op_table.h"
#include "runtime/kernels/kernels.h"

#include <array>
#include <cstring>
#include <fmt/format.h>
#include <string>

namespace tfs::runtime::kernels {

using ir::DType;
using ir::OpKind;
using KernelTable = std::array<Kernel, size_t(OpKind::NumOps)>;

// Each kernel file registers its kernels here (called once from kernels.cpp).
void registerElementwise(KernelTable &t);
void registerReductions(KernelTable &t);
void registerShapeOps(KernelTable &t);
void registerLinalg(KernelTable &t);
void registerNN(KernelTable &t);
void registerConv(KernelTable &t);
void registerPooling(KernelTable &t);
void registerRandom(KernelTable &t);
void registerRandomDraws(KernelTable &t);  // random_draws.cpp: truncated normal ... poisson, timestamp
void registerHostCallbacks(KernelTable &t);  // host_callback.cpp: py_function
void registerStringText(KernelTable &t);  // strings_text.cpp
void registerStringRegex(KernelTable &t);  // strings_regex.cpp
void registerStringHashes(KernelTable &t);  // strings_hash.cpp: to_hash_bucket*, fingerprint
void registerStrings(KernelTable &t);
void registerAssert(KernelTable &t);
void registerIndexOps(KernelTable &t);
void registerLinalgDecompositions(KernelTable &t);
void registerMatrixIndexOps(KernelTable &t);
void registerTensorArrayOps(KernelTable &t);
void registerComplex(KernelTable &t);
void registerIoOps(KernelTable &t);
void registerDecodeRaw(KernelTable &t);  // decode_raw.cpp
void registerAudioWav(KernelTable &t);  // audio_wav.cpp: decode_wav / encode_wav
void registerImageColor(KernelTable &t);  // image_color.cpp: adjust_contrast/saturation/hue, rgb <-> hsv
void registerExampleParsing(KernelTable &t);
void registerCollectives(KernelTable &t);
void registerSpecialMath(KernelTable &t);  // special_math.cpp: lgamma ... betainc, mul_no_nan
void registerSpectral(KernelTable &t);  // fft.cpp: fft ... irfft3d on FFTW
void registerBitwise(KernelTable &t);  // bitwise.cpp: bitwise_and ... invert, bitcast

[[noreturn]] inline void fail(OpKind k, const std::string &msg,
                              const char *cls = "InvalidArgumentError") {
  throw ir::OpError{cls, fmt::format("{} [Op:{}]", msg, ir::tfOpType(k))};
}

// Output types from the op's type rule (shapes fully known for concrete inputs).
std::vector<Tensor> allocateOutputs(OpKind k, std::span<const Tensor> inputs,
                                    const ir::Attrs &attrs);

// Calls f.template operator()<T>() for the C++ type of a real dtype a
// kernel computes on: bool, the integers, float, double. float16/bfloat16
// never reach a kernel's arithmetic (runKernel computes them in float32,
// see kernels.cpp); complex operands are an UnimplementedError here, and
// kernels that support them dispatch with dispatchWithComplex.
template <class F> decltype(auto) dispatchNumeric(DType t, F &&f) {
  switch (t) {
    TFS_FOR_EACH_REAL_DTYPE(TFS_DTYPE_CASE)
  case DType::Float16: case DType::BFloat16: case DType::Complex64: case DType::Complex128:
  case DType::String: break;
  }
  throw ir::OpError{"UnimplementedError",
                    fmt::format("this kernel does not support {} tensors", ir::dtypeName(t))};
}

// dispatchNumeric plus complex64/complex128.
template <class F> decltype(auto) dispatchWithComplex(DType t, F &&f) {
  if (t == DType::Complex64) return f.template operator()<ir::complex64>();
  if (t == DType::Complex128) return f.template operator()<ir::complex128>();
  return dispatchNumeric(t, std::forward<F>(f));
}

// Calls f.template operator()<T>() for float32 / float64 (the float-only
// kernels; their type rules have rejected other dtypes).
template <class F> void dispatchFloat(DType t, F &&f) {
  if (t == DType::Float32) f.template operator()<float>();
  else if (t == DType::Float64) f.template operator()<double>();
}

// Strides (in elements) of `shape` broadcast to `out` (0 where broadcast).
std::vector<int64_t> broadcastStrides(const std::vector<int64_t> &shape,
                                      const std::vector<int64_t> &out);

// Visits every output index i with the matching flat index of each input
// (stride-based broadcasting, no materialization).
template <size_t N, class F>
void forEachBroadcast(const std::vector<int64_t> &outShape,
                      const std::array<const std::vector<int64_t> *, N> &inShapes, F &&f) {
  int64_t n = 1;
  for (int64_t d : outShape) n *= d;
  if (n == 0) return;
  std::array<std::vector<int64_t>, N> strides;
  for (size_t k = 0; k < N; ++k) strides[k] = broadcastStrides(*inShapes[k], outShape);
  size_t r = outShape.size();
  std::vector<int64_t> idx(r, 0);
  std::array<int64_t, N> off{};
  for (int64_t i = 0; i < n; ++i) {
    f(i, off);
    for (size_t d = r; d-- > 0;) {
      ++idx[d];
      for (size_t k = 0; k < N; ++k) off[k] += strides[k][d];
      if (idx[d] < outShape[d]) break;
      for (size_t k = 0; k < N; ++k) off[k] -= strides[k][d] * outShape[d];
      idx[d] = 0;
    }
  }
}

// Row-major strides of a shape.
inline std::vector<int64_t> contiguousStrides(const std::vector<int64_t> &shape) {
  std::vector<int64_t> s(shape.size());
  int64_t acc = 1;
  for (size_t i = shape.size(); i-- > 0;) {
    s[i] = acc;
    acc *= shape[i];
  }
  return s;
}

// Copies element `from` of `src` to element `to` of `dst` (same dtype).
inline void copyElement(const Tensor &src, int64_t from, Tensor &dst, int64_t to) {
  if (src.dtype() == DType::String) {
    dst.data<std::string>()[to] = src.data<std::string>()[from];
    return;
  }
  size_t sz = ir::dtypeSize(src.dtype());
  std::memcpy(static_cast<char *>(dst.rawData()) + to * sz,
              static_cast<const char *>(src.rawData()) + from * sz, sz);
}

// copyElement for `count` consecutive elements (one memcpy; strings one
// by one).
inline void copyElements(const Tensor &src, int64_t from, Tensor &dst, int64_t to, int64_t count) {
  if (src.dtype() == DType::String) {
    for (int64_t i = 0; i < count; ++i) dst.data<std::string>()[to + i] = src.data<std::string>()[from + i];
    return;
  }
  size_t sz = ir::dtypeSize(src.dtype());
  std::memcpy(static_cast<char *>(dst.rawData()) + to * sz, static_cast<const char *>(src.rawData()) + from * sz,
              size_t(count) * sz);
}

}  // namespace tfs::runtime::kernels
