// float.hex(), float.fromhex() and float.as_integer_ratio(), as CPython 3.11
// defines them (Objects/floatobject.c): exact, so they round-trip.
#pragma once

#include "runtime/interp/interpreter.h"

#include <string>

namespace tfs::runtime {

std::string floatHex(double x);
// numerator/denominator in lowest terms (ints of any size).
Value floatAsIntegerRatio(Interpreter &in, double x);
// float.fromhex(string): the correctly rounded value of a hexadecimal
// float literal (with or without 0x), 'inf'/'nan'; CPython's errors.
Value floatFromHex(Interpreter &in, Args a, const Kwargs &kw);

}  // namespace tfs::runtime
