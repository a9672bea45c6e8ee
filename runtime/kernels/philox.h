// TensorFlow's random streams, value for value: Philox-4x32-10 with TF's
// key / counter layout and Skip, the uint32 -> float / double conversions,
// Box-Muller, and where each random node starts its stream.
//
// A random node's attributes say which stream it reads (`rng`):
//  * kRngStateful (0, the default): the stateful ops (RandomUniform,
//    RandomStandardNormal, TruncatedNormal, RandomShuffle, Multinomial):
//    Philox keyed by (seed, seed2) as TF's GuardedPhiloxRandom, advanced by
//    `counter` 128-bit blocks -- what earlier runs of the same kernel
//    reserved (randomBlocksReserved), as TF's kernel keeps its generator.
//  * kRngStateless (1): the stateless ops: the seed pair scrambled by one
//    Philox round into a key and counter (TF's GenerateKey).
//  * kRngState (2): an explicit Generator state [counter lo, counter hi,
//    key] in attrs state0..state2 (tf.random.Generator's variable).
#pragma once

#include "ir/attrs.h"
#include "ir/op_table.h"
#include "runtime/tensor/tensor.h"

#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <span>

namespace tfs::runtime::kernels {

enum : int64_t { kRngStateful = 0, kRngStateless = 1, kRngState = 2 };

struct Philox {
  std::array<uint32_t, 4> counter{};
  std::array<uint32_t, 2> key{};

  // TF's PhiloxRandom(seed_lo, seed_hi): the first seed is the key, the
  // second the high half of the counter.
  static Philox fromSeeds(uint64_t seed, uint64_t seed2) {
    Philox p;
    p.key = {uint32_t(seed), uint32_t(seed >> 32)};
    p.counter = {0, 0, uint32_t(seed2), uint32_t(seed2 >> 32)};
    return p;
  }

  // The block at the current counter (10 rounds), then the counter + 1.
  std::array<uint32_t, 4> next() {
    std::array<uint32_t, 4> c = counter;
    uint32_t k0 = key[0], k1 = key[1];
    for (int round = 0; round < 10; ++round) {
      uint64_t p0 = uint64_t(0xD2511F53u) * c[0], p1 = uint64_t(0xCD9E8D57u) * c[2];
      c = {uint32_t(p1 >> 32) ^ c[1] ^ k0, uint32_t(p1), uint32_t(p0 >> 32) ^ c[3] ^ k1, uint32_t(p0)};
      k0 += 0x9E3779B9u;
      k1 += 0xBB67AE85u;
    }
    skip(1);
    return c;
  }

  // Advances the 128-bit counter by `blocks` (TF's PhiloxRandom::Skip: the
  // count is added to the low 64 bits, carrying into the high half).
  void skip(uint64_t blocks) {
    uint32_t lo = uint32_t(blocks), hi = uint32_t(blocks >> 32);
    counter[0] += lo;
    if (counter[0] < lo) ++hi;
    counter[1] += hi;
    if (counter[1] < hi && ++counter[2] == 0) ++counter[3];
  }
};

// The stateless ops' key and counter from a seed pair (TF's GenerateKey).
inline Philox statelessPhilox(uint64_t seed0, uint64_t seed1) {
  Philox mix;
  mix.key = {0x3ec8f720u, 0x02461e29u};
  mix.counter = {uint32_t(seed0), uint32_t(seed0 >> 32), uint32_t(seed1), uint32_t(seed1 >> 32)};
  std::array<uint32_t, 4> m = mix.next();
  Philox p;
  p.key = {m[0], m[1]};
  p.counter = {0, 0, m[2], m[3]};
  return p;
}

// One uint32 at a time from a Philox stream (TF's SingleSampleAdapter).
class PhiloxWords {
public:
  explicit PhiloxWords(Philox gen) : gen_(gen) {}
  uint32_t operator()() {
    if (used_ == 4) {
      block_ = gen_.next();
      used_ = 0;
    }
    return block_[size_t(used_++)];
  }

private:
  Philox gen_;
  std::array<uint32_t, 4> block_{};
  int used_ = 4;
};

// [0, 1) from the low 23 bits of a word (TF's Uint32ToFloat).
inline float uint32ToFloat(uint32_t x) {
  uint32_t bits = (127u << 23) | (x & 0x7fffffu);
  float f;
  std::memcpy(&f, &bits, sizeof f);
  return f - 1.0f;
}

// [0, 1) from 20 bits of x0 and all of x1 (TF's Uint64ToDouble).
inline double uint64ToDouble(uint32_t x0, uint32_t x1) {
  uint64_t bits = (uint64_t(1023) << 52) | (uint64_t(x0 & 0xfffffu) << 32) | x1;
  double d;
  std::memcpy(&d, &bits, sizeof d);
  return d - 1.0;
}

// Two standard normals from two words, in float arithmetic with glibc's
// logf / sincosf as TF's Linux build (BoxMullerFloat).
void boxMullerFloat(uint32_t x0, uint32_t x1, float &f0, float &f1);
// Two standard normals from four words (BoxMullerDouble).
void boxMullerDouble(uint32_t x0, uint32_t x1, uint32_t x2, uint32_t x3, double &d0, double &d1);

// The generator a random node starts from (see the header comment).
Philox philoxFor(const ir::Attrs &attrs);

// How many 128-bit blocks one run of a stateful random node reserves from
// its kernel's generator (TF: 256 per output element for the filled
// distributions, ceil((rows - 1) / 4) for a shuffle, ...): the next run of
// the same kernel starts that far on.
int64_t randomBlocksReserved(ir::OpKind kind, std::span<const Tensor> operands, const Tensor &output);

}  // namespace tfs::runtime::kernels
