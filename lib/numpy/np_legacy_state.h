// numpy's legacy RandomState stream: MT19937 (lib/mt19937.h, whose key words
// and position get_state/set_state see; a sequence seed runs init_by_array)
// with the Box-Muller cache.
#pragma once

#include "lib/mt19937.h"

#include <cmath>
#include <cstdint>
#include <random>

namespace tfs::runtime::tf::numpy {

using Mt19937 = lib::Mt19937;

struct LegacyState {
  Mt19937 mt;
  bool hasGauss = false;
  double gauss = 0.0;

  LegacyState() { seed(std::random_device{}()); }
  void seed(uint32_t s) {
    mt.seed(s);
    hasGauss = false;
    gauss = 0.0;
  }
  uint32_t next32() { return mt.next32(); }
  uint64_t next64() {
    uint64_t hi = next32();
    return hi << 32 | next32();
  }
  double nextDouble() {
    int32_t a = int32_t(next32() >> 5), b = int32_t(next32() >> 6);
    return (a * 67108864.0 + b) / 9007199254740992.0;
  }
  // legacy_standard_exponential: -log(1 - U)
  double nextExponential() { return -std::log(1.0 - nextDouble()); }
  double nextGauss() {
    if (hasGauss) {
      double cached = gauss;
      hasGauss = false;
      gauss = 0.0;  // numpy clears the cache, which get_state shows
      return cached;
    }
    double x1, x2, r2;
    do {
      x1 = 2.0 * nextDouble() - 1.0;
      x2 = 2.0 * nextDouble() - 1.0;
      r2 = x1 * x1 + x2 * x2;
    } while (r2 >= 1.0 || r2 == 0.0);
    double f = std::sqrt(-2.0 * std::log(r2) / r2);
    gauss = f * x1;
    hasGauss = true;
    return f * x2;
  }
  static uint64_t maskFor(uint64_t max) {
    uint64_t m = max;
    for (int s : {1, 2, 4, 8, 16, 32}) m |= m >> s;
    return m;
  }
  // A uniform integer in [0, max]: randint's masked rejection sampling.
  uint64_t bounded(uint64_t max) {
    if (max == 0) return 0;
    uint64_t mask = maskFor(max), v;
    if (max <= 0xFFFFFFFFull) {
      if (max == 0xFFFFFFFFull) return next32();
      while ((v = (next32() & mask)) > max) {}
    } else {
      if (max == ~uint64_t(0)) return next64();
      while ((v = (next64() & mask)) > max) {}
    }
    return v;
  }
};

}  // namespace tfs::runtime::tf::numpy
