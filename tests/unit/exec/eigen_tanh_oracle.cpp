// The oracle of tf_float_math_test.cpp: Eigen's own float32 tanh (Debian's
// libeigen3-dev 3.4, whose fast float tanh is the one TF 2.15's Eigen
// evaluates), compiled as TF's x86-64 wheels are: vectorized without FMA
// (this file gets -ffp-contract=off and -mno-fma, tests/CMakeLists.txt).
// Eigen evaluates an array's aligned middle in packets and its ends one
// element at a time (numext::tanh), so both of its paths are exercised.
#include <Eigen/Core>

#include <cstdint>

#ifdef EIGEN_VECTORIZE_FMA
#error "the tanh oracle must be compiled without FMA, as TF's wheels are"
#endif

namespace tfs_test {

void eigenTanh(const float *x, float *out, int64_t n) {
  Eigen::Map<const Eigen::ArrayXf> in(x, Eigen::Index(n));
  Eigen::Map<Eigen::ArrayXf> o(out, Eigen::Index(n));
  o = in.tanh();
}

float eigenTanhScalar(float x) { return Eigen::numext::tanh(x); }

}  // namespace tfs_test
