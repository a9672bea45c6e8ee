// Random kernels that reject or search, each TF's CPU kernel word for word
// so seeds print TF's numbers: RandomShuffle (swap i with
// i + word % (rows - i)), Multinomial (inverse CDF of exp(logit - max) at a
// two-word uniform double), RandomGamma (Marsaglia-Tsang) and
// RandomPoisson (Knuth below rate 10, Hormann's transformed rejection
// above), the last two one generator per output, 256 blocks apart.
#include "runtime/kernels/kernel_util.h"
#include "runtime/kernels/philox.h"

#include <cmath>
#include <algorithm>
#include <ctime>
#include <limits>

namespace tfs::runtime::kernels {

namespace {

// Uniform and normal doubles for gamma and poisson, as TF's kernels take
// them: a block gives two values, used last first.
class DoublePairs {
public:
  explicit DoublePairs(Philox &gen) : gen_(gen) {}
  double uniform() {
    if (uniformLeft_ == 0) {
      std::array<uint32_t, 4> s = gen_.next();
      uniform_[0] = uint64ToDouble(s[0], s[1]);
      uniform_[1] = uint64ToDouble(s[2], s[3]);
      uniformLeft_ = 2;
    }
    return uniform_[--uniformLeft_];
  }
  double normal() {
    if (normalLeft_ == 0) {
      std::array<uint32_t, 4> s = gen_.next();
      boxMullerDouble(s[0], s[1], s[2], s[3], normal_[0], normal_[1]);
      normalLeft_ = 2;
    }
    return normal_[--normalLeft_];
  }

private:
  Philox &gen_;
  double uniform_[2] = {0, 0}, normal_[2] = {0, 0};
  int uniformLeft_ = 0, normalLeft_ = 0;
};

template <class F> void storeAll(Tensor &o, F &&draw) {
  int64_t n = o.numElements();
  dispatchNumeric(o.dtype(), [&]<class T>() {
    T *q = o.data<T>();
    for (int64_t i = 0; i < n; ++i) q[i] = T(draw(i));
  });
}

std::vector<Tensor> shuffle(std::span<const Tensor> in, const ir::Attrs &attrs) {
  const Tensor &x = in[0];
  if (x.rank() == 0) return {x};
  int64_t rows = x.shape()[0];
  std::vector<int64_t> order(static_cast<size_t>(rows));
  for (int64_t i = 0; i < rows; ++i) order[size_t(i)] = i;
  // TF's RandomShuffle: for each position i but the last, swap with
  // i + word % (rows - i); nothing drawn for fewer than two rows.
  if (rows > 1 && x.numElements() > 1) {
    PhiloxWords words(philoxFor(attrs));
    for (int64_t i = 0; i + 1 < rows; ++i)
      std::swap(order[size_t(i)], order[size_t(i + int64_t(words() % uint32_t(rows - i)))]);
  }
  Tensor out = Tensor::empty(x.dtype(), x.shape());
  int64_t rowElems = rows ? x.numElements() / rows : 0;
  if (x.dtype() == DType::String) {
    const std::string *src = x.data<std::string>();
    std::string *dst = out.data<std::string>();
    for (int64_t r = 0; r < rows; ++r)
      for (int64_t k = 0; k < rowElems; ++k) dst[r * rowElems + k] = src[order[size_t(r)] * rowElems + k];
    return {out};
  }
  size_t rowBytes = rows ? x.byteSize() / size_t(rows) : 0;
  const char *src = static_cast<const char *>(x.rawData());
  char *dst = static_cast<char *>(out.rawData());
  for (int64_t r = 0; r < rows; ++r)
    std::memcpy(dst + size_t(r) * rowBytes, src + size_t(order[size_t(r)]) * rowBytes, rowBytes);
  return {out};
}

std::vector<Tensor> multinomial(std::span<const Tensor> in, const ir::Attrs &attrs) {
  std::vector<Tensor> out = allocateOutputs(OpKind::Multinomial, in, attrs);
  const Tensor &logits = in[0];
  int64_t batch = logits.shape()[0], classes = logits.shape()[1];
  int64_t samples = out[0].shape()[1];
  if (classes == 0 && samples > 0) fail(OpKind::Multinomial, "num_classes should be positive, got 0");
  // TF's CPU Multinomial: per row, the running sum of exp(logit - max)
  // over the finite logits, then per sample the first class whose sum
  // exceeds a uniform double (two words) times the total.
  PhiloxWords words(philoxFor(attrs));
  std::vector<double> cdf(static_cast<size_t>(classes));
  std::vector<int64_t> ids(static_cast<size_t>(batch * samples));
  for (int64_t b = 0; b < batch; ++b) {
    double top = -std::numeric_limits<double>::max();
    for (int64_t c = 0; c < classes; ++c) {
      double l = logits.elementAsDouble(b * classes + c);
      if (std::isfinite(l)) top = std::max(top, l);
    }
    double total = 0;
    for (int64_t c = 0; c < classes; ++c) {
      double l = logits.elementAsDouble(b * classes + c);
      if (std::isfinite(l)) total += std::exp(l - top);
      cdf[size_t(c)] = total;
    }
    for (int64_t k = 0; k < samples; ++k) {
      uint32_t x0 = words(), x1 = words();
      double u = uint64ToDouble(x0, x1) * total;
      ids[size_t(b * samples + k)] = int64_t(std::upper_bound(cdf.begin(), cdf.end(), u) - cdf.begin());
    }
  }
  storeAll(out[0], [&](int64_t i) { return ids[size_t(i)]; });
  return out;
}

// Gamma(alpha, 1) as TF's RandomGamma: alpha == 1 is -log1p(-u); else
// Marsaglia and Tsang (2000) with the squeeze test, and for alpha < 1
// the draw for alpha + 1 times u^(1/alpha).
double gammaDraw(DoublePairs &s, double alpha) {
  if (alpha == 1.0) return -std::log1p(-s.uniform());
  const bool below1 = alpha < 1;
  const double d = alpha + (below1 ? 2.0 / 3 : -1.0 / 3), c = 1.0 / 3 / std::sqrt(d);
  for (;;) {
    const double x = s.normal();
    double v = 1 + c * x;
    if (v <= 0) continue;
    v = v * v * v;
    double u = s.uniform();
    if (u < 1 - 0.0331 * (x * x) * (x * x) || std::log(u) < 0.5 * x * x + d * (1 - v + std::log(v))) {
      double res = d * v;
      if (below1) res *= std::pow(s.uniform(), 1 / alpha);
      return res;
    }
  }
}

// Poisson(rate) as TF's RandomPoisson: Knuth's product of uniforms below
// 10, Hormann's transformed rejection (1993) from 10 up.
double poissonDraw(DoublePairs &s, double rate, double highest) {
  if (std::isnan(rate)) return rate;
  if (rate < 10) {
    const double limit = std::exp(-rate);
    double prod = 1, x = 0;
    for (;;) {
      prod = prod * s.uniform();
      if (prod <= limit && x <= highest) return x;
      x += 1;
    }
  }
  if (std::isinf(rate)) return rate;
  const double logRate = std::log(rate), b = 0.931 + 2.53 * std::sqrt(rate), a = -0.059 + 0.02483 * b;
  const double invAlpha = 1.1239 + 1.1328 / (b - 3.4);
  for (;;) {
    double u = s.uniform();
    u -= 0.5;
    double v = s.uniform();
    double us = 0.5 - std::fabs(u);
    double k = std::floor((2 * a / us + b) * u + rate + 0.43);
    if (k > highest) continue;
    if (us >= 0.07 && v <= 0.9277 - 3.6224 / (b - 2)) return k;
    if (k < 0 || (us < 0.013 && v > us)) continue;
    double lhs = std::log(v * invAlpha / (a / (us * us) + b));
    if (lhs <= -rate + k * logRate - std::lgamma(k + 1)) return k;
  }
}

// Each (parameter, sample) pair draws from its own generator, 256 blocks
// per output further on in parameter-major order; the output is
// sample-major (shape + parameter shape).
template <OpKind K> std::vector<Tensor> parameterized(std::span<const Tensor> in, const ir::Attrs &attrs) {
  std::vector<Tensor> out = allocateOutputs(K, in, attrs);
  const Tensor &param = in[0];
  int64_t params = param.numElements(), total = out[0].numElements();
  if (params == 0 && K == OpKind::RandomGamma && total > 0)
    fail(K, "Input alpha should have non-zero element count, got: 0");
  int64_t samples = params ? total / params : 0;
  Philox base = philoxFor(attrs);
  DType d = out[0].dtype();
  double highest = d == DType::Int32   ? double(std::numeric_limits<int32_t>::max())
                   : d == DType::Int64 ? double(std::numeric_limits<int64_t>::max())
                                       : std::numeric_limits<double>::infinity();
  std::vector<double> values(static_cast<size_t>(total));
  for (int64_t p = 0; p < params; ++p) {
    double x = param.elementAsDouble(p);
    for (int64_t k = 0; k < samples; ++k) {
      Philox gen = base;
      gen.skip(uint64_t(p * samples + k) * 256);
      DoublePairs s(gen);
      values[size_t(k * params + p)] = K == OpKind::RandomGamma ? gammaDraw(s, x) : poissonDraw(s, x, highest);
    }
  }
  storeAll(out[0], [&](int64_t i) { return values[size_t(i)]; });
  return out;
}

std::vector<Tensor> timestamp(std::span<const Tensor>, const ir::Attrs &) {
  struct timespec now;
  clock_gettime(CLOCK_REALTIME, &now);
  return {Tensor::scalar(double(now.tv_sec) + double(now.tv_nsec) * 1e-9)};
}

}  // namespace

void registerRandomDraws(KernelTable &t) {
  t[size_t(OpKind::RandomShuffle)] = shuffle;
  t[size_t(OpKind::Multinomial)] = multinomial;
  t[size_t(OpKind::RandomGamma)] = parameterized<OpKind::RandomGamma>;
  t[size_t(OpKind::RandomPoisson)] = parameterized<OpKind::RandomPoisson>;
  t[size_t(OpKind::Timestamp)] = timestamp;
}

}  // namespace tfs::runtime::kernels
