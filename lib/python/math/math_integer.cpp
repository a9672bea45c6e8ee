// The integer functions of `math` (gcd, lcm, factorial, comb, perm, isqrt,
// floor/ceil/trunc) for Python ints of any size, and log/log2/log10 of ints
// past a double, as CPython 3.11 computes them (GMP does the arithmetic).
#include "lib/python/math/math_integer.h"

#include "runtime/interp/big_int.h"
#include "runtime/interp/signature.h"

#include <cmath>
#include <fmt/format.h>

namespace tfs::runtime {

namespace {

// operator.index(v) as an int value (TypeError for a float, as CPython).
mpz_class indexArg(Interpreter &in, const Value &v) {
  if (isIntValue(v)) return toMpz(v);
  return mpz_class(long(in.toIndex(v)));
}

// A count past a C long long: CPython's OverflowError naming the argument.
unsigned long smallCount(Interpreter &in, const mpz_class &n, const char *what) {
  if (!mpz_fits_slong_p(n.get_mpz_t()))
    in.raise("OverflowError", fmt::format("{} must not exceed {}", what, INT64_MAX));
  return mpz_get_ui(n.get_mpz_t());
}

// log(x) for an int: CPython converts it to a float and, when that
// overflows, uses x ~= m * 2**e (m correctly rounded in [0.5, 1)).
Value intLog(Interpreter &in, const Value &x, double (*f)(double)) {
  mpz_class v = toMpz(x);
  if (v <= 0) in.raise("ValueError", "math domain error");
  if (mpz_sizeinbase(v.get_mpz_t(), 2) <= 1024) {
    double d = mpzToDouble(in, v);
    if (!std::isinf(d)) return Value::real(f(d));
  }
  long e;
  double m = mpzFrexp(v, e);
  return Value::real(f(m) + f(2.0) * double(e));
}

}  // namespace

void addMathIntegerFunctions(Interpreter &in, ModuleObject &m) {
  auto def = [&](const std::string &name, NativeFn fn) { m.scope->vars[name] = in.native(name, std::move(fn)); };
  def("gcd", [](Interpreter &in, Args a, const Kwargs &kw) {
    static const Signature sig("gcd(*integers)");
    sig.bind(in, a, kw);
    mpz_class g = 0;
    for (const Value &v : a) mpz_gcd(g.get_mpz_t(), g.get_mpz_t(), indexArg(in, v).get_mpz_t());
    return intValue(g);
  });
  def("lcm", [](Interpreter &in, Args a, const Kwargs &kw) {
    static const Signature sig("lcm(*integers)");
    sig.bind(in, a, kw);
    mpz_class l = 1;
    for (const Value &v : a) mpz_lcm(l.get_mpz_t(), l.get_mpz_t(), indexArg(in, v).get_mpz_t());
    return intValue(l);
  });
  def("factorial", [](Interpreter &in, Args a, const Kwargs &kw) {
    static const Signature sig("factorial(n, /)");
    Bound b = sig.bind(in, a, kw);
    mpz_class n = indexArg(in, b[0]);
    if (n < 0) in.raise("ValueError", "factorial() not defined for negative values");
    if (!mpz_fits_slong_p(n.get_mpz_t()))
      in.raise("OverflowError", fmt::format("factorial() argument should not exceed {}", INT64_MAX));
    unsigned long k = mpz_get_ui(n.get_mpz_t());
    checkIntResultBits(in, double(k) * std::log2(double(k) + 1));
    mpz_class r;
    mpz_fac_ui(r.get_mpz_t(), k);
    return intValue(r);
  });
  // C(n, k) and P(n, k) = C(n, k) * k!, with CPython's argument checks.
  auto combPerm = [](Interpreter &in, const mpz_class &n, mpz_class k, bool perm) -> Value {
    if (n < 0) in.raise("ValueError", "n must be a non-negative integer");
    if (k < 0) in.raise("ValueError", "k must be a non-negative integer");
    if (k > n) return Value::integer(0);
    mpz_class smaller = perm ? k : mpz_class(n - k < k ? mpz_class(n - k) : k);
    unsigned long s = smallCount(in, smaller, perm ? "k" : "min(n - k, k)");
    checkIntResultBits(in, double(s) * double(mpz_sizeinbase(n.get_mpz_t(), 2)));
    mpz_class r;
    mpz_bin_ui(r.get_mpz_t(), n.get_mpz_t(), s);
    if (perm) {
      mpz_class f;
      mpz_fac_ui(f.get_mpz_t(), s);
      r *= f;
    }
    return intValue(r);
  };
  def("comb", [combPerm](Interpreter &in, Args a, const Kwargs &kw) {
    static const Signature sig("comb(n, k, /)");
    Bound b = sig.bind(in, a, kw);
    return combPerm(in, indexArg(in, b[0]), indexArg(in, b[1]), false);
  });
  def("perm", [combPerm](Interpreter &in, Args a, const Kwargs &kw) {
    static const Signature sig("perm(n, k=None, /)");
    Bound b = sig.bind(in, a, kw);
    mpz_class n = indexArg(in, b[0]);
    return combPerm(in, n, b[1].isNone() ? n : indexArg(in, b[1]), true);
  });
  def("isqrt", [](Interpreter &in, Args a, const Kwargs &kw) {
    static const Signature sig("isqrt(n, /)");
    Bound b = sig.bind(in, a, kw);
    mpz_class n = indexArg(in, b[0]), r;
    if (n < 0) in.raise("ValueError", "isqrt() argument must be nonnegative");
    mpz_sqrt(r.get_mpz_t(), n.get_mpz_t());
    return intValue(r);
  });
  // float -> int rounding (an int passes through, a float past 64 bits becomes a big int).
  auto toIntegral = [&](const std::string &name, double (*f)(double)) {
    def(name, [name, f](Interpreter &in, Args a, const Kwargs &kw) {
      Signature(name + "(x, /)").bind(in, a, kw);
      if (isIntValue(a[0])) return intOf(in, a[0]);
      // A class's own __floor__ / __ceil__ / __trunc__ answers (any value).
      if (auto *inst = a[0].as<InstanceObject>())
        if (auto m = inst->klass->lookup("__" + name + "__")) return in.call(Value(make<BoundMethod>(a[0], *m)), {});
      return intOf(in, Value::real(f(mathReal(in, a[0]))));
    });
  };
  toIntegral("floor", [](double x) { return std::floor(x); });
  toIntegral("ceil", [](double x) { return std::ceil(x); });
  toIntegral("trunc", [](double x) { return std::trunc(x); });
  // log/log2/log10 of an int go through intLog; other values to the float versions.
  auto intLogWrapper = [&](const std::string &name, double (*f)(double)) {
    Value floatVersion = m.scope->vars[name];
    def(name, [floatVersion, f](Interpreter &in, Args a, const Kwargs &kw) -> Value {
      if (a.size() == 1 && kw.empty() && a[0].as<BigIntObject>()) return intLog(in, a[0], f);
      if (a.size() == 2 && kw.empty() && (a[0].as<BigIntObject>() || a[1].as<BigIntObject>())) {
        // log(x, base) = log(x) / log(base), each as CPython's loghelper computes it.
        auto logOf = [&](const Value &v) {
          if (isIntValue(v)) return intLog(in, v, f).asFloat();
          double d = mathReal(in, v);
          if (!(d > 0) && !std::isnan(d)) in.raise("ValueError", "math domain error");
          return f(d);
        };
        double num = logOf(a[0]), den = logOf(a[1]);
        if (den == 0) in.raise("ZeroDivisionError", "float division by zero");
        return Value::real(num / den);
      }
      return in.call(floatVersion, a, kw);
    });
  };
  intLogWrapper("log", [](double x) { return std::log(x); });
  intLogWrapper("log2", [](double x) { return std::log2(x); });
  intLogWrapper("log10", [](double x) { return std::log10(x); });
}

}  // namespace tfs::runtime
