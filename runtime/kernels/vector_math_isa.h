// Private to vector_math*.cpp: the per-instruction-set halves of
// vector_math.h. vector_math_avx2.cpp and vector_math_avx512.cpp are compiled
// for those instruction sets and only called on hosts that have them.
#pragma once

#include "runtime/kernels/vector_math.h"

namespace tfs::runtime::vmath {

enum class Isa : uint8_t { Scalar, Avx2, Avx512 };

struct Named {
  const char *name;
  void *address;
};

// The scalar variant of `f` for FMA hosts (vector_math_fma.cpp).
Named fmaScalar(Fn f);
// The vector variant of `f` for the instruction set.
Named avx2Vector(Fn f);
Named avx512Vector(Fn f);
// out[i] = f(x[i]) (or f(x[i], y[i]) when y is not null), whole vectors
// and a last partial vector padded with zeros (its extra lanes discarded).
void avx2Apply(Fn f, const float *x, const float *y, float *out, int64_t n);
void avx512Apply(Fn f, const float *x, const float *y, float *out, int64_t n);
// TF's float32 functions (tf_float_math.h) on whole vectors of the
// instruction set; SigmoidPacket: every element as in a packet.
enum class TfFn : uint8_t { Tanh, SigmoidPacket };
void avx2TfApply(TfFn f, const float *x, float *out, int64_t n);
void avx512TfApply(TfFn f, const float *x, float *out, int64_t n);

}  // namespace tfs::runtime::vmath
