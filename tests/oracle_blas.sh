# Sourced by the test scripts that compare tfs with numpy (needs $TFS): the
# numpy oracle runs on the OpenBLAS kernels tfs runs on. tfs replaces
# OpenBLAS's SSE3 fallback on CPUs newer than the library (Note [OpenBLAS
# core type] in runtime/kernels/gemm.cpp); numpy would keep it, and the two
# would round matrix products differently in the last bits.
if [ -z "${OPENBLAS_CORETYPE:-}" ]; then
  _tfs_blas_core="$("$TFS" --version 2>/dev/null | sed -n 's/^OpenBLAS kernels: //p')"
  case "$_tfs_blas_core" in
    ""|unknown) ;;
    *) export OPENBLAS_CORETYPE="$_tfs_blas_core" ;;
  esac
fi
