// math.gamma and math.lgamma as CPython 3.11 computes them (its own Lanczos
// approximation, not the C library's tgamma/lgamma, whose last digits differ).
// Domain errors (0 and negative integers, -inf for gamma) are reported by the
// caller; these return the value CPython's C functions return before their
// errno check.
#pragma once

namespace tfs::runtime {

double cpythonGamma(double x);
double cpythonLgamma(double x);

}  // namespace tfs::runtime
