// The `math` module: CPython's functions and constants over int/float values,
// with CPython's error messages for domain errors.
#include "lib/python/math/math_integer.h"
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
  addMathFloatFunctions(in, *m);
  addMathIntegerFunctions(in, *m);
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
