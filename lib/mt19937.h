// The Mersenne Twister MT19937 with the reference seeding (init_genrand and
// init_by_array), written out rather than taken from std::mt19937 so that
// the 624 key words and the position can be read and set. One core for
// CPython's `random` (lib/python/random), numpy's legacy RandomState
// (lib/numpy) and TF's Python-side seed derivation (lib/tf/random).
#pragma once

#include <cstdint>

namespace tfs::lib {

struct Mt19937 {
  static constexpr int kWords = 624, kShift = 397;
  uint32_t key[kWords] = {};
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

}  // namespace tfs::lib
