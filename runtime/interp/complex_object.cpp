// Python's complex type: arithmetic, comparison, hash, repr and the
// constructor, each as CPython 3.11's complexobject.c computes it (the same
// division and power algorithms, so results agree to the last bit).
#include "runtime/interp/complex_object.h"

#include "runtime/interp/big_int.h"
#include "runtime/interp/py_hash.h"
#include "runtime/interp/pyformat.h"
#include "runtime/tensor/format.h"

#include <cmath>
#include <cstring>
#include <fmt/format.h>

namespace tfs::runtime {

using C = std::complex<double>;

Value complexValue(double re, double im) { return Value(make<ComplexObject>(re, im)); }

std::optional<C> complexOperand(Interpreter &in, const Value &v) {
  if (auto *c = v.as<ComplexObject>()) return C(c->re, c->im);
  if (v.isFloat()) return C(v.asFloat(), 0.0);
  if (v.isInt() || v.isBool()) return C(double(v.asInt()), 0.0);
  if (v.as<BigIntObject>()) return C(in.toFloat(v), 0.0);  // OverflowError past a double, as CPython
  return std::nullopt;
}

std::string complexRepr(double re, double im) {
  // PyOS_double_to_string(x, 'r', 0, flags): the shortest repr, without the
  // ".0" that float's repr adds; the imaginary part signed (+nan, +inf).
  auto part = [](double v) {
    std::string s = pythonFloatRepr(v);
    if (s.size() > 2 && s.compare(s.size() - 2, 2, ".0") == 0) s.resize(s.size() - 2);
    return s;
  };
  std::string i = part(im);
  if (re == 0 && !std::signbit(re)) return i + "j";
  if (i[0] != '-') i = "+" + i;
  return "(" + part(re) + i + "j)";
}

int64_t complexHash(double re, double im) {
  uint64_t h = uint64_t(pyHashFloat(re)) + 1000003u * uint64_t(pyHashFloat(im));
  return pyHashFix(int64_t(h));
}

namespace {

C product(C a, C b) {
  return C(a.real() * b.real() - a.imag() * b.imag(), a.real() * b.imag() + a.imag() * b.real());
}

// _Py_c_quot: Smith's method, scaling by the larger part of the divisor.
// `zero` is set for a zero divisor (CPython's errno EDOM).
C quotient(C a, C b, bool &zero) {
  double absBr = std::fabs(b.real()), absBi = std::fabs(b.imag());
  if (absBr >= absBi) {
    if (absBr == 0.0) {
      zero = true;
      return C(0.0, 0.0);
    }
    double ratio = b.imag() / b.real(), denom = b.real() + b.imag() * ratio;
    return C((a.real() + a.imag() * ratio) / denom, (a.imag() - a.real() * ratio) / denom);
  }
  if (absBi >= absBr) {
    double ratio = b.real() / b.imag(), denom = b.real() * ratio + b.imag();
    return C((a.real() * ratio + a.imag()) / denom, (a.imag() * ratio - a.real()) / denom);
  }
  return C(NAN, NAN);  // a NaN part in the divisor
}

// c_powu: binary powering by repeated products (exact for small powers).
C powUnsigned(C x, long n) {
  C r(1.0, 0.0), p = x;
  for (long mask = 1; mask > 0 && n >= mask; mask <<= 1) {
    if (n & mask) r = product(r, p);
    p = product(p, p);
  }
  return r;
}

// _Py_c_pow: polar form. `zero` is CPython's EDOM (0 to a negative or
// complex power).
C powGeneral(C a, C b, bool &zero) {
  if (b.real() == 0.0 && b.imag() == 0.0) return C(1.0, 0.0);
  if (a.real() == 0.0 && a.imag() == 0.0) {
    if (b.imag() != 0.0 || b.real() < 0.0) zero = true;
    return C(0.0, 0.0);
  }
  double vabs = std::hypot(a.real(), a.imag()), len = std::pow(vabs, b.real());
  double at = std::atan2(a.imag(), a.real()), phase = at * b.real();
  if (b.imag() != 0.0) {
    len /= std::exp(at * b.imag());
    phase += b.imag() * std::log(vabs);
  }
  return C(len * std::cos(phase), len * std::sin(phase));
}

}  // namespace

C complexArith(Interpreter &in, BinOp op, C a, C b) {
  switch (op) {
  case BinOp::Add: return C(a.real() + b.real(), a.imag() + b.imag());
  case BinOp::Sub: return C(a.real() - b.real(), a.imag() - b.imag());
  case BinOp::Mul: return product(a, b);
  case BinOp::Div: {
    bool zero = false;
    C q = quotient(a, b, zero);
    if (zero) in.raise("ZeroDivisionError", "complex division by zero");
    return q;
  }
  case BinOp::Pow: {
    bool zero = false;
    C p;
    // Integral exponents up to 100 by repeated multiplication (complex_pow).
    if (b.imag() == 0.0 && b.real() == std::floor(b.real()) && std::fabs(b.real()) <= 100.0) {
      long n = long(b.real());
      p = n > 0 ? powUnsigned(a, n) : quotient(C(1.0, 0.0), powUnsigned(a, -n), zero);
    } else {
      p = powGeneral(a, b, zero);
    }
    if (zero) in.raise("ZeroDivisionError", "0.0 to a negative or complex power");
    if (std::isinf(p.real()) || std::isinf(p.imag())) in.raise("OverflowError", "complex exponentiation");
    return p;
  }
  default: break;
  }
  in.raise("TypeError", "unsupported complex operation");
}

std::optional<Value> ComplexObject::binary(Interpreter &in, BinOp op, const Value &other, bool reflected) {
  if (op != BinOp::Add && op != BinOp::Sub && op != BinOp::Mul && op != BinOp::Div && op != BinOp::Pow)
    return std::nullopt;
  std::optional<C> o = complexOperand(in, other);
  if (!o) return std::nullopt;
  C self(re, im);
  C r = reflected ? complexArith(in, op, *o, self) : complexArith(in, op, self, *o);
  return complexValue(r.real(), r.imag());
}

std::optional<Value> ComplexObject::compare(Interpreter &in, CmpOp op, const Value &other) {
  if (op != CmpOp::Eq && op != CmpOp::Ne) return std::nullopt;  // complexes are unordered: TypeError
  bool equal;
  if (auto *c = other.as<ComplexObject>()) equal = re == c->re && im == c->im;
  else if (other.isFloat()) equal = im == 0 && re == other.asFloat();
  else if (isIntValue(other)) equal = im == 0 && in.equals(Value::real(re), other);  // exact int/float comparison
  else return std::nullopt;
  return Value::boolean(op == CmpOp::Eq ? equal : !equal);
}

std::optional<Value> ComplexObject::unary(Interpreter &, UnaryOp op) {
  if (op == UnaryOp::Neg) return complexValue(-re, -im);
  if (op == UnaryOp::Pos) return complexValue(re, im);
  return std::nullopt;
}

std::optional<std::string> ComplexObject::repr(Interpreter &) { return complexRepr(re, im); }

std::optional<int64_t> ComplexObject::hash(Interpreter &) { return complexHash(re, im); }

std::optional<Value> ComplexObject::getAttr(Interpreter &in, const std::string &name) {
  if (name == "real") return Value::real(re);
  if (name == "imag") return Value::real(im);
  double r = re, i = im;
  if (name == "conjugate")
    return in.native(name, [r, i](Interpreter &in, Args a, const Kwargs &kw) {
      if (!kw.empty()) in.raise("TypeError", "complex.conjugate() takes no keyword arguments");
      if (!a.empty()) in.raise("TypeError", fmt::format("complex.conjugate() takes no arguments ({} given)", a.size()));
      return complexValue(r, -i);
    });
  if (name == "__abs__")
    return in.native(name, [r, i](Interpreter &in, Args, const Kwargs &) {
      // complex_abs: an infinite part wins over a NaN one.
      if (!std::isfinite(r) || !std::isfinite(i)) {
        if (std::isinf(r)) return Value::real(std::fabs(r));
        if (std::isinf(i)) return Value::real(std::fabs(i));
        return Value::real(NAN);
      }
      double h = std::hypot(r, i);
      if (!std::isfinite(h)) in.raise("OverflowError", "absolute value too large");
      return Value::real(h);
    });
  if (name == "__complex__")
    return in.native(name, [r, i](Interpreter &, Args, const Kwargs &) { return complexValue(r, i); });
  return std::nullopt;
}

// --- format() ------------------------------------------------------------------

std::optional<std::string> ComplexObject::format(Interpreter &in, const std::string &spec) {
  if (spec.empty()) return complexRepr(re, im);
  // [[fill]align][sign][width][.precision][type], as complex.__format__
  // reads it ('=' alignment, zero padding and ',' grouping are errors there).
  size_t i = 0;
  std::string fill = " ";
  char align = '>';
  auto isAlign = [](char c) { return c == '<' || c == '>' || c == '^' || c == '='; };
  if (spec.size() >= 2 && isAlign(spec[1])) {
    fill = spec.substr(0, 1);
    align = spec[1];
    i = 2;
  } else if (!spec.empty() && isAlign(spec[0])) {
    align = spec[0];
    i = 1;
  }
  if (align == '=') in.raise("ValueError", "'=' alignment flag is not allowed in complex format specifier");
  std::string sign;
  if (i < spec.size() && (spec[i] == '+' || spec[i] == '-' || spec[i] == ' ')) sign = spec.substr(i++, 1);
  if (i < spec.size() && spec[i] == '0') in.raise("ValueError", "Zero padding is not allowed in complex format specifier");
  size_t width = 0;
  while (i < spec.size() && std::isdigit(static_cast<unsigned char>(spec[i]))) width = width * 10 + size_t(spec[i++] - '0');
  std::string precision;
  if (i < spec.size() && spec[i] == '.') {
    size_t start = i++;
    while (i < spec.size() && std::isdigit(static_cast<unsigned char>(spec[i]))) ++i;
    precision = spec.substr(start, i - start);
  }
  char type = i < spec.size() ? spec[i++] : 0;
  if (i != spec.size()) in.raise("ValueError", "Invalid format specifier");
  if (type && std::string("eEfFgG").find(type) == std::string::npos)
    in.raise("ValueError", fmt::format("Unknown format code '{}' for object of type 'complex'", type));
  std::string body;
  if (!type && precision.empty()) {
    // No type: repr's parts, with the requested sign on the real part.
    body = complexRepr(re, im);
    if (!sign.empty() && sign != "-" && body[0] != '-' && body[0] != '(') body = sign + body;
    else if (!sign.empty() && sign != "-" && body[0] == '(' && body[1] != '-') body = "(" + sign + body.substr(1);
  } else {
    // Both parts as floats with this type ('g' when only a precision is
    // given, then parenthesized and without a +0 real part, as repr).
    std::string t = type ? std::string(1, type) : std::string("g");
    std::string reText = formatWithSpec(in, Value::real(re), sign + precision + t);
    std::string imText = formatWithSpec(in, Value::real(im), "+" + precision + t);
    if (!type) {
      body = re == 0 && !std::signbit(re) ? formatWithSpec(in, Value::real(im), sign + precision + t) + "j"
                                          : "(" + reText + imText + "j)";
    } else {
      body = reText + imText + "j";
    }
  }
  size_t n = body.size();
  if (n >= width) return body;
  size_t padding = width - n;
  auto rep = [&](size_t k) {
    std::string s;
    for (size_t j = 0; j < k; ++j) s += fill;
    return s;
  };
  if (align == '<') return body + rep(padding);
  if (align == '^') return rep(padding / 2) + body + rep(padding - padding / 2);
  return rep(padding) + body;
}

// --- the constructor -----------------------------------------------------------

namespace {

// The float at text[i..] in Python's syntax (digits, '.', exponent;
// inf/infinity/nan), its end in `end`; nullopt when no float starts there
// (PyOS_string_to_double's partial parse).
std::optional<double> floatPrefix(const std::string &s, size_t i, size_t &end) {
  size_t p = i;
  std::string digits;
  if (p < s.size() && (s[p] == '+' || s[p] == '-')) digits += s[p++];
  auto word = [&](const char *w) {
    size_t n = std::strlen(w);
    if (s.size() - p < n) return false;
    for (size_t k = 0; k < n; ++k)
      if (std::tolower(static_cast<unsigned char>(s[p + k])) != w[k]) return false;
    return true;
  };
  if (word("infinity") || word("inf")) {
    end = p + (word("infinity") ? 8 : 3);
    return digits == "-" ? -INFINITY : INFINITY;
  }
  if (word("nan")) {
    end = p + 3;
    return NAN;
  }
  auto isDigit = [&](size_t k) { return k < s.size() && std::isdigit(static_cast<unsigned char>(s[k])); };
  auto run = [&]() {
    size_t start = p;
    while (isDigit(p)) digits += s[p++];
    return p > start;
  };
  bool intPart = run(), fracPart = false;
  if (p < s.size() && s[p] == '.') {
    ++p;
    digits += '.';
    fracPart = run();
  }
  if (!intPart && !fracPart) return std::nullopt;
  if (p < s.size() && (s[p] == 'e' || s[p] == 'E')) {
    size_t save = p;
    std::string saveDigits = digits;
    digits += 'e';
    ++p;
    if (p < s.size() && (s[p] == '+' || s[p] == '-')) digits += s[p++];
    if (!run()) {
      p = save;
      digits = saveDigits;
    }
  }
  end = p;
  return std::strtod(digits.c_str(), nullptr);
}

}  // namespace

std::optional<C> parseComplexText(const std::string &s) {
  auto space = [&](size_t k) { return k < s.size() && std::isspace(static_cast<unsigned char>(s[k])); };
  size_t i = 0;
  while (space(i)) ++i;
  bool bracket = false;
  if (i < s.size() && s[i] == '(') {
    bracket = true;
    ++i;
    while (space(i)) ++i;
  }
  double x = 0, y = 0;
  auto isJ = [&](size_t k) { return k < s.size() && (s[k] == 'j' || s[k] == 'J'); };
  auto isSign = [&](size_t k) { return k < s.size() && (s[k] == '+' || s[k] == '-'); };
  size_t end = 0;
  if (std::optional<double> z = floatPrefix(s, i, end)) {
    i = end;
    if (isSign(i)) {  // <float><signed-float>j or <float><sign>j
      x = *z;
      if (std::optional<double> w = floatPrefix(s, i, end)) {
        y = *w;
        i = end;
      } else {
        y = s[i] == '+' ? 1.0 : -1.0;
        ++i;
      }
      if (!isJ(i)) return std::nullopt;
      ++i;
    } else if (isJ(i)) {
      ++i;
      y = *z;
    } else {
      x = *z;
    }
  } else {  // <sign>j or j
    if (isSign(i)) y = s[i++] == '+' ? 1.0 : -1.0;
    else y = 1.0;
    if (!isJ(i)) return std::nullopt;
    ++i;
  }
  while (space(i)) ++i;
  if (bracket) {
    if (i >= s.size() || s[i] != ')') return std::nullopt;
    ++i;
    while (space(i)) ++i;
  }
  if (i != s.size()) return std::nullopt;
  return C(x, y);
}

Value constructComplex(Interpreter &in, Args a, const Kwargs &kw) {
  if (a.size() > 2) in.raise("TypeError", fmt::format("complex() takes at most 2 arguments ({} given)", a.size() + kw.size()));
  Value r = a.size() > 0 ? a[0] : Value::integer(0), i;
  bool hasImag = a.size() > 1;
  if (hasImag) i = a[1];
  for (const auto &[k, v] : kw) {
    if (k == "real" && a.empty()) r = v;
    else if (k == "imag" && a.size() < 2) i = v, hasImag = true;
    else if (k == "real" || k == "imag")
      in.raise("TypeError", fmt::format("argument for complex() given by name ('{}') and position ({})", k,
                                        k == "real" ? 1 : 2));
    else in.raise("TypeError", fmt::format("'{}' is an invalid keyword argument for complex()", k));
  }
  if (hasImag && i.isNone())
    in.raise("TypeError", "complex() second argument must be a number, not 'NoneType'");
  if (auto *s = r.as<StrObject>()) {
    if (hasImag) in.raise("TypeError", "complex() can't take second arg if first is a string");
    // Underscores only between digits (1_000j), dropped before parsing;
    // anywhere else is _Py_string_to_number_with_underscores' error.
    std::string text = s->s;
    if (text.find('_') != std::string::npos) {
      auto digit = [&](size_t k) { return k < text.size() && std::isdigit(static_cast<unsigned char>(text[k])); };
      std::string kept;
      for (size_t k = 0; k < text.size(); ++k) {
        if (text[k] != '_') { kept += text[k]; continue; }
        if (k == 0 || !digit(k - 1) || !digit(k + 1))
          in.raise("ValueError", fmt::format("could not convert string to complex: {}", in.repr(r)));
      }
      text = kept;
    }
    std::optional<C> z = parseComplexText(text);
    if (!z) in.raise("ValueError", "complex() arg is a malformed string");
    return complexValue(z->real(), z->imag());
  }
  if (i.as<StrObject>()) in.raise("TypeError", "complex() second arg can't be a string");
  // A number, or an object with __complex__ / __float__ / __index__.
  auto parts = [&](const Value &v, const char *which) -> std::optional<C> {
    if (auto z = complexOperand(in, v)) return z;
    if (v.isObj()) {
      std::optional<Value> m;
      if (auto *inst = v.as<InstanceObject>()) {
        if (auto f = inst->klass->lookup("__complex__")) m = Value(make<BoundMethod>(v, *f));
      } else {
        m = v.obj()->getAttr(in, "__complex__");
      }
      if (m) {
        Value z = in.call(*m, {});
        if (auto *c = z.as<ComplexObject>()) return C(c->re, c->im);
        in.raise("TypeError", fmt::format("__complex__ returned non-complex (type {})", in.typeName(z)));
      }
      bool numeric = false;
      if (auto *inst = v.as<InstanceObject>())
        numeric = inst->klass->lookup("__float__") || inst->klass->lookup("__index__");
      else
        numeric = v.obj()->toFloat(in).has_value();
      if (numeric) return C(in.toFloat(v), 0.0);
    }
    in.raise("TypeError", fmt::format("complex() {}, not '{}'", which, in.typeName(v)));
  };
  C cr = *parts(r, "first argument must be a string or a number");
  if (!hasImag) return complexValue(cr.real(), cr.imag());
  std::optional<C> ci = parts(i, "second argument must be a number");
  // complex(a, b) is a + b*1j with complex a and b too.
  bool crComplex = r.as<ComplexObject>() != nullptr, ciComplex = i.as<ComplexObject>() != nullptr;
  double re = cr.real(), im = ci->real();
  if (ciComplex) re -= ci->imag();
  if (crComplex) im += cr.imag();
  return complexValue(re, im);
}

}  // namespace tfs::runtime
