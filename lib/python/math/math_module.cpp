// The `math` module: CPython's functions and constants over int/float values,
// with CPython's error messages for domain errors.
#include "lib/python/python_modules.h"
#include "runtime/interp/interpreter.h"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <limits>
#include <numeric>
#include <vector>

namespace tfs::runtime {

namespace {

Value makeMathModule(Interpreter &in) {
  auto m = make<ModuleObject>("math");
  auto def = [&](const std::string &name, NativeFn fn) { m->scope->vars[name] = in.native(name, std::move(fn)); };
  auto need = [](Interpreter &in, const std::string &name, Args a, size_t n) {
    if (a.size() != n)
      in.raise("TypeError", n == 1 ? fmt::format("math.{}() takes exactly one argument ({} given)", name, a.size())
                                   : fmt::format("{} expected {} arguments, got {}", name, n, a.size()));
  };
  // float -> float functions; `domain` says whether x is acceptable.
  auto unary = [&](const std::string &name, double (*f)(double), bool (*domain)(double)) {
    def(name, [name, f, domain](Interpreter &in, Args a, const Kwargs &) {
      if (a.size() != 1) in.raise("TypeError", fmt::format("math.{}() takes exactly one argument ({} given)", name, a.size()));
      double x = in.toFloat(a[0]);
      if (domain && !domain(x)) in.raise("ValueError", "math domain error");
      double r = f(x);
      if (std::isinf(r) && std::isfinite(x)) in.raise("OverflowError", "math range error");
      return Value::real(r);
    });
  };
  unary("sqrt", [](double x) { return std::sqrt(x); }, [](double x) { return !(x < 0); });
  unary("exp", [](double x) { return std::exp(x); }, nullptr);
  unary("sin", [](double x) { return std::sin(x); }, [](double x) { return !std::isinf(x); });
  unary("cos", [](double x) { return std::cos(x); }, [](double x) { return !std::isinf(x); });
  unary("tan", [](double x) { return std::tan(x); }, [](double x) { return !std::isinf(x); });
  unary("asin", [](double x) { return std::asin(x); }, [](double x) { return std::isnan(x) || std::fabs(x) <= 1; });
  unary("acos", [](double x) { return std::acos(x); }, [](double x) { return std::isnan(x) || std::fabs(x) <= 1; });
  unary("atan", [](double x) { return std::atan(x); }, nullptr);
  unary("sinh", [](double x) { return std::sinh(x); }, nullptr);
  unary("cosh", [](double x) { return std::cosh(x); }, nullptr);
  unary("tanh", [](double x) { return std::tanh(x); }, nullptr);
  unary("fabs", [](double x) { return std::fabs(x); }, nullptr);
  unary("log2", [](double x) { return std::log2(x); }, [](double x) { return std::isnan(x) || x > 0; });
  unary("log10", [](double x) { return std::log10(x); }, [](double x) { return std::isnan(x) || x > 0; });
  unary("log1p", [](double x) { return std::log1p(x); }, [](double x) { return std::isnan(x) || x > -1; });
  unary("expm1", [](double x) { return std::expm1(x); }, nullptr);
  unary("degrees", [](double x) { return x * 180.0 / M_PI; }, nullptr);
  unary("radians", [](double x) { return x * M_PI / 180.0; }, nullptr);
  unary("erf", [](double x) { return std::erf(x); }, nullptr);
  unary("gamma", [](double x) { return std::tgamma(x); }, [](double x) { return !(x <= 0 && x == std::floor(x)); });
  def("log", [](Interpreter &in, Args a, const Kwargs &) {
    if (a.empty() || a.size() > 2) in.raise("TypeError", fmt::format("log expected 1 or 2 arguments, got {}", a.size()));
    double x = in.toFloat(a[0]);
    if (!(x > 0) && !std::isnan(x)) in.raise("ValueError", "math domain error");
    double r = std::log(x);
    if (a.size() == 2) {
      double b = in.toFloat(a[1]);
      if (!(b > 0)) in.raise("ValueError", "math domain error");
      if (b == 1) in.raise("ZeroDivisionError", "float division by zero");
      r /= std::log(b);
    }
    return Value::real(r);
  });
  // float -> int rounding functions (int arguments pass through).
  auto toIntegral = [&](const std::string &name, double (*f)(double)) {
    def(name, [name, f, need](Interpreter &in, Args a, const Kwargs &) {
      need(in, name, a, 1);
      if (a[0].isInt() || a[0].isBool()) return Value::integer(a[0].asInt());
      // int()'s conversion: NaN, infinity and values past 64 bits are errors.
      return Value::integer(in.toInt(Value::real(f(in.toFloat(a[0])))));
    });
  };
  toIntegral("floor", [](double x) { return std::floor(x); });
  toIntegral("ceil", [](double x) { return std::ceil(x); });
  toIntegral("trunc", [](double x) { return std::trunc(x); });
  def("pow", [need](Interpreter &in, Args a, const Kwargs &) {
    need(in, "pow", a, 2);
    double x = in.toFloat(a[0]), y = in.toFloat(a[1]);
    if (x == 0 && y < 0) in.raise("ValueError", "math domain error");
    if (x < 0 && y != std::floor(y) && std::isfinite(y)) in.raise("ValueError", "math domain error");
    return Value::real(std::pow(x, y));
  });
  def("atan2", [need](Interpreter &in, Args a, const Kwargs &) {
    need(in, "atan2", a, 2);
    return Value::real(std::atan2(in.toFloat(a[0]), in.toFloat(a[1])));
  });
  def("copysign", [need](Interpreter &in, Args a, const Kwargs &) {
    need(in, "copysign", a, 2);
    return Value::real(std::copysign(in.toFloat(a[0]), in.toFloat(a[1])));
  });
  def("fmod", [need](Interpreter &in, Args a, const Kwargs &) {
    need(in, "fmod", a, 2);
    double y = in.toFloat(a[1]);
    if (y == 0) in.raise("ValueError", "math domain error");
    return Value::real(std::fmod(in.toFloat(a[0]), y));
  });
  def("hypot", [](Interpreter &in, Args a, const Kwargs &) {
    // Scaled by the largest magnitude so that squares neither overflow nor
    // underflow (hypot(1e200, 1e200) is finite).
    std::vector<double> xs;
    double m = 0;
    for (auto &v : a) { xs.push_back(std::fabs(in.toFloat(v))); m = std::max(m, xs.back()); }
    for (double x : xs) if (std::isinf(x)) return Value::real(x);
    for (double x : xs) if (std::isnan(x)) return Value::real(x);
    if (m == 0) return Value::real(0.0);
    double s = 0;
    for (double x : xs) s += (x / m) * (x / m);
    return Value::real(m * std::sqrt(s));
  });
  def("isnan", [need](Interpreter &in, Args a, const Kwargs &) { need(in, "isnan", a, 1); return Value::boolean(std::isnan(in.toFloat(a[0]))); });
  def("isinf", [need](Interpreter &in, Args a, const Kwargs &) { need(in, "isinf", a, 1); return Value::boolean(std::isinf(in.toFloat(a[0]))); });
  def("isfinite", [need](Interpreter &in, Args a, const Kwargs &) { need(in, "isfinite", a, 1); return Value::boolean(std::isfinite(in.toFloat(a[0]))); });
  def("isclose", [](Interpreter &in, Args a, const Kwargs &kw) {
    auto v = in.bindArgs("isclose", a, kw, {"a", "b", "rel_tol", "abs_tol"},
                         {std::nullopt, std::nullopt, Value::real(1e-9), Value::real(0.0)});
    double x = in.toFloat(v[0]), y = in.toFloat(v[1]), rel = in.toFloat(v[2]), abs = in.toFloat(v[3]);
    if (rel < 0 || abs < 0) in.raise("ValueError", "tolerances must be non-negative");
    if (x == y) return Value::boolean(true);
    if (std::isinf(x) || std::isinf(y)) return Value::boolean(false);
    double d = std::fabs(x - y);
    return Value::boolean(d <= std::fabs(rel * y) || d <= std::fabs(rel * x) || d <= abs);
  });
  auto intArg = [](Interpreter &in, const Value &v, const char *fname) {
    if (!v.isInt() && !v.isBool()) in.raise("TypeError", fmt::format("'{}' object cannot be interpreted as an integer", in.typeName(v)));
    (void)fname;
    return v.asInt();
  };
  // gcd/lcm/comb/isqrt work in 128 bits (std::gcd of INT64_MIN and every
  // overflowing product are undefined in 64); a result past 64 bits is the
  // OverflowError of every tfs int operation.
  auto fits64 = [](Interpreter &in, __int128 v) { return Value::integer(in.intFrom128(v)); };
  auto gcd128 = [](__int128 x, __int128 y) {
    if (x < 0) x = -x;
    if (y < 0) y = -y;
    while (y != 0) { __int128 t = x % y; x = y; y = t; }
    return x;
  };
  def("gcd", [intArg, fits64, gcd128](Interpreter &in, Args a, const Kwargs &) {
    __int128 g = 0;
    for (auto &v : a) g = gcd128(g, intArg(in, v, "gcd"));
    return fits64(in, g);
  });
  def("lcm", [intArg, fits64, gcd128](Interpreter &in, Args a, const Kwargs &) {
    __int128 l = 1;
    std::vector<__int128> xs;
    for (auto &v : a) xs.push_back(intArg(in, v, "lcm"));
    for (__int128 x : xs) {
      if (x == 0) return Value::integer(0);
      if (x < 0) x = -x;
      l = l / gcd128(l, x) * x;
      if (l > INT64_MAX) fits64(in, l);
    }
    return fits64(in, l);
  });
  def("factorial", [intArg, need](Interpreter &in, Args a, const Kwargs &) {
    need(in, "factorial", a, 1);
    int64_t n = intArg(in, a[0], "factorial");
    if (n < 0) in.raise("ValueError", "factorial() not defined for negative values");
    if (n > 20) in.raiseIntTooLarge();
    int64_t r = 1;
    for (int64_t i = 2; i <= n; ++i) r *= i;
    return Value::integer(r);
  });
  def("comb", [intArg, fits64](Interpreter &in, Args a, const Kwargs &) {
    if (a.size() != 2) in.raise("TypeError", fmt::format("comb expected 2 arguments, got {}", a.size()));
    int64_t n = intArg(in, a[0], "comb"), k = intArg(in, a[1], "comb");
    if (n < 0) in.raise("ValueError", "n must be a non-negative integer");
    if (k < 0) in.raise("ValueError", "k must be a non-negative integer");
    if (k > n) return Value::integer(0);
    k = std::min(k, n - k);
    // r stays C(n-k+i, i) after step i; C(n, i) only grows with i <= n/2, so
    // the first step past 64 bits settles it (before r * (n-k+i) can wrap).
    __int128 r = 1;
    for (int64_t i = 1; i <= k; ++i) {
      r = r * (n - k + i) / i;
      if (r > INT64_MAX) fits64(in, r);
    }
    return Value::integer(int64_t(r));
  });
  def("isqrt", [intArg, need](Interpreter &in, Args a, const Kwargs &) {
    need(in, "isqrt", a, 1);
    int64_t n = intArg(in, a[0], "isqrt");
    if (n < 0) in.raise("ValueError", "isqrt() argument must be nonnegative");
    __int128 r = __int128(std::sqrt(double(n)));
    while (r * r > n) --r;
    while ((r + 1) * (r + 1) <= n) ++r;
    return Value::integer(int64_t(r));
  });
  def("fsum", [](Interpreter &in, Args a, const Kwargs &) {
    if (a.size() != 1) in.raise("TypeError", fmt::format("fsum() takes exactly one argument ({} given)", a.size()));
    // Neumaier compensated summation (exact for the usual cases fsum is used on).
    double s = 0, c = 0;
    for (auto &v : in.toList(a[0])) {
      double x = in.toFloat(v), t = s + x;
      c += std::fabs(s) >= std::fabs(x) ? (s - t) + x : (x - t) + s;
      s = t;
    }
    return Value::real(s + c);
  });
  def("prod", [](Interpreter &in, Args a, const Kwargs &kw) {
    auto v = in.bindArgs("prod", a, kw, {"iterable", "start"}, {std::nullopt, Value::integer(1)});
    Value r = v[1];
    for (auto &x : in.toList(v[0])) r = in.binary(BinOp::Mul, r, x);
    return r;
  });
  m->scope->vars["pi"] = Value::real(M_PI);
  m->scope->vars["e"] = Value::real(M_E);
  m->scope->vars["tau"] = Value::real(2 * M_PI);
  m->scope->vars["inf"] = Value::real(std::numeric_limits<double>::infinity());
  m->scope->vars["nan"] = Value::real(std::numeric_limits<double>::quiet_NaN());
  return Value(m);
}

}  // namespace

void registerMathModule() { Interpreter::registerNativeModule("math", makeMathModule); }

}  // namespace tfs::runtime
