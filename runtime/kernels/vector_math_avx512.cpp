// The 16-lane SLEEF variants (vector_math.h, Note [Vector math]); compiled
// for AVX-512F + FMA (CMakeLists.txt) and only called on hosts that have them.
#define TFS_VM_LANES 16
#define TFS_VM_VECTOR __m512
#define TFS_VM_LOAD _mm512_loadu_ps
#define TFS_VM_STORE _mm512_storeu_ps
#define TFS_VM_SET1 _mm512_set1_ps
#define TFS_VM_BLEND_NAN(r, nan) _mm512_mask_blend_ps(_mm512_cmp_ps_mask(r, r, _CMP_UNORD_Q), r, nan)
#define TFS_VM_SLEEF(fn, u) Sleef_finz_##fn##f16_##u##avx512f
#define TFS_VM_NAME(fn, u) "Sleef_finz_" #fn "f16_" #u "avx512f"
#define TFS_VM_VARIANT avx512Vector
#define TFS_VM_APPLY avx512Apply
#define TFS_VM_TF_APPLY avx512TfApply
#include "runtime/kernels/vector_math_lanes.inc"
