// Python ints past 64 bits (big_int.h): GMP's integers under CPython 3.11's
// rules for arithmetic, conversion to float, hashing and decimal text.
#include "runtime/interp/big_int.h"

#include "runtime/interp/int_literal.h"
#include "runtime/interp/number_order.h"
#include "runtime/interp/py_hash.h"
#include "runtime/interp/pyformat.h"
#include "runtime/interp/unicode_digits.h"
#include "runtime/tensor/allocator.h"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>

namespace tfs::runtime {

namespace {

// CPython's sys.int_info.default_max_str_digits: int <-> decimal text past
// this many digits is a ValueError (the quadratic-time conversion guard).
constexpr size_t kMaxStrDigits = 4300;

// The most bits a result may have. Past it: MemoryError, as CPython gives
// when an int outgrows memory (GMP itself aborts the process near 2**37
// bits, so the check comes first).
double maxResultBits() {
  double cap = 0x1p36;
  if (int64_t limit = memoryLimit(); limit > 0) cap = std::min(cap, double(limit) * 8);
  return cap;
}

size_t bitLength(const mpz_class &z) { return z == 0 ? 0 : mpz_sizeinbase(z.get_mpz_t(), 2); }

// (q + f) * 2**exp2 rounded to the nearest double, ties to even, where q > 0
// and 0 <= f < 1 is known only as zero (!sticky) or not. The caller gives q
// at least 55 significant bits when sticky, so the rounding bit and the
// bits below it are all in q or in f. Infinity when too large.
double roundScaled(const mpz_class &q, bool sticky, long exp2) {
  long top = long(mpz_sizeinbase(q.get_mpz_t(), 2)) - 1 + exp2;  // the leading bit's exponent
  long lsb = std::max(top - 52, -1074L);                           // the last bit a double keeps
  long drop = lsb - exp2;
  if (drop <= 0) return std::ldexp(q.get_d(), int(exp2));  // q has at most 53 bits: exact
  mpz_class kept;
  mpz_fdiv_q_2exp(kept.get_mpz_t(), q.get_mpz_t(), (mp_bitcnt_t)drop);
  bool half = mpz_tstbit(q.get_mpz_t(), (mp_bitcnt_t)drop - 1);
  bool below = sticky || long(mpz_scan1(q.get_mpz_t(), 0)) < drop - 1;
  if (half && (below || mpz_odd_p(kept.get_mpz_t()))) kept += 1;
  return std::ldexp(kept.get_d(), int(lsb));  // kept <= 2**53: exact
}

[[noreturn]] void raiseDigitLimit(Interpreter &in, size_t digits) {
  if (digits == 0)
    in.raise("ValueError", fmt::format("Exceeds the limit ({} digits) for integer string conversion; "
                                       "use sys.set_int_max_str_digits() to increase the limit", kMaxStrDigits));
  in.raise("ValueError", fmt::format("Exceeds the limit ({} digits) for integer string conversion: value has {} "
                                     "digits; use sys.set_int_max_str_digits() to increase the limit",
                                     kMaxStrDigits, digits));
}

// The shift count of << and >>: a count past 64 bits is answered by the
// caller (0 / -1 for >>, too many digits for <<).
bool shiftCount(const mpz_class &y, uint64_t &out) {
  if (!mpz_fits_ulong_p(y.get_mpz_t())) return false;
  out = mpz_get_ui(y.get_mpz_t());
  return true;
}

}  // namespace

void checkIntResultBits(Interpreter &in, double bits) {
  if (bits > maxResultBits()) in.raise("MemoryError", "");
}

double mpzFrexp(const mpz_class &z, long &e) {
  e = long(mpz_sizeinbase(z.get_mpz_t(), 2));
  double m = roundScaled(z, false, -e);
  if (m == 1.0) {  // rounded up to the next power of two
    m = 0.5;
    ++e;
  }
  return m;
}

Value intValue(const mpz_class &z) {
  if (mpz_fits_slong_p(z.get_mpz_t())) return Value::integer(mpz_get_si(z.get_mpz_t()));
  return Value(make<BigIntObject>(z));
}

mpz_class toMpz(const Value &v) {
  if (auto *b = v.as<BigIntObject>()) return b->v;
  return mpz_class(long(v.asInt()));
}

double mpzToDouble(Interpreter &in, const mpz_class &z) {
  if (z == 0) return 0.0;
  mpz_class m = abs(z);
  double d = roundScaled(m, false, 0);
  if (std::isinf(d)) in.raise("OverflowError", "int too large to convert to float");
  return z < 0 ? -d : d;
}

Value intFromDouble(double d) {
  if (d > -0x1p63 && d < 0x1p63) return Value::integer(int64_t(d));
  return intValue(mpz_class(std::trunc(d)));
}

double intTrueDivide(Interpreter &in, const Value &a, const Value &b) {
  mpz_class x = toMpz(a), y = toMpz(b);
  if (y == 0) in.raise("ZeroDivisionError", "division by zero");
  bool negative = (x < 0) != (y < 0);
  if (x == 0) return negative ? -0.0 : 0.0;
  x = abs(x);
  y = abs(y);
  long nx = long(bitLength(x)), ny = long(bitLength(y));
  if (nx <= 53 && ny <= 53) {  // both exact as doubles: one IEEE division rounds correctly
    double q = x.get_d() / y.get_d();
    return negative ? -q : q;
  }
  if (nx - ny > 1025) in.raise("OverflowError", "integer division result too large for a float");
  if (nx - ny < -1080) return negative ? -0.0 : 0.0;  // below half the least subnormal
  // q = floor(x * 2**s / y) with at least 55 bits; the remainder is the sticky bit.
  long s = ny - nx + 56;
  if (s >= 0) mpz_mul_2exp(x.get_mpz_t(), x.get_mpz_t(), (mp_bitcnt_t)s);
  else mpz_mul_2exp(y.get_mpz_t(), y.get_mpz_t(), (mp_bitcnt_t)-s);
  mpz_class q, r;
  mpz_tdiv_qr(q.get_mpz_t(), r.get_mpz_t(), x.get_mpz_t(), y.get_mpz_t());
  double d = roundScaled(q, r != 0, -s);
  if (std::isinf(d)) in.raise("OverflowError", "integer division result too large for a float");
  return negative ? -d : d;
}

Value intBinary(Interpreter &in, BinOp op, const Value &a, const Value &b) {
  if (op == BinOp::Div) return Value::real(intTrueDivide(in, a, b));
  mpz_class x = toMpz(a), y = toMpz(b), r;
  switch (op) {
  case BinOp::Add: r = x + y; break;
  case BinOp::Sub: r = x - y; break;
  case BinOp::Mul:
    checkIntResultBits(in, double(bitLength(x)) + double(bitLength(y)));
    r = x * y;
    break;
  case BinOp::FloorDiv:
    if (y == 0) in.raise("ZeroDivisionError", "integer division or modulo by zero");
    mpz_fdiv_q(r.get_mpz_t(), x.get_mpz_t(), y.get_mpz_t());
    break;
  case BinOp::Mod:
    if (y == 0) in.raise("ZeroDivisionError", "integer modulo by zero");
    mpz_fdiv_r(r.get_mpz_t(), x.get_mpz_t(), y.get_mpz_t());
    break;
  case BinOp::Pow: {
    if (y < 0) {  // a float, as CPython: float(x) ** float(y)
      double fx = mpzToDouble(in, x), fy = mpzToDouble(in, y);
      return in.binary(BinOp::Pow, Value::real(fx), Value::real(fy));
    }
    if (x == 0 || x == 1) return intValue(y == 0 ? mpz_class(1) : x);
    if (x == -1) return Value::integer(mpz_odd_p(y.get_mpz_t()) ? -1 : 1);
    uint64_t e;
    if (!shiftCount(y, e)) in.raise("MemoryError", "");
    checkIntResultBits(in, double(bitLength(x) - 1) * double(e));
    mpz_pow_ui(r.get_mpz_t(), x.get_mpz_t(), e);
    break;
  }
  case BinOp::LShift: {
    if (y < 0) in.raise("ValueError", "negative shift count");
    if (x == 0) return Value::integer(0);
    uint64_t n;
    if (!shiftCount(y, n) || n > (uint64_t(1) << 62)) in.raise("OverflowError", "too many digits in integer");
    checkIntResultBits(in, double(bitLength(x)) + double(n));
    mpz_mul_2exp(r.get_mpz_t(), x.get_mpz_t(), n);
    break;
  }
  case BinOp::RShift: {
    if (y < 0) in.raise("ValueError", "negative shift count");
    uint64_t n;
    if (!shiftCount(y, n)) return Value::integer(x < 0 ? -1 : 0);
    mpz_fdiv_q_2exp(r.get_mpz_t(), x.get_mpz_t(), n);
    break;
  }
  // GMP's bitwise functions work on the infinite two's-complement form, as Python's.
  case BinOp::And: mpz_and(r.get_mpz_t(), x.get_mpz_t(), y.get_mpz_t()); break;
  case BinOp::Or: mpz_ior(r.get_mpz_t(), x.get_mpz_t(), y.get_mpz_t()); break;
  case BinOp::Xor: mpz_xor(r.get_mpz_t(), x.get_mpz_t(), y.get_mpz_t()); break;
  case BinOp::Div:
  case BinOp::MatMul:
    in.raise("TypeError", fmt::format("unsupported operand type(s) for {}: 'int' and 'int'", op == BinOp::Div ? "/" : "@"));
  }
  return intValue(r);
}

Value intPowMod(Interpreter &in, const Value &base, const Value &exp, const Value &mod) {
  mpz_class b = toMpz(base), e = toMpz(exp), m = toMpz(mod);
  if (m == 0) in.raise("ValueError", "pow() 3rd argument cannot be 0");
  mpz_class am = abs(m), r;
  if (e < 0) {
    if (am == 1 || mpz_invert(b.get_mpz_t(), b.get_mpz_t(), am.get_mpz_t()) == 0) {
      if (am != 1) in.raise("ValueError", "base is not invertible for the given modulus");
      return Value::integer(0);
    }
    e = -e;
  }
  if (am == 1) return Value::integer(0);
  mpz_powm(r.get_mpz_t(), b.get_mpz_t(), e.get_mpz_t(), am.get_mpz_t());
  if (m < 0 && r != 0) r += m;  // the result takes the modulus's sign
  return intValue(r);
}

int64_t mpzHash(const mpz_class &z) {
  constexpr unsigned long kModulus = (1UL << 61) - 1;
  auto h = int64_t(mpz_tdiv_ui(z.get_mpz_t(), kModulus));  // |z| mod P
  return pyHashFix(z < 0 ? -h : h);
}

std::string intMagnitudeDigits(Interpreter &in, const Value &v, int base, bool &negative) {
  if (!v.as<BigIntObject>()) {
    int64_t x = v.asInt();
    negative = x < 0;
    uint64_t ax = negative ? uint64_t(0) - uint64_t(x) : uint64_t(x);
    switch (base) {
    case 2: return fmt::format("{:b}", ax);
    case 8: return fmt::format("{:o}", ax);
    case 16: return fmt::format("{:x}", ax);
    default: return std::to_string(ax);
    }
  }
  const mpz_class &z = v.as<BigIntObject>()->v;
  negative = z < 0;
  mpz_class m = abs(z);
  // The exact digit count is the estimate or one less.
  if (base == 10 && mpz_sizeinbase(m.get_mpz_t(), 10) > kMaxStrDigits + 1) raiseDigitLimit(in, 0);
  std::string s = m.get_str(base);
  if (base == 10 && s.size() > kMaxStrDigits) raiseDigitLimit(in, 0);
  return s;
}

std::string intDecimal(Interpreter &in, const Value &v) {
  if (!v.as<BigIntObject>()) return std::to_string(v.asInt());
  bool negative;
  std::string digits = intMagnitudeDigits(in, v, 10, negative);
  return negative ? "-" + digits : digits;
}

Value bigFromLiteral(Interpreter &in, const IntLiteral &lit) {
  bool powerOfTwo = (lit.base & (lit.base - 1)) == 0;
  if (!powerOfTwo && lit.digits.size() > kMaxStrDigits) raiseDigitLimit(in, lit.digits.size());
  mpz_class z;
  mpz_set_str(z.get_mpz_t(), lit.digits.c_str(), lit.base);
  return intValue(lit.negative ? mpz_class(-z) : z);
}

Value bigFromSourceLiteral(Interpreter &in, const std::string &text) {
  IntLiteral lit = parseIntLiteral(text, 0);  // base 0: the literal's own prefix
  if (lit.status == IntLiteral::Status::Overflow) return bigFromLiteral(in, lit);
  return Value::integer(lit.value);
}

Value intOf(Interpreter &in, const Value &x) {
  if (x.isInt() || x.isBool()) return Value::integer(x.asInt());
  if (x.as<BigIntObject>()) return x;
  if (x.isFloat()) {
    double d = x.asFloat();
    if (std::isnan(d)) in.raise("ValueError", "cannot convert float NaN to integer");
    if (std::isinf(d)) in.raise("OverflowError", "cannot convert float infinity to integer");
    return intFromDouble(d);
  }
  if (auto *s = x.as<StrObject>()) {
    IntLiteral lit = parseIntLiteral(asciiNumberText(s->s), 10);
    if (lit.status == IntLiteral::Status::Overflow) return bigFromLiteral(in, lit);
  }
  if (auto *inst = x.as<InstanceObject>()) {
    for (const char *name : {"__int__", "__index__"})
      if (auto m = inst->klass->lookup(name)) {
        Value r = in.call(Value(make<BoundMethod>(x, *m)), {});
        if (!isIntValue(r)) in.raise("TypeError", fmt::format("{} returned non-int (type {})", name, in.typeName(r)));
        return intOf(in, r);
      }
  }
  return Value::integer(in.toInt(x));
}

// --- the object's protocol hooks ---------------------------------------------

std::optional<Value> BigIntObject::binary(Interpreter &in, BinOp op, const Value &other, bool reflected) {
  Value self(Ref<Object>(this));
  if (isIntValue(other)) return reflected ? intBinary(in, op, other, self) : intBinary(in, op, self, other);
  if (other.isFloat()) {  // the int becomes a float first, as CPython's float operators do
    Value x = Value::real(mpzToDouble(in, v));
    return reflected ? in.binary(op, other, x) : in.binary(op, x, other);
  }
  return std::nullopt;
}

std::optional<Value> BigIntObject::compare(Interpreter &, CmpOp op, const Value &other) {
  int order;
  if (isIntValue(other)) {
    order = cmp(v, toMpz(other));
  } else if (other.isFloat()) {
    double d = other.asFloat();
    if (std::isnan(d)) return Value::boolean(op == CmpOp::Ne);
    if (std::isinf(d)) order = d > 0 ? -1 : 1;
    else order = mpz_cmp_d(v.get_mpz_t(), d);  // exact: GMP compares with the double's own value
  } else {
    return std::nullopt;
  }
  return Value::boolean(orderSatisfies(op, order < 0 ? -1 : order > 0 ? 1 : 0));
}

std::optional<Value> BigIntObject::unary(Interpreter &, UnaryOp op) {
  switch (op) {
  case UnaryOp::Neg: return intValue(-v);
  case UnaryOp::Pos: return Value(Ref<Object>(this));
  case UnaryOp::Invert: return intValue(-v - 1);
  }
  return std::nullopt;
}

std::optional<std::string> BigIntObject::repr(Interpreter &in) { return intDecimal(in, Value(Ref<Object>(this))); }

std::optional<std::string> BigIntObject::format(Interpreter &in, const std::string &spec) {
  Value self(Ref<Object>(this));
  if (spec.empty()) return intDecimal(in, self);
  return formatWithSpec(in, self, spec);
}

std::optional<int64_t> BigIntObject::toInt(Interpreter &in) {
  in.raise("OverflowError", "Python int too large to convert to C long");
}

std::optional<double> BigIntObject::toFloat(Interpreter &in) { return mpzToDouble(in, v); }

std::optional<int64_t> BigIntObject::hash(Interpreter &) { return mpzHash(v); }

}  // namespace tfs::runtime
