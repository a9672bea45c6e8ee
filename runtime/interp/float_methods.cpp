// See float_methods.h.
#include "runtime/interp/float_methods.h"

#include "runtime/interp/signature.h"

#include <cctype>
#include <cerrno>
#include <cfloat>
#include <cmath>
#include <cstdlib>
#include <fmt/format.h>

namespace tfs::runtime {

std::string floatHex(double x) {
  if (std::isnan(x)) return "nan";
  if (std::isinf(x)) return x < 0 ? "-inf" : "inf";
  if (x == 0.0) return std::signbit(x) ? "-0x0.0p+0" : "0x0.0p+0";
  // The leading digit is 1 for normal numbers; subnormals keep the minimum
  // exponent (-1022) with a leading 0, as CPython prints them.
  int e;
  double m = std::frexp(std::fabs(x), &e);
  int shift = 1 - std::max(DBL_MIN_EXP - e, 0);
  m = std::ldexp(m, shift);
  e -= shift;
  const char *digits = "0123456789abcdef";
  std::string out = x < 0 ? "-0x" : "0x";
  out += digits[int(m)];
  m -= int(m);
  out += '.';
  for (int i = 0; i < (DBL_MANT_DIG - 1) / 4; ++i) {
    m *= 16.0;
    out += digits[int(m)];
    m -= int(m);
  }
  return out + fmt::format("p{}{}", e < 0 ? '-' : '+', std::abs(e));
}

Value floatAsIntegerRatio(Interpreter &in, double x) {
  if (std::isinf(x)) in.raise("OverflowError", "cannot convert Infinity to integer ratio");
  if (std::isnan(x)) in.raise("ValueError", "cannot convert NaN to integer ratio");
  int e;
  double m = std::frexp(x, &e);
  // Scale the mantissa to an integer (at most 53 doublings).
  for (int i = 0; i < 300 && m != std::floor(m); ++i) {
    m *= 2.0;
    --e;
  }
  Value numerator = Value::integer(int64_t(m)), denominator = Value::integer(1);
  if (e > 0) numerator = in.binary(BinOp::LShift, numerator, Value::integer(e));
  else denominator = in.binary(BinOp::LShift, denominator, Value::integer(-e));
  return in.tuple({numerator, denominator});
}

Value floatFromHex(Interpreter &in, Args a, const Kwargs &kw) {
  static const Signature sig("fromhex(string, /)");
  Bound b = sig.bind(in, a, kw);
  auto *text = b[0].as<StrObject>();
  if (!text) in.raise("TypeError", fmt::format("must be str, not {}", in.typeName(b[0])));
  const std::string &s = text->s;
  auto invalid = [&]() -> Value { in.raise("ValueError", "invalid hexadecimal floating-point string"); };
  size_t i = 0, j = s.size();
  while (i < j && std::isspace(static_cast<unsigned char>(s[i]))) ++i;
  while (j > i && std::isspace(static_cast<unsigned char>(s[j - 1]))) --j;
  std::string body = s.substr(i, j - i), sign;
  if (!body.empty() && (body[0] == '+' || body[0] == '-')) {
    sign = body.substr(0, 1);
    body = body.substr(1);
  }
  std::string lower;
  for (char c : body) lower += char(std::tolower(static_cast<unsigned char>(c)));
  if (lower == "inf" || lower == "infinity") return Value::real(sign == "-" ? -HUGE_VAL : HUGE_VAL);
  if (lower == "nan") return Value::real(sign == "-" ? -std::nan("") : std::nan(""));
  // The digits, an optional point and an optional binary exponent; strtod
  // rounds them correctly once they carry the 0x it requires.
  size_t k = lower.rfind("0x", 0) == 0 ? 2 : 0;
  bool anyDigit = false;
  for (size_t p = k; p < lower.size() && lower[p] != 'p'; ++p) {
    if (std::isxdigit(static_cast<unsigned char>(lower[p]))) anyDigit = true;
    else if (lower[p] != '.') return invalid();
  }
  if (!anyDigit || lower.find('.') != lower.rfind('.')) return invalid();
  std::string literal = sign + "0x" + lower.substr(k);
  errno = 0;
  char *end = nullptr;
  double value = std::strtod(literal.c_str(), &end);
  if (end != literal.c_str() + literal.size()) return invalid();
  if (std::isinf(value)) in.raise("OverflowError", "hexadecimal value too large to represent as a float");
  return Value::real(value);
}

}  // namespace tfs::runtime
