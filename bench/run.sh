#!/usr/bin/env bash
# Benchmarks: `make bench` runs `bash bench/run.sh ./build/tfs`.
#
# Runs every workload of bench/workloads (tfs) and its peers (hand-written
# C++ -O3, numpy, Numba, torch/TorchScript, CPython for the pure-Python
# loop) in one run, one thread each, and prints the table of bench/report.py:
# medians of repeated runs timed inside each process (start-up excluded), and
# tfs's ratio to each peer. Peers that are not installed are shown as `-`.
#   REPS=N     repetitions per workload (default 7)
#   BENCH_CLOCK=cpu  time with each process's CPU time instead of the wall
#              clock, every system alike (one thread each: on a machine
#              shared with other jobs the wall clock counts their time too;
#              memory bandwidth stays shared)
set -u
TFS=${1:-./build/tfs}
HERE=$(cd "$(dirname "$0")" && pwd)
REPS=${REPS:-7}
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
if [[ ! -x $TFS ]]; then echo "bench: $TFS is not built" >&2; exit 1; fi
TFS=$(cd "$(dirname "$TFS")" && pwd)/$(basename "$TFS")

# The peers (numpy, C++) on the OpenBLAS kernels tfs uses (Note [OpenBLAS
# core type] in runtime/kernels/gemm.cpp: tfs replaces OpenBLAS's SSE3
# fallback on CPUs newer than the library).

# One thread everywhere (BLAS, OpenMP, Numba, torch).
export OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 MKL_NUM_THREADS=1 NUMBA_NUM_THREADS=1

# The peers are Debian's packages: the system interpreter, not whatever
# python3 comes first on PATH (pyenv and virtualenvs do not see them).
PY=${PYTHON:-/usr/bin/python3}
[[ -x $PY ]] || PY=python3

# run SYSTEM CMD...: appends CMD's RESULT/CHECK lines to $WORK/SYSTEM.out.
run() {
  local system=$1; shift
  echo "bench: $system: $(basename "${@: -2:1}") ..." >&2
  "$@" >>"$WORK/$system.out" 2>"$WORK/err" || echo "bench: '$*' failed: $(tail -c 400 "$WORK/err")" >&2
}

# The workloads as they run: with BENCH_CLOCK=cpu their time.perf_counter()
# reads time.process_time() (the same text runs on CPython for collatz).
export BENCH_CLOCK=${BENCH_CLOCK:-wall}
for w in "$HERE"/workloads/*.tfs; do
  if [[ $BENCH_CLOCK == cpu ]]; then
    sed 's/time\.perf_counter()/time.process_time()/g' "$w" >"$WORK/$(basename "$w")"
  else
    cp "$w" "$WORK/$(basename "$w")"
  fi
done

# tfs. The MLP reads the digits file through a string (tfs has no open() yet).
{
  while IFS= read -r line; do
    if [[ $line == DIGITS\ =\ None* ]]; then
      printf 'DIGITS = """'; cat "$HERE/data/digits.txt"; printf '"""\n'
    else
      printf '%s\n' "$line"
    fi
  done <"$WORK/mlp.tfs"
} >"$WORK/mlp_digits.tfs"
for w in lstm tensor_ops loops call collatz data_pipeline cnn_train; do
  run tfs "$TFS" run "$WORK/$w.tfs" "$REPS"
done
run tfs "$TFS" run "$WORK/mlp_digits.tfs" "$REPS"
# Without the on-disk cache: the first call must compile, as in a fresh
# checkout (a warm cache would make it a file read: from the second
# `make bench` on, the small function's IR text is the same as before).
for w in compile compile_rnn; do
  run tfs env TFS_NO_COMPILE_CACHE=1 "$TFS" run "$WORK/$w.tfs" "$REPS"
done

# Hand-written C++.
if g++ -O3 -march=native -ffast-math -fopenmp-simd -o "$WORK/cxx_peer" "$HERE/peers/cxx_peer.cpp" \
     -lopenblas -lsleef 2>"$WORK/err"; then
  run c++ "$WORK/cxx_peer" "$REPS"
else
  echo "bench: the C++ peer did not build: $(head -c 300 "$WORK/err")" >&2
fi

have_py() { "$PY" -c "import $1" >/dev/null 2>&1; }
cd "$HERE/peers"
have_py numpy && run numpy "$PY" numpy_peer.py "$REPS"
have_py numba && run numba "$PY" numba_peer.py "$REPS"
have_py torch && run torch "$PY" torch_peer.py "$REPS"
run cpython "$PY" "$WORK/collatz.tfs" "$REPS"

"$PY" "$HERE/report.py" "$WORK"
echo "(clock: $BENCH_CLOCK)"
