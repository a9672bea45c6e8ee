// Random kernels that reject or search. Shuffle and multinomial are TF's
// CPU kernels word for word (RandomShuffle's swap of i with
// i + word % (rows - i); Multinomial's inverse CDF of exp(logit - max) at
// a two-word uniform double), so seeds print TF's numbers. Gamma
// (Marsaglia-Tsang, with the alpha < 1 boost) and poisson (Knuth's product
// method for small rates, Hormann's PTRS above 10) draw from the node's
// Philox stream in tfs's own layout: deterministic per seed, not TF's
// values (the library refuses seeds for them).
#include "runtime/kernels/kernel_util.h"
#include "runtime/kernels/philox.h"

#include <cmath>
#include <algorithm>
#include <ctime>
#include <limits>

namespace tfs::runtime::kernels {

namespace {

// Uniform doubles and standard normals word by word from a node's stream,
// for gamma and poisson (whose layout is tfs's own, not TF's).
class DrawStream {
public:
  explicit DrawStream(const ir::Attrs &attrs) : words_(philoxFor(attrs)) {}
  double uniform() {
    uint32_t x0 = words_(), x1 = words_();
    double u = uint64ToDouble(x0, x1);
    return u > 0 ? u : 0x1p-53;
  }
  double normal() {
    if (hasSpare_) {
      hasSpare_ = false;
      return spare_;
    }
    uint32_t x0 = words_(), x1 = words_(), x2 = words_(), x3 = words_();
    double z;
    boxMullerDouble(x0, x1, x2, x3, z, spare_);
    hasSpare_ = true;
    return z;
  }

private:
  PhiloxWords words_;
  double spare_ = 0;
  bool hasSpare_ = false;
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

// Gamma(alpha, 1) by Marsaglia and Tsang (2000); alpha < 1 draws
// Gamma(alpha + 1) and scales by u^(1/alpha).
double gammaDraw(DrawStream &s, double alpha) {
  if (!(alpha > 0)) return std::numeric_limits<double>::quiet_NaN();
  double boost = 1.0;
  if (alpha < 1.0) {
    boost = std::pow(s.uniform(), 1.0 / alpha);
    alpha += 1.0;
  }
  double d = alpha - 1.0 / 3.0, c = 1.0 / std::sqrt(9.0 * d);
  for (;;) {
    double x = s.normal(), v = 1.0 + c * x;
    if (v <= 0) continue;
    v = v * v * v;
    double u = s.uniform();
    if (std::log(u) < 0.5 * x * x + d - d * v + d * std::log(v)) return boost * d * v;
  }
}

// Poisson(rate): Knuth's multiplication for small rates, PTRS (Hormann,
// "The transformed rejection method for generating Poisson random
// variables", 1993) from 10 up.
double poissonDraw(DrawStream &s, double rate) {
  if (rate < 0 || std::isnan(rate)) return std::numeric_limits<double>::quiet_NaN();
  if (rate == 0) return 0;
  if (rate < 10) {
    double limit = std::exp(-rate), p = 1.0;
    int64_t k = 0;
    for (;;) {
      p *= s.uniform();
      if (p <= limit) return double(k);
      ++k;
    }
  }
  double slam = std::sqrt(rate), loglam = std::log(rate);
  double b = 0.931 + 2.53 * slam, a = -0.059 + 0.02483 * b;
  double invAlpha = 1.1239 + 1.1328 / (b - 3.4), vr = 0.9277 - 3.6224 / (b - 2);
  for (;;) {
    double u = s.uniform() - 0.5, v = s.uniform();
    double us = 0.5 - std::fabs(u);
    double k = std::floor((2 * a / us + b) * u + rate + 0.43);
    if (us >= 0.07 && v <= vr) return k;
    if (k < 0 || (us < 0.013 && v > us)) continue;
    if (std::log(v) + std::log(invAlpha) - std::log(a / (us * us) + b) <= -rate + k * loglam - std::lgamma(k + 1))
      return k;
  }
}

template <OpKind K> std::vector<Tensor> parameterized(std::span<const Tensor> in, const ir::Attrs &attrs) {
  std::vector<Tensor> out = allocateOutputs(K, in, attrs);
  const Tensor &param = in[0];
  int64_t per = param.numElements();
  DrawStream s(attrs);
  storeAll(out[0], [&](int64_t i) {
    double p = param.elementAsDouble(i % per);
    return K == OpKind::RandomGamma ? gammaDraw(s, p) : poissonDraw(s, p);
  });
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
