// Philox-4x32-10, the counter-based generator TF's random ops use, and the
// stream a random kernel draws from: keyed by the op's (seed, seed2)
// attributes, its call `counter` (a stateful op's run count) selecting a
// block 2^40 counters apart, so a seed pair and count always give the same
// numbers. Shared by random.cpp (normal / uniform) and random_draws.cpp.
#pragma once

#include "ir/attrs.h"

#include <array>
#include <cmath>
#include <cstdint>

namespace tfs::runtime::kernels {

struct Philox {
  uint32_t key[2];
  uint32_t counter[4] = {0, 0, 0, 0};

  Philox(uint64_t seed, uint64_t seed2) {
    key[0] = uint32_t(seed);
    key[1] = uint32_t(seed >> 32);
    counter[2] = uint32_t(seed2);
    counter[3] = uint32_t(seed2 >> 32);
  }

  std::array<uint32_t, 4> next() {
    uint32_t c[4] = {counter[0], counter[1], counter[2], counter[3]};
    uint32_t k0 = key[0], k1 = key[1];
    for (int round = 0; round < 10; ++round) {
      uint64_t p0 = uint64_t(0xD2511F53) * c[0], p1 = uint64_t(0xCD9E8D57) * c[2];
      uint32_t n0 = uint32_t(p1 >> 32) ^ c[1] ^ k0, n2 = uint32_t(p0 >> 32) ^ c[3] ^ k1;
      c[0] = n0;
      c[1] = uint32_t(p1);
      c[2] = n2;
      c[3] = uint32_t(p0);
      k0 += 0x9E3779B9;
      k1 += 0xBB67AE85;
    }
    if (++counter[0] == 0) ++counter[1];
    return {c[0], c[1], c[2], c[3]};
  }
};

// A uniform double in (0, 1) from the top 24 bits of a word (never 0 or 1,
// so log(u) is finite).
inline double uniform01(uint32_t bits) { return (double(bits >> 8) + 0.5) / double(1u << 24); }

// The generator of a random node: its seed pair and the block of its call.
inline Philox philoxFor(const ir::Attrs &attrs) {
  Philox gen(uint64_t(ir::attrInt(attrs, "seed", 0)), uint64_t(ir::attrInt(attrs, "seed2", 0)));
  uint64_t start = uint64_t(ir::attrInt(attrs, "counter", 0)) << 40;
  gen.counter[0] = uint32_t(start);
  gen.counter[1] = uint32_t(start >> 32);
  return gen;
}

// Word-at-a-time draws for kernels that reject or loop (truncated normal,
// gamma, poisson, shuffle): uniforms in (0, 1) and standard normals.
class PhiloxStream {
public:
  explicit PhiloxStream(const ir::Attrs &attrs) : gen_(philoxFor(attrs)) {}
  uint32_t word() {
    if (used_ == 4) {
      block_ = gen_.next();
      used_ = 0;
    }
    return block_[used_++];
  }
  double uniform() { return uniform01(word()); }
  double normal() {
    if (hasSpare_) {
      hasSpare_ = false;
      return spare_;
    }
    double u1 = uniform(), u2 = uniform();
    double rad = std::sqrt(-2.0 * std::log(u1)), th = 2 * M_PI * u2;
    spare_ = rad * std::sin(th);
    hasSpare_ = true;
    return rad * std::cos(th);
  }

private:
  Philox gen_;
  std::array<uint32_t, 4> block_{};
  int used_ = 4;
  double spare_ = 0;
  bool hasSpare_ = false;
};

}  // namespace tfs::runtime::kernels
