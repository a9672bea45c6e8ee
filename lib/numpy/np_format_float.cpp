// np.format_float_positional / np.format_float_scientific in numpy's
// default unique mode: the shortest digits that read back to the same
// value of the input's own type (float64, float32 or float16), rounded at
// `precision` digits when given (correctly, from the exact binary value, as
// numpy's Dragon4 does), then numpy's trim modes ('k' keeps trailing zeros
// and the point, '.' drops the zeros, '0' keeps one zero after the point,
// '-' drops zeros and point) and sign. unique=False, fractional=False and
// the padding arguments are refused by name.
#include "lib/numpy/numpy_lib.h"

#include <charconv>
#include <cmath>
#include <fmt/format.h>

namespace tfs::runtime::tf::numpy {

namespace {

struct Digits {
  std::string digits;  // without sign, point or exponent; "0" for zero
  int exp = 0;         // scientific exponent of the first digit
};

Digits fromScientific(const std::string &s) {  // "d.ddde±x"
  Digits d;
  size_t e = s.find('e');
  for (size_t i = 0; i < e; ++i)
    if (s[i] != '.') d.digits += s[i];
  d.exp = std::stoi(s.substr(e + 1));
  return d;
}

std::string trimZeros(std::string s) {
  while (s.size() > 1 && s.back() == '0') s.pop_back();
  return s;
}

// The shortest digits of |x| that round-trip in dtype d.
Digits shortest(double x, DType d) {
  char buf[64];
  x = std::fabs(x);
  if (d == DType::Float16) {
    for (int precision = 0; precision < 9; ++precision) {
      auto r = std::to_chars(buf, buf + sizeof buf, x, std::chars_format::scientific, precision);
      if (ir::half(float(std::strtod(std::string(buf, r.ptr).c_str(), nullptr))) == ir::half(float(x))) {
        Digits g = fromScientific(std::string(buf, r.ptr));
        g.digits = trimZeros(g.digits);
        return g;
      }
    }
  }
  auto r = d == DType::Float32 ? std::to_chars(buf, buf + sizeof buf, float(x), std::chars_format::scientific)
                               : std::to_chars(buf, buf + sizeof buf, x, std::chars_format::scientific);
  Digits g = fromScientific(std::string(buf, r.ptr));
  g.digits = trimZeros(g.digits);
  return g;
}

// Did rounding at the cutoff go up? Dragon4 then drops the digits the carry
// turned to zeros (9.99 at one digit is "10.", not "10.0"), while digits
// that were zeros before the cutoff stay (0.1000001 at three is "0.100").
// The rounded text never reads back as x itself (x needed more digits).
bool roundedUp(const std::string &rounded, double x) { return std::strtod(rounded.c_str(), nullptr) > std::fabs(x); }

// Integer and fraction digits with numpy's trim mode applied.
std::string applyTrim(Interpreter &in, const std::string &ip, std::string fp, const std::string &trim) {
  if (trim == "k") return ip + "." + fp;
  while (!fp.empty() && fp.back() == '0') fp.pop_back();
  if (trim == ".") return ip + "." + fp;
  if (trim == "0") return ip + "." + (fp.empty() ? "0" : fp);
  if (trim == "-") return fp.empty() ? ip : ip + "." + fp;
  in.raise("ValueError", "if trim is not 'k', '.', '0' or '-'");
}

struct Input {
  double value;
  DType dtype;
};

Input floatInput(Interpreter &in, const Value &x) {
  Tensor t = asTensor(in, x);
  if (t.numElements() != 1 || ir::isComplex(t.dtype()) || t.dtype() == DType::String)
    in.raise("TypeError", "only floating point scalars are accepted");
  DType d = t.dtype() == DType::Float32 || t.dtype() == DType::Float16 ? t.dtype() : DType::Float64;
  return {t.elementAsDouble(0), d};
}

std::optional<std::string> nonFinite(double v, bool sign) {
  if (std::isnan(v)) return std::string("nan");
  if (std::isinf(v)) return std::string(v < 0 ? "-inf" : sign ? "+inf" : "inf");
  return std::nullopt;
}

std::string signOf(double v, bool sign) { return std::signbit(v) ? "-" : sign ? "+" : ""; }

int precisionArg(Interpreter &in, const Bound &b) {
  if (b.isNone("precision")) return -1;
  int64_t p = in.toIndex(b["precision"]);
  if (p < 0) in.raise("ValueError", "precision must be greater than or equal to 0");
  return int(p);
}

Value positional(Interpreter &in, const Bound &b) {
  Input x = floatInput(in, b["x"]);
  bool sign = in.truth(b["sign"]);
  if (auto s = nonFinite(x.value, sign)) return in.str(*s);
  int precision = precisionArg(in, b);
  Digits d = shortest(x.value, x.dtype);
  int n = int(d.digits.size());
  std::string ip, fp;
  if (precision >= 0 && std::max(0, n - 1 - d.exp) > precision) {
    char buf[512];
    auto r = std::to_chars(buf, buf + sizeof buf, std::fabs(x.value), std::chars_format::fixed, precision);
    std::string text(buf, r.ptr);
    size_t dot = text.find('.');
    ip = text.substr(0, dot);
    fp = dot == std::string::npos ? "" : text.substr(dot + 1);
    if (roundedUp(text, x.value))
      while (!fp.empty() && fp.back() == '0') fp.pop_back();
  } else if (d.digits == "0") {
    ip = "0";
  } else if (d.exp < 0) {
    ip = "0";
    fp = std::string(size_t(-d.exp - 1), '0') + d.digits;
  } else if (n <= d.exp + 1) {
    ip = d.digits + std::string(size_t(d.exp + 1 - n), '0');
  } else {
    ip = d.digits.substr(0, size_t(d.exp + 1));
    fp = d.digits.substr(size_t(d.exp + 1));
  }
  return in.str(signOf(x.value, sign) + applyTrim(in, ip, fp, in.str(b["trim"])));
}

Value scientific(Interpreter &in, const Bound &b) {
  Input x = floatInput(in, b["x"]);
  bool sign = in.truth(b["sign"]);
  if (auto s = nonFinite(x.value, sign)) return in.str(*s);
  int precision = precisionArg(in, b);
  Digits d = shortest(x.value, x.dtype);
  if (precision >= 0 && int(d.digits.size()) - 1 > precision) {
    char buf[64];
    auto r = std::to_chars(buf, buf + sizeof buf, std::fabs(x.value), std::chars_format::scientific, precision);
    d = fromScientific(std::string(buf, r.ptr));
    if (roundedUp(std::string(buf, r.ptr), x.value)) d.digits = trimZeros(d.digits);
  }
  std::string mantissa = applyTrim(in, d.digits.substr(0, 1), d.digits.substr(1), in.str(b["trim"]));
  return in.str(fmt::format("{}{}e{}{:02d}", signOf(x.value, sign), mantissa, d.exp < 0 ? '-' : '+', std::abs(d.exp)));
}

}  // namespace

void addFormatFloatFunctions(Defs &defs) {
  defs.push_back({"format_float_positional(x, precision=None, unique=!True, fractional=!True, trim='k', sign=False, "
                  "pad_left=!None, pad_right=!None, min_digits=!None)",
                  positional});
  defs.push_back({"format_float_scientific(x, precision=None, unique=!True, trim='k', sign=False, pad_left=!None, "
                  "exp_digits=!None, min_digits=!None)",
                  scientific});
}

}  // namespace tfs::runtime::tf::numpy
