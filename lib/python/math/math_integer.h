// math's integer functions for Python ints of any size (math_integer.cpp):
// gcd, lcm, factorial, comb, perm, isqrt, floor/ceil/trunc, and log/log2/
// log10 of ints too large for a double. Added to the module after its
// float functions (the log wrappers call those for floats).
#pragma once

#include "runtime/interp/interpreter.h"

namespace tfs::runtime {

void addMathIntegerFunctions(Interpreter &in, ModuleObject &m);
// frexp, ldexp, modf, remainder, dist, the inverse hyperbolics, ...
// (math_float.cpp); after hypot, which dist uses.
void addMathFloatFunctions(Interpreter &in, ModuleObject &m);
// A math function's float argument, as CPython's PyFloat_AsDouble takes it:
// numbers and objects with __float__/__index__; text, None and containers
// are "TypeError: must be real number, not str" (float() would parse '4').
double mathReal(Interpreter &in, const Value &v);

}  // namespace tfs::runtime
