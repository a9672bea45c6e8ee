// CPython 3.11's gamma and lgamma (Modules/mathmodule.c's algorithm, written
// here from its description): a Lanczos sum with g = 6.0246800407767296
// (N = 13) evaluated as a rational function, exact factorials for small
// integer arguments, and the reflection formula for negative x. Checked
// against /usr/bin/python3 on thousands of arguments (tests/differential/
// std_math_gamma.tfs).
#include "lib/python/math/math_gamma.h"

#include <cmath>

namespace tfs::runtime {

namespace {

constexpr double kLanczosG = 6.024680040776729583740234375;
constexpr double kLanczosGMinusHalf = 5.524680040776729583740234375;
constexpr double kLogPi = 1.144729885849400174143427351353058711647;
constexpr double kPi = 3.141592653589793238462643383279502884197;

// Numerator and denominator coefficients of the Lanczos sum, as a ratio of
// polynomials in x (the denominator is x(x+1)...(x+11)).
constexpr double kNum[13] = {
    23531376880.410759688572007674451636754734846804940, 42919803642.649098768957899047001988850926355848959,
    35711959237.355668049440185451547166705960488635843, 17921034426.037209699919755754458931112671403265390,
    6039542586.3520280050642916443072979210699388420708, 1439720407.3117216736632230727949123939715485786772,
    248874557.86205415651146038641322942321632125127801, 31426415.585400194380614231628318205362874684987640,
    2876370.6289353724412254090516208496135991145378768, 186056.26539522349504029498971604569928220784236328,
    8071.6720023658162106380029022722506138218516325024, 210.82427775157934587250973392071336271166969580291,
    2.5066282746310002701649081771338373386264310793408};
constexpr double kDen[13] = {0.0,      39916800.0, 120543840.0, 150917976.0, 105258076.0, 45995730.0, 13339535.0,
                             2637558.0, 357423.0,  32670.0,     1925.0,      66.0,        1.0};

// (n-1)! for n = 1..23, exact in a double.
constexpr double kFactorials[23] = {1.0,
                                    1.0,
                                    2.0,
                                    6.0,
                                    24.0,
                                    120.0,
                                    720.0,
                                    5040.0,
                                    40320.0,
                                    362880.0,
                                    3628800.0,
                                    39916800.0,
                                    479001600.0,
                                    6227020800.0,
                                    87178291200.0,
                                    1307674368000.0,
                                    20922789888000.0,
                                    355687428096000.0,
                                    6402373705728000.0,
                                    121645100408832000.0,
                                    2432902008176640000.0,
                                    51090942171709440000.0,
                                    1124000727777607680000.0};

// Horner's rule in x for small x, in 1/x for large x (no overflow).
double lanczosSum(double x) {
  double num = 0.0, den = 0.0;
  if (x < 5.0) {
    for (int i = 13; i-- > 0;) {
      num = num * x + kNum[i];
      den = den * x + kDen[i];
    }
  } else {
    for (int i = 0; i < 13; ++i) {
      num = num / x + kNum[i];
      den = den / x + kDen[i];
    }
  }
  return num / den;
}

// sin(pi * x), accurate near the integers (reduced to [0, 2) first).
double sinPi(double x) {
  double y = std::fmod(std::fabs(x), 2.0);
  double r = 0.0;
  switch (static_cast<int>(std::round(2.0 * y))) {
  case 0: r = std::sin(kPi * y); break;
  case 1: r = std::cos(kPi * (y - 0.5)); break;
  case 2: r = std::sin(kPi * (1.0 - y)); break;
  case 3: r = -std::cos(kPi * (y - 1.5)); break;
  default: r = std::sin(kPi * (y - 2.0)); break;
  }
  return std::copysign(1.0, x) * r;
}

}  // namespace

double cpythonGamma(double x) {
  if (!std::isfinite(x)) return std::isnan(x) || x > 0 ? x : std::nan("");
  if (x == 0) return std::copysign(HUGE_VAL, x);
  if (x == std::floor(x)) {
    if (x < 0) return std::nan("");
    if (x <= 23) return kFactorials[static_cast<int>(x) - 1];
  }
  double ax = std::fabs(x);
  if (ax < 1e-20) return 1.0 / x;
  if (ax > 200.0) return x < 0 ? 0.0 / sinPi(x) : HUGE_VAL;
  double y = ax + kLanczosGMinusHalf, z;
  // z is the rounding error of y, used to correct the power below.
  if (ax > kLanczosGMinusHalf) z = (y - ax) - kLanczosGMinusHalf;
  else z = (y - kLanczosGMinusHalf) - ax;
  z = z * kLanczosG / y;
  double r;
  if (x < 0) {
    r = -kPi / sinPi(ax) / ax * std::exp(y) / lanczosSum(ax);
    r -= z * r;
    if (ax < 140.0) {
      r /= std::pow(y, ax - 0.5);
    } else {
      double half = std::pow(y, ax / 2.0 - 0.25);
      r /= half;
      r /= half;
    }
  } else {
    r = lanczosSum(ax) / std::exp(y);
    r += z * r;
    if (ax < 140.0) {
      r *= std::pow(y, ax - 0.5);
    } else {
      double half = std::pow(y, ax / 2.0 - 0.25);
      r *= half;
      r *= half;
    }
  }
  return r;
}

double cpythonLgamma(double x) {
  if (!std::isfinite(x)) return std::isnan(x) ? x : HUGE_VAL;
  if (x == std::floor(x) && x <= 2.0) return x <= 0 ? HUGE_VAL : 0.0;
  double ax = std::fabs(x);
  if (ax < 1e-20) return -std::log(ax);
  double r = std::log(lanczosSum(ax)) - kLanczosG;
  r += (ax - 0.5) * (std::log(ax + kLanczosG - 0.5) - 1);
  if (x < 0) r = kLogPi - std::log(std::fabs(sinPi(ax))) - std::log(ax) - r;
  return r;
}

}  // namespace tfs::runtime
