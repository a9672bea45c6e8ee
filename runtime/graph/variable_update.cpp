#include "runtime/graph/variable_update.h"

// GCC 12's -O2 "very cheap" vectorizer cost model refuses loops needing a
// remainder loop (see runtime/kernels/kernel_util.h).
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC optimize("vect-cost-model=dynamic")
#endif

#include "runtime/kernels/kernels.h"

namespace tfs::runtime {

// Note [Variable updates in place]
// An optimizer updates every variable and its slots with assign_add /
// assign_sub of a delta of the variable's shape (Adam: three per variable
// per step). Through the add/sub kernels each update reads the variable and
// the delta and writes a fresh buffer (for a Dense kernel of 5408x128,
// 2.7 MB: a new allocation, page faults, the old buffer freed). When the
// variable's buffer is held by nothing else (no earlier read still alive,
// no Python reference to a value read from it), the same sums are written
// over it instead: each element is x + d (x - d) rounded once in the
// element type, as the kernels compute it, so the bits are the same. A
// buffer that anything else holds is never written: that value must not
// change under its holder (TF's copy-on-write of a shared variable buffer).
namespace {

bool sameLayout(const Tensor &cur, const Tensor &delta) {
  return cur.valid() && delta.valid() && cur.dtype() == delta.dtype() && cur.shape() == delta.shape() &&
         (cur.dtype() == ir::DType::Float32 || cur.dtype() == ir::DType::Float64) &&
         cur.bufferId() != delta.bufferId();
}

// One IEEE add or subtract per element: every clone (the host's vector
// width) computes the same bits.
#define TFS_UPDATE_CLONES __attribute__((target_clones("arch=x86-64-v4", "arch=x86-64-v3", "default")))

template <class T>
inline __attribute__((always_inline)) void updateBody(T *__restrict x, const T *__restrict d, int64_t n,
                                                      bool add) {
  if (add)
    for (int64_t i = 0; i < n; ++i) x[i] = T(x[i] + d[i]);
  else
    for (int64_t i = 0; i < n; ++i) x[i] = T(x[i] - d[i]);
}

TFS_UPDATE_CLONES void updateInPlace(float *x, const float *d, int64_t n, bool add) {
  updateBody(x, d, n, add);
}

TFS_UPDATE_CLONES void updateInPlace(double *x, const double *d, int64_t n, bool add) {
  updateBody(x, d, n, add);
}

#undef TFS_UPDATE_CLONES

}  // namespace

Tensor updatedVariable(RunContext &ctx, const ir::Function &fn, const ir::Capture &var, ir::OpKind kind,
                       const Tensor &delta) {
  bool add = kind == ir::OpKind::AssignAddVariable;
  Tensor cur = ctx.readVariable(fn, var);
  if (sameLayout(cur, delta)) {
    // The variable lets go of its buffer for a moment: if `cur` is then its
    // only holder, the buffer is ours to write (the caller assigns it back).
    ctx.assignVariable(fn, var, Tensor());
    if (cur.uniquelyOwned()) {
      if (cur.dtype() == ir::DType::Float32)
        updateInPlace(cur.data<float>(), delta.data<float>(), cur.numElements(), add);
      else
        updateInPlace(cur.data<double>(), delta.data<double>(), cur.numElements(), add);
      return cur;
    }
    ctx.assignVariable(fn, var, cur);
  }
  Tensor xs[2] = {cur, delta};
  return runKernel(add ? ir::OpKind::Add : ir::OpKind::Sub, xs, {}).at(0);
}

}  // namespace tfs::runtime
