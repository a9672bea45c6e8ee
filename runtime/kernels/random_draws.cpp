// Random kernels that reject or search: truncated normal (redraws outside
// two standard deviations, as TF's TruncatedNormal), shuffle (Fisher-Yates
// over rows), multinomial (inverse CDF of softmax(logits) per row), gamma
// (Marsaglia-Tsang, with the alpha < 1 boost) and poisson (Knuth's product
// method for small rates, Hormann's PTRS rejection above 10). Each draws from
// the node's Philox stream (philox.h), so seeds make them deterministic;
// exact TF values are not reproduced, the distributions are.
#include "runtime/kernels/kernel_util.h"
#include "runtime/kernels/philox.h"

#include <cmath>
#include <algorithm>
#include <ctime>
#include <limits>

namespace tfs::runtime::kernels {

namespace {

template <class F> void storeAll(Tensor &o, F &&draw) {
  int64_t n = o.numElements();
  dispatchNumeric(o.dtype(), [&]<class T>() {
    T *q = o.data<T>();
    for (int64_t i = 0; i < n; ++i) q[i] = T(draw(i));
  });
}

std::vector<Tensor> truncatedNormal(std::span<const Tensor> in, const ir::Attrs &attrs) {
  std::vector<Tensor> out = allocateOutputs(OpKind::RandomTruncatedNormal, in, attrs);
  PhiloxStream s(attrs);
  double mean = ir::attrFloat(attrs, "mean", 0.0), stddev = ir::attrFloat(attrs, "stddev", 1.0);
  storeAll(out[0], [&](int64_t) {
    double z;
    do z = s.normal();
    while (std::fabs(z) > 2.0);
    return mean + stddev * z;
  });
  return out;
}

std::vector<Tensor> shuffle(std::span<const Tensor> in, const ir::Attrs &attrs) {
  const Tensor &x = in[0];
  if (x.rank() == 0) return {x};
  int64_t rows = x.shape()[0];
  std::vector<int64_t> order(static_cast<size_t>(rows));
  for (int64_t i = 0; i < rows; ++i) order[size_t(i)] = i;
  PhiloxStream s(attrs);
  for (int64_t i = rows - 1; i > 0; --i) {
    int64_t j = std::min(i, int64_t(s.uniform() * double(i + 1)));
    std::swap(order[size_t(i)], order[size_t(j)]);
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
  PhiloxStream s(attrs);
  std::vector<double> cdf(static_cast<size_t>(classes));
  std::vector<int64_t> ids(static_cast<size_t>(batch * samples));
  for (int64_t b = 0; b < batch; ++b) {
    double top = -std::numeric_limits<double>::infinity();
    for (int64_t c = 0; c < classes; ++c) top = std::max(top, logits.elementAsDouble(b * classes + c));
    double total = 0;
    for (int64_t c = 0; c < classes; ++c) {
      double l = logits.elementAsDouble(b * classes + c);
      total += std::isfinite(l) ? std::exp(l - top) : 0.0;
      cdf[size_t(c)] = total;
    }
    for (int64_t k = 0; k < samples; ++k) {
      double u = s.uniform() * total;
      int64_t c = int64_t(std::upper_bound(cdf.begin(), cdf.end(), u) - cdf.begin());
      ids[size_t(b * samples + k)] = std::min(c, classes - 1);
    }
  }
  storeAll(out[0], [&](int64_t i) { return ids[size_t(i)]; });
  return out;
}

// Gamma(alpha, 1) by Marsaglia and Tsang (2000); alpha < 1 draws
// Gamma(alpha + 1) and scales by u^(1/alpha).
double gammaDraw(PhiloxStream &s, double alpha) {
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
double poissonDraw(PhiloxStream &s, double rate) {
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
  PhiloxStream s(attrs);
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
  t[size_t(OpKind::RandomTruncatedNormal)] = truncatedNormal;
  t[size_t(OpKind::RandomShuffle)] = shuffle;
  t[size_t(OpKind::Multinomial)] = multinomial;
  t[size_t(OpKind::RandomGamma)] = parameterized<OpKind::RandomGamma>;
  t[size_t(OpKind::RandomPoisson)] = parameterized<OpKind::RandomPoisson>;
  t[size_t(OpKind::Timestamp)] = timestamp;
}

}  // namespace tfs::runtime::kernels
