// `_random`: the Mersenne Twister core under `random` (random.tfs), as
// CPython's _randommodule.c draws it, so that a seeded script prints the
// numbers CPython prints: seed(int) runs init_by_array over the 32-bit words
// of abs(seed) (low word first, at any size), random() builds a double from two words
// (a>>5, b>>6), seed(float) keys on the unsigned hash, getrandbits(k) fills 32-bit words low first and drops the
// surplus high bits of the last one, and _randbelow(n) rejects
// getrandbits(n.bit_length()) draws until one is below n. The state tuple is
// CPython's (624 words and the position).
#include "lib/mt19937.h"
#include "lib/python/python_modules.h"
#include "runtime/interp/big_int.h"
#include "runtime/interp/interpreter.h"
#include "runtime/interp/signature.h"

#include <array>
#include <bit>
#include <chrono>
#include <cmath>
#include <cstring>
#include <fmt/format.h>
#include <openssl/sha.h>
#include <random>
#include <span>

namespace tfs::runtime {

namespace {

// CPython's generator: the shared MT19937 core (lib/mt19937.h) and the ways
// CPython draws from it.
class MersenneTwister {
public:
  static constexpr int N = lib::Mt19937::kWords;

  void initGenrand(uint32_t s) { core_.seed(s); }
  void initByArray(const std::vector<uint32_t> &key) { core_.seedByArray(key.data(), int(key.size())); }
  uint32_t next() { return core_.next32(); }
  double nextDouble() {
    uint32_t a = next() >> 5, b = next() >> 6;
    return (a * 67108864.0 + b) * (1.0 / 9007199254740992.0);
  }
  // k in [0, 64]: k random bits, low words first as CPython assembles them.
  uint64_t bits(int k) {
    if (k <= 32) return k == 0 ? 0 : next() >> (32 - k);
    uint64_t low = next();
    return low | uint64_t(next() >> (64 - k)) << 32;
  }
  std::span<uint32_t, N> words() { return std::span<uint32_t, N>(core_.key); }
  int &position() { return core_.pos; }

private:
  lib::Mt19937 core_;
};

struct GeneratorObject final : Object {
  MersenneTwister mt;
  const char *typeName() const override { return "_random.Random"; }
};

MersenneTwister &generatorOf(Interpreter &in, const Value &v) {
  auto *g = v.as<GeneratorObject>();
  if (!g) in.raise("TypeError", fmt::format("expected a _random.Random state, got {}", in.typeName(v)));
  return g->mt;
}

// CPython's hash() of a float (Python/pyhash.c): x reduced modulo the
// Mersenne prime 2**61 - 1, signed as x; -1 becomes -2. seed(float) hashes.
int64_t cpythonFloatHash(double x) {
  constexpr uint64_t P = (uint64_t(1) << 61) - 1;
  if (std::isinf(x)) return x > 0 ? 314159 : -314159;
  if (std::isnan(x)) return 0;
  int e;
  double m = std::frexp(x, &e);
  int sign = 1;
  if (m < 0) sign = -1, m = -m;
  uint64_t h = 0;
  while (m) {
    h = ((h << 28) & P) | h >> (61 - 28);
    m *= 268435456.0;
    e -= 28;
    uint64_t y = uint64_t(m);
    m -= double(y);
    h += y;
    if (h >= P) h -= P;
  }
  e = e >= 0 ? e % 61 : 61 - 1 - ((-1 - e) % 61);
  h = ((h << e) & P) | h >> (61 - e);
  int64_t r = int64_t(h) * sign;
  return r == -1 ? -2 : r;
}

// seed(str | bytes), version 2: CPython keys on the integer whose big-endian
// bytes are data + sha512(data), its 32-bit words low first.
void seedFromBytes(MersenneTwister &mt, const std::string &data) {
  std::string all = data;
  unsigned char digest[SHA512_DIGEST_LENGTH];
  SHA512(reinterpret_cast<const unsigned char *>(data.data()), data.size(), digest);
  all.append(reinterpret_cast<const char *>(digest), sizeof digest);
  std::vector<uint32_t> key;
  for (size_t end = all.size(); end > 0; end = end >= 4 ? end - 4 : 0) {
    uint32_t w = 0;
    for (size_t i = end >= 4 ? end - 4 : 0; i < end; ++i) w = (w << 8) | static_cast<unsigned char>(all[i]);
    key.push_back(w);
  }
  while (key.size() > 1 && key.back() == 0) key.pop_back();  // the integer's words, no leading zeros
  mt.initByArray(key);
}

void seedFrom(Interpreter &in, MersenneTwister &mt, const Value &a) {
  uint64_t n;
  if (a.isNone()) {
    std::random_device rd;
    std::vector<uint32_t> key(4);
    for (auto &w : key) w = rd();
    key[0] ^= uint32_t(std::chrono::steady_clock::now().time_since_epoch().count());
    mt.initByArray(key);
    return;
  }
  if (a.isInt() || a.isBool()) {
    int64_t v = a.asInt();
    n = v < 0 ? uint64_t(0) - uint64_t(v) : uint64_t(v);
  } else if (a.as<BigIntObject>()) {
    // init_by_array over the 32-bit words of abs(a), low word first.
    mpz_class z = abs(toMpz(a));
    std::vector<uint32_t> key((mpz_sizeinbase(z.get_mpz_t(), 2) + 31) / 32);
    size_t count = 0;
    mpz_export(key.data(), &count, -1, sizeof(uint32_t), 0, 0, z.get_mpz_t());
    key.resize(count);
    mt.initByArray(key);
    return;
  } else if (a.isFloat()) {
    n = uint64_t(cpythonFloatHash(a.asFloat()));  // (size_t)hash, as CPython: no abs()
  } else if (auto *b = a.as<BytesObject>()) {
    seedFromBytes(mt, b->s);
    return;
  } else if (auto *s = a.as<StrObject>()) {
    seedFromBytes(mt, s->s);  // str seeds by its UTF-8 bytes (seed version 2)
    return;
  } else {
    in.raise("NotImplementedError", fmt::format("random.seed() of a {} is not supported by tfs", in.typeName(a)));
  }
  std::vector<uint32_t> key{uint32_t(n)};
  if (n >> 32) key.push_back(uint32_t(n >> 32));
  mt.initByArray(key);
}

// getrandbits(k), k >= 0, as CPython's: 32-bit words low first, the last
// one's surplus high bits dropped.
Value randomBits(Interpreter &in, MersenneTwister &mt, int64_t k) {
  if (k < 64) return Value::integer(int64_t(mt.bits(int(k))));
  checkIntResultBits(in, double(k));
  std::vector<uint32_t> words(size_t((k - 1) / 32 + 1));
  int64_t left = k;
  for (auto &w : words) {
    w = mt.next();
    if (left < 32) w >>= 32 - left;
    left -= 32;
  }
  mpz_class z;
  mpz_import(z.get_mpz_t(), words.size(), -1, sizeof(uint32_t), 0, 0, words.data());
  return intValue(z);
}

Value makeRandomCore(Interpreter &in) {
  auto m = make<ModuleObject>("_random");
  auto &vars = m->scope->vars;
  vars["new_generator"] = nativeWithSignature(in, "new_generator()", [](Interpreter &, const Bound &) {
    return Value(make<GeneratorObject>());
  });
  vars["seed"] = nativeWithSignature(in, "seed(state, a)", [](Interpreter &in, const Bound &b) {
    seedFrom(in, generatorOf(in, b["state"]), b["a"]);
    return Value();
  });
  vars["random"] = nativeWithSignature(in, "random(state)", [](Interpreter &in, const Bound &b) {
    return Value::real(generatorOf(in, b["state"]).nextDouble());
  });
  vars["getrandbits"] = nativeWithSignature(in, "getrandbits(state, k)", [](Interpreter &in, const Bound &b) {
    auto &mt = generatorOf(in, b["state"]);
    int64_t k = in.toIndex(b["k"]);
    if (k < 0) in.raise("ValueError", "number of bits must be non-negative");
    return randomBits(in, mt, k);
  });
  // A uniform int in [0, n), n > 0.
  vars["randbelow"] = nativeWithSignature(in, "randbelow(state, n)", [](Interpreter &in, const Bound &b) {
    auto &mt = generatorOf(in, b["state"]);
    if (b["n"].as<BigIntObject>()) {
      // getrandbits(n.bit_length()) until a draw is below n.
      mpz_class n = toMpz(b["n"]);
      int64_t k = int64_t(mpz_sizeinbase(n.get_mpz_t(), 2));
      for (;;) {
        Value r = randomBits(in, mt, k);
        if (toMpz(r) < n) return r;
      }
    }
    int64_t n = in.toIndex(b["n"]);
    if (n <= 0) return Value::integer(0);
    int k = 64 - std::countl_zero(uint64_t(n));
    uint64_t r = mt.bits(k);
    while (r >= uint64_t(n)) r = mt.bits(k);
    return Value::integer(int64_t(r));
  });
  vars["getstate"] = nativeWithSignature(in, "getstate(state)", [](Interpreter &in, const Bound &b) {
    auto &mt = generatorOf(in, b["state"]);
    std::vector<Value> items;
    for (uint32_t w : mt.words()) items.push_back(Value::integer(w));
    items.push_back(Value::integer(mt.position()));
    return in.tuple(std::move(items));
  });
  vars["setstate"] = nativeWithSignature(in, "setstate(state, words)", [](Interpreter &in, const Bound &b) {
    auto &mt = generatorOf(in, b["state"]);
    auto *t = b["words"].as<TupleObject>();
    if (!t) in.raise("TypeError", "state vector must be a tuple");
    if (t->items.size() != MersenneTwister::N + 1) in.raise("ValueError", "state vector is the wrong size");
    for (int i = 0; i < MersenneTwister::N; ++i) {
      int64_t w = in.toInt(t->items[size_t(i)]);
      if (w < 0 || w > 0xffffffffLL) in.raise("OverflowError", "Python int too large to convert to C unsigned long");
      mt.words()[size_t(i)] = uint32_t(w);
    }
    int64_t pos = in.toInt(t->items.back());
    if (pos < 0 || pos > MersenneTwister::N) in.raise("ValueError", "invalid state");
    mt.position() = int(pos);
    return Value();
  });
  return Value(m);
}

}  // namespace

void registerRandomCoreModule() { Interpreter::registerNativeModule("_random", makeRandomCore); }

}  // namespace tfs::runtime
