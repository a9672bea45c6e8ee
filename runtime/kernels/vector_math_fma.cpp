// SLEEF's scalar deterministic variants for FMA hosts (vector_math.h, Note
// [Vector math]). sleef.h declares them only for FMA builds, so this file is
// compiled with -mfma (CMakeLists.txt); they run only on hosts with FMA.
#include "runtime/kernels/vector_math_isa.h"

// sleef.h declares them under FP_FAST_FMA, which glibc's math.h defines only
// when the compiler announces __FP_FAST_FMA: GCC does for -mfma, clang 14 does
// not (the sanitized fuzz build). This file is compiled with -mfma either way.
#include <math.h>
#ifndef FP_FAST_FMA
#define FP_FAST_FMA 1
#endif
#include <sleef.h>

namespace tfs::runtime::vmath {

Named fmaScalar(Fn f) {
#define TFS_VM_ENTRY(fn, u) \
  Named{"Sleef_finz_" #fn "f1_" #u "purecfma", reinterpret_cast<void *>(&Sleef_finz_##fn##f1_##u##purecfma)}
  static const Named variants[] = {TFS_VM_ENTRY(exp, u10), TFS_VM_ENTRY(log, u10), TFS_VM_ENTRY(sin, u10),
                                   TFS_VM_ENTRY(cos, u10), TFS_VM_ENTRY(pow, u10)};
#undef TFS_VM_ENTRY
  return variants[size_t(f)];
}

}  // namespace tfs::runtime::vmath
