// math's float functions past the basic ones (math_module.cpp): the inverse
// hyperbolics, cbrt, erfc, exp2, lgamma, frexp, ldexp, modf, remainder,
// nextafter, ulp and dist, with CPython 3.11's results and errors
// (ValueError "math domain error", OverflowError "math range error"). An
// int argument past 64 bits is converted as float() converts it.
#include "lib/python/math/math_gamma.h"
#include "lib/python/math/math_integer.h"
#include "runtime/interp/big_int.h"
#include "runtime/interp/builtins.h"
#include "runtime/interp/signature.h"

#include <cmath>
#include <fmt/format.h>
#include <limits>

namespace tfs::runtime {

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

// f(x) with CPython's checks: `domain` false -> ValueError; an infinite
// result from a finite x -> OverflowError.
void unary(Interpreter &in, ModuleObject &m, const std::string &name, double (*f)(double), bool (*domain)(double)) {
  m.scope->vars[name] = nativeWithSignature(in, name + "(x, /)", [f, domain](Interpreter &in, const Bound &b) {
    double x = mathReal(in, b["x"]);
    if (domain && !domain(x)) in.raise("ValueError", "math domain error");
    double r = f(x);
    if (std::isinf(r) && std::isfinite(x)) in.raise("OverflowError", "math range error");
    return Value::real(r);
  });
}

}  // namespace

double mathReal(Interpreter &in, const Value &v) {
  if (v.isFloat()) return v.asFloat();
  if (v.isInt() || v.isBool()) return in.toFloat(v);
  if (isNonRealBuiltin(in, v)) in.raise("TypeError", fmt::format("must be real number, not {}", in.typeName(v)));
  return in.toFloat(v);
}

void addMathFloatFunctions(Interpreter &in, ModuleObject &m) {
  auto &vars = m.scope->vars;
  unary(in, m, "acosh", [](double x) { return std::acosh(x); }, [](double x) { return std::isnan(x) || x >= 1; });
  unary(in, m, "asinh", [](double x) { return std::asinh(x); }, nullptr);
  unary(in, m, "atanh", [](double x) { return std::atanh(x); }, [](double x) { return std::isnan(x) || std::fabs(x) < 1; });
  unary(in, m, "cbrt", [](double x) { return std::cbrt(x); }, nullptr);
  unary(in, m, "erfc", [](double x) { return std::erfc(x); }, nullptr);
  unary(in, m, "exp2", [](double x) { return std::exp2(x); }, nullptr);
  unary(in, m, "lgamma", cpythonLgamma,
        [](double x) { return !(x <= 0 && x == std::floor(x) && std::isfinite(x)); });
  vars["frexp"] = nativeWithSignature(in, "frexp(x, /)", [](Interpreter &in, const Bound &b) {
    double x = mathReal(in, b["x"]);
    int e = 0;
    double mant = std::isfinite(x) && x != 0 ? std::frexp(x, &e) : x;
    return in.tuple({Value::real(mant), Value::integer(e)});
  });
  vars["ldexp"] = nativeWithSignature(in, "ldexp(x, i, /)", [](Interpreter &in, const Bound &b) {
    double x = mathReal(in, b["x"]);
    const Value &i = b["i"];
    if (!isIntValue(i)) in.raise("TypeError", "Expected an int as second argument to ldexp.");
    if (x == 0 || !std::isfinite(x)) return Value::real(x);
    // Exponents past int range: the result is 0 or overflows, as CPython's.
    mpz_class e = toMpz(i);
    double r;
    if (e > 100000) r = std::copysign(kInf, x);
    else if (e < -100000) r = std::copysign(0.0, x);
    else r = std::ldexp(x, int(e.get_si()));
    if (std::isinf(r)) in.raise("OverflowError", "math range error");
    return Value::real(r);
  });
  vars["modf"] = nativeWithSignature(in, "modf(x, /)", [](Interpreter &in, const Bound &b) {
    double x = mathReal(in, b["x"]);
    if (std::isinf(x)) return in.tuple({Value::real(std::copysign(0.0, x)), Value::real(x)});
    double whole;
    double frac = std::modf(x, &whole);
    return in.tuple({Value::real(frac), Value::real(whole)});
  });
  vars["remainder"] = nativeWithSignature(in, "remainder(x, y, /)", [](Interpreter &in, const Bound &b) {
    double x = mathReal(in, b["x"]), y = mathReal(in, b["y"]);
    if (std::isnan(x)) return Value::real(x);
    if (std::isnan(y)) return Value::real(y);
    if (std::isinf(x) || y == 0) in.raise("ValueError", "math domain error");
    if (std::isinf(y)) return Value::real(x);
    return Value::real(std::remainder(x, y));
  });
  vars["nextafter"] = nativeWithSignature(in, "nextafter(x, y, /)", [](Interpreter &in, const Bound &b) {
    return Value::real(std::nextafter(mathReal(in, b["x"]), mathReal(in, b["y"])));
  });
  vars["ulp"] = nativeWithSignature(in, "ulp(x, /)", [](Interpreter &in, const Bound &b) {
    double x = mathReal(in, b["x"]);
    if (std::isnan(x)) return Value::real(x);
    x = std::fabs(x);
    if (std::isinf(x)) return Value::real(x);
    double up = std::nextafter(x, kInf);
    if (std::isinf(up)) return Value::real(x - std::nextafter(x, -kInf));
    return Value::real(up - x);
  });
  // dist(p, q): the norm of the differences, as math.hypot computes it.
  Value hypot = vars["hypot"];
  vars["dist"] = nativeWithSignature(in, "dist(p, q, /)", [hypot](Interpreter &in, const Bound &b) {
    auto p = in.toList(b["p"]), q = in.toList(b["q"]);
    if (p.size() != q.size()) in.raise("ValueError", "both points must have the same number of dimensions");
    std::vector<Value> diffs;
    for (size_t i = 0; i < p.size(); ++i) diffs.push_back(Value::real(mathReal(in, p[i]) - mathReal(in, q[i])));
    return in.call(hypot, diffs);
  });
}

}  // namespace tfs::runtime
