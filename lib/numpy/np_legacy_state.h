// numpy's legacy RandomState stream: MT19937 (numpy/random/src/mt19937) with
// the Box-Muller cache, written out rather than taken from std::mt19937 so
// that get_state/set_state see the 624 key words and the position, and a
// sequence seed runs numpy's init_by_array.
#pragma once

#include <cmath>
#include <cstdint>
#include <random>

namespace tfs::runtime::tf::numpy {

struct Mt19937 {
  static constexpr int kWords = 624, kShift = 397;
  uint32_t key[kWords];
  int pos = kWords;

  void seed(uint32_t s) {
    for (int i = 0; i < kWords; ++i) {
      key[i] = s;
      s = 1812433253u * (s ^ (s >> 30)) + uint32_t(i) + 1;
    }
    pos = kWords;
  }
  // mt19937_init_by_array: the reference MT seeding from a key of words.
  void seedByArray(const uint32_t *words, int length) {
    seed(19650218u);
    int i = 1, j = 0;
    for (int k = kWords > length ? kWords : length; k; --k) {
      key[i] = (key[i] ^ ((key[i - 1] ^ (key[i - 1] >> 30)) * 1664525u)) + words[j] + uint32_t(j);
      if (++i >= kWords) {
        key[0] = key[kWords - 1];
        i = 1;
      }
      if (++j >= length) j = 0;
    }
    for (int k = kWords - 1; k; --k) {
      key[i] = (key[i] ^ ((key[i - 1] ^ (key[i - 1] >> 30)) * 1566083941u)) - uint32_t(i);
      if (++i >= kWords) {
        key[0] = key[kWords - 1];
        i = 1;
      }
    }
    key[0] = 0x80000000u;
    pos = kWords;
  }
  uint32_t next32() {
    if (pos >= kWords) regenerate();
    uint32_t y = key[pos++];
    y ^= y >> 11;
    y ^= (y << 7) & 0x9d2c5680u;
    y ^= (y << 15) & 0xefc60000u;
    return y ^ (y >> 18);
  }

private:
  static uint32_t twist(uint32_t upper, uint32_t lower, uint32_t far) {
    uint32_t y = (upper & 0x80000000u) | (lower & 0x7fffffffu);
    return far ^ (y >> 1) ^ ((0u - (y & 1u)) & 0x9908b0dfu);
  }
  void regenerate() {
    int i = 0;
    for (; i < kWords - kShift; ++i) key[i] = twist(key[i], key[i + 1], key[i + kShift]);
    for (; i < kWords - 1; ++i) key[i] = twist(key[i], key[i + 1], key[i + kShift - kWords]);
    key[kWords - 1] = twist(key[kWords - 1], key[0], key[kShift - 1]);
    pos = 0;
  }
};

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
