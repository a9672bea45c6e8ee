// The 8-lane SLEEF variants (vector_math.h, Note [Vector math]); compiled for
// AVX2 + FMA (CMakeLists.txt) and only called on hosts that have them.
#define TFS_VM_LANES 8
#define TFS_VM_VECTOR __m256
#define TFS_VM_LOAD _mm256_loadu_ps
#define TFS_VM_STORE _mm256_storeu_ps
#define TFS_VM_SET1 _mm256_set1_ps
#define TFS_VM_BLEND_NAN(r, nan) _mm256_blendv_ps(r, nan, _mm256_cmp_ps(r, r, _CMP_UNORD_Q))
#define TFS_VM_SLEEF(fn, u) Sleef_finz_##fn##f8_##u##avx2
#define TFS_VM_NAME(fn, u) "Sleef_finz_" #fn "f8_" #u "avx2"
#define TFS_VM_VARIANT avx2Vector
#define TFS_VM_APPLY avx2Apply
#define TFS_VM_TF_APPLY avx2TfApply
#include "runtime/kernels/vector_math_lanes.inc"
