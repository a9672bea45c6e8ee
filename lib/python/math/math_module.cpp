// The `math` module: CPython's functions and constants over int/float values,
// with CPython's error messages for domain errors.
#include "lib/python/math/math_gamma.h"
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

// Two doubles whose exact sum is a value (hi holds its rounding).
struct DoubleLength {
  double hi, lo;
};
DoubleLength fastSum(double a, double b) {  // |a| >= |b|
  double x = a + b;
  return {x, (a - x) + b};
}
DoubleLength split(double x) {  // Veltkamp: 2**27 + 1
  double t = x * 134217729.0, hi = t - (t - x);
  return {hi, x - hi};
}
DoubleLength exactProduct(double x, double y) {  // Dekker's mul12
  DoubleLength a = split(x), b = split(y);
  double p = a.hi * b.hi, q = a.hi * b.lo + a.lo * b.hi, z = p + q;
  return {z, p - z + q + a.lo * b.lo};
}

// The Euclidean norm of |values| whose largest is `max`, as CPython 3.11's
// vector_norm computes it (so hypot/dist agree to the last digit): scaled by
// a power of two, squares and their sum kept exact in two parts, then a
// square root with one correction step. Subnormal inputs are first scaled up.
double vectorNorm(std::vector<double> values, double max, bool foundNan) {
  if (std::isinf(max)) return max;
  if (foundNan) return std::numeric_limits<double>::quiet_NaN();
  if (max == 0.0 || values.size() <= 1) return max;
  int maxE;
  std::frexp(max, &maxE);
  if (maxE < -1023) {
    const double tiny = std::numeric_limits<double>::min();
    for (double &v : values) v /= tiny;
    return tiny * vectorNorm(std::move(values), max / tiny, false);
  }
  double scale = std::ldexp(1.0, -maxE), csum = 1.0, frac1 = 0.0, frac2 = 0.0;
  for (double v : values) {
    double x = v * scale;
    DoubleLength pr = exactProduct(x, x), sm = fastSum(csum, pr.hi);
    csum = sm.hi;
    frac1 += pr.lo;
    frac2 += sm.lo;
  }
  double h = std::sqrt(csum - 1.0 + (frac1 + frac2));
  DoubleLength pr = exactProduct(-h, h), sm = fastSum(csum, pr.hi);
  csum = sm.hi;
  frac1 += pr.lo;
  frac2 += sm.lo;
  double x = csum - 1.0 + (frac1 + frac2);
  h += x / (2.0 * h);
  return h / scale;
}

}  // namespace


namespace {

Value makeMathModule(Interpreter &in) {
  auto m = make<ModuleObject>("math");
  // CPython's math functions are positional-only except isclose's tolerances
  // and prod's start (which check their own keywords).
  auto def = [&](const std::string &name, NativeFn fn) {
    bool takesKeywords = name == "isclose" || name == "prod";
    m->scope->vars[name] = in.native(name, [name, takesKeywords, fn = std::move(fn)](Interpreter &in, Args a, const Kwargs &kw) {
      if (!kw.empty() && !takesKeywords)
        in.raise("TypeError", fmt::format("{}() takes no keyword arguments", name == "log" ? name : "math." + name));
      return fn(in, a, kw);
    });
  };
  auto need = [](Interpreter &in, const std::string &name, Args a, size_t n) {
    if (a.size() != n)
      in.raise("TypeError", n == 1 ? fmt::format("math.{}() takes exactly one argument ({} given)", name, a.size())
                                   : fmt::format("{} expected {} arguments, got {}", name, n, a.size()));
  };
  // float -> float functions; `domain` says whether x is acceptable.
  auto unary = [&](const std::string &name, double (*f)(double), bool (*domain)(double)) {
    def(name, [name, f, domain](Interpreter &in, Args a, const Kwargs &) {
      if (a.size() != 1) in.raise("TypeError", fmt::format("math.{}() takes exactly one argument ({} given)", name, a.size()));
      double x = mathReal(in, a[0]);
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
  unary("gamma", cpythonGamma, [](double x) { return !(x <= 0 && x == std::floor(x)) && x != -HUGE_VAL; });
  def("log", [](Interpreter &in, Args a, const Kwargs &) {
    if (a.empty() || a.size() > 2) in.raise("TypeError", fmt::format("log expected 1 or 2 arguments, got {}", a.size()));
    double x = mathReal(in, a[0]);
    if (!(x > 0) && !std::isnan(x)) in.raise("ValueError", "math domain error");
    double r = std::log(x);
    if (a.size() == 2) {
      double b = mathReal(in, a[1]);
      if (!(b > 0)) in.raise("ValueError", "math domain error");
      if (b == 1) in.raise("ZeroDivisionError", "float division by zero");
      r /= std::log(b);
    }
    return Value::real(r);
  });
  def("pow", [need](Interpreter &in, Args a, const Kwargs &) {
    need(in, "pow", a, 2);
    double x = mathReal(in, a[0]), y = mathReal(in, a[1]);
    if (x == 0 && y < 0) in.raise("ValueError", "math domain error");
    if (x < 0 && y != std::floor(y) && std::isfinite(y)) in.raise("ValueError", "math domain error");
    return Value::real(std::pow(x, y));
  });
  def("atan2", [need](Interpreter &in, Args a, const Kwargs &) {
    need(in, "atan2", a, 2);
    return Value::real(std::atan2(mathReal(in, a[0]), mathReal(in, a[1])));
  });
  def("copysign", [need](Interpreter &in, Args a, const Kwargs &) {
    need(in, "copysign", a, 2);
    return Value::real(std::copysign(mathReal(in, a[0]), mathReal(in, a[1])));
  });
  def("fmod", [need](Interpreter &in, Args a, const Kwargs &) {
    need(in, "fmod", a, 2);
    double y = mathReal(in, a[1]);
    if (y == 0) in.raise("ValueError", "math domain error");
    return Value::real(std::fmod(mathReal(in, a[0]), y));
  });
  def("hypot", [](Interpreter &in, Args a, const Kwargs &) {
    std::vector<double> xs;
    double m = 0;
    bool nan = false;
    for (auto &v : a) {
      xs.push_back(std::fabs(mathReal(in, v)));
      nan |= std::isnan(xs.back());
      if (xs.back() > m) m = xs.back();
    }
    return Value::real(vectorNorm(xs, m, nan));
  });
  def("isnan", [need](Interpreter &in, Args a, const Kwargs &) { need(in, "isnan", a, 1); return Value::boolean(std::isnan(mathReal(in, a[0]))); });
  def("isinf", [need](Interpreter &in, Args a, const Kwargs &) { need(in, "isinf", a, 1); return Value::boolean(std::isinf(mathReal(in, a[0]))); });
  def("isfinite", [need](Interpreter &in, Args a, const Kwargs &) { need(in, "isfinite", a, 1); return Value::boolean(std::isfinite(mathReal(in, a[0]))); });
  def("isclose", [](Interpreter &in, Args a, const Kwargs &kw) {
    auto v = in.bindArgs("isclose", a, kw, {"a", "b", "rel_tol", "abs_tol"},
                         {std::nullopt, std::nullopt, Value::real(1e-9), Value::real(0.0)});
    double x = mathReal(in, v[0]), y = mathReal(in, v[1]), rel = mathReal(in, v[2]), abs = mathReal(in, v[3]);
    if (rel < 0 || abs < 0) in.raise("ValueError", "tolerances must be non-negative");
    if (x == y) return Value::boolean(true);
    if (std::isinf(x) || std::isinf(y)) return Value::boolean(false);
    double d = std::fabs(x - y);
    return Value::boolean(d <= std::fabs(rel * y) || d <= std::fabs(rel * x) || d <= abs);
  });
  def("fsum", [](Interpreter &in, Args a, const Kwargs &) {
    if (a.size() != 1) in.raise("TypeError", fmt::format("fsum() takes exactly one argument ({} given)", a.size()));
    // The exactly rounded sum, as CPython's: Shewchuk's non-overlapping
    // partials (each addition split into its rounded sum and exact error),
    // then a half-even correction where the remaining partials round the
    // top one. Infinities and NaNs are summed apart.
    std::vector<double> partials;
    double special = 0, infSum = 0;
    for (auto &v : in.toList(a[0])) {
      double x = mathReal(in, v), original = x;
      size_t kept = 0;
      for (double y : partials) {
        if (std::fabs(x) < std::fabs(y)) std::swap(x, y);
        double hi = x + y, lo = y - (hi - x);
        if (lo != 0.0) partials[kept++] = lo;
        x = hi;
      }
      partials.resize(kept);
      if (x == 0.0) continue;
      if (!std::isfinite(x)) {
        // A finite input whose sum overflows; otherwise an inf or nan input.
        if (std::isfinite(original)) in.raise("OverflowError", "intermediate overflow in fsum");
        if (std::isinf(original)) infSum += original;
        special += original;
        partials.clear();
      } else {
        partials.push_back(x);
      }
    }
    if (special != 0.0) {
      if (std::isnan(infSum)) in.raise("ValueError", "-inf + inf in fsum");
      return Value::real(special);
    }
    double hi = 0.0, lo = 0.0;
    size_t n = partials.size();
    if (n > 0) {
      hi = partials[--n];
      while (n > 0) {
        double x = hi, y = partials[--n];
        hi = x + y;
        lo = y - (hi - x);
        if (lo != 0.0) break;
      }
      if (n > 0 && ((lo < 0 && partials[n - 1] < 0) || (lo > 0 && partials[n - 1] > 0))) {
        double y = lo * 2, x = hi + y;
        if (y == x - hi) hi = x;
      }
    }
    return Value::real(hi);
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
