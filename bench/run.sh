#!/usr/bin/env bash
# Benchmarks: `make bench` runs `bash bench/run.sh ./build/tfs`.
#
# Each workload is a whole-process run timed with the median of 5; the
# start-up cost (an empty script for tfs, an empty program for each Python
# peer) is measured the same way and subtracted, so the table shows the time
# of the work itself. Peers that are not installed are shown as `-`.
# Columns: tfs, hand-written C++ (g++ -O3 -march=native), numpy, torch,
# and tfs's ratio to each peer (>1: tfs is slower).
set -u
TFS=${1:-./build/tfs}
HERE=$(cd "$(dirname "$0")" && pwd)
RUNS=${RUNS:-5}
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT

if [[ ! -x $TFS ]]; then echo "bench: $TFS is not built" >&2; exit 1; fi

# median_seconds CMD...: median wall time of $RUNS runs (stdout discarded);
# prints nothing if the command fails.
median_seconds() {
  local times=() t0 t1
  for ((i = 0; i < RUNS; i++)); do
    t0=$(date +%s.%N)
    "$@" >/dev/null 2>"$WORK/err" || { echo "bench: '$*' failed: $(head -c 300 "$WORK/err")" >&2; return 1; }
    t1=$(date +%s.%N)
    times+=("$(echo "$t1 - $t0" | bc -l)")
  done
  printf '%s\n' "${times[@]}" | sort -g | sed -n "$(((RUNS + 1) / 2))p"
}

# net CMD...: median of CMD minus the baseline in $BASE (never below 0).
net() {
  local t
  t=$(median_seconds "$@") || { echo "-"; return; }
  echo "$t $BASE" | awk '{d = $1 - $2; if (d < 0) d = 0; printf "%.3f", d}'
}

# The peers are the Debian packages (python3-numpy, python3-numba,
# python3-torch): use the system interpreter, not whatever python3 is first
# on PATH (pyenv and virtualenvs do not see apt's packages).
PY=${PYTHON:-/usr/bin/python3}
[[ -x $PY ]] || PY=python3
have_py() { "$PY" -c "import $1" >/dev/null 2>&1; }

# Build the C++ peers.
declare -A CXX
for w in w4 w8; do
  if g++ -O3 -march=native -std=c++17 -o "$WORK/$w" "$HERE/peers/$w.cpp" 2>"$WORK/cxxerr"; then
    CXX[$w]=$WORK/$w
  fi
done
echo 'int main(){return 0;}' >"$WORK/empty.cpp" && g++ -O2 -o "$WORK/empty" "$WORK/empty.cpp"
echo "" >"$WORK/empty.py"

BASE=0
BASE_TFS=$(median_seconds "$TFS" run "$HERE/empty.tfs") || BASE_TFS=0
BASE_CXX=$(median_seconds "$WORK/empty") || BASE_CXX=0
BASE_NP=0; BASE_TORCH=0
have_py numpy && { echo "import numpy" >"$WORK/np0.py"; BASE_NP=$(median_seconds "$PY" "$WORK/np0.py"); }
have_py torch && { echo "import torch" >"$WORK/t0.py"; BASE_TORCH=$(median_seconds "$PY" "$WORK/t0.py"); }

ratio() { # ratio A B: A/B or '-'
  if [[ $1 == - || $2 == - ]]; then echo "-"; return; fi
  echo "$1 $2" | awk '{ if ($2 > 0) printf "%.2f", $1 / $2; else print "-" }'
}

printf '%-18s %9s %9s %9s %9s %10s %10s %10s\n' workload tfs c++ numpy torch tfs/c++ tfs/numpy tfs/torch
for w in w4 w8; do
  case $w in
    w4) script=$HERE/w4_eager_chain.tfs; name=w4_eager_chain ;;
    w8) script=$HERE/w8_dispatch.tfs; name=w8_dispatch ;;
  esac
  BASE=$BASE_TFS; t_tfs=$(net "$TFS" run "$script")
  t_cxx=-; [[ -n ${CXX[$w]:-} ]] && { BASE=$BASE_CXX; t_cxx=$(net "${CXX[$w]}"); }
  t_np=-; have_py numpy && [[ -f $HERE/peers/${w}_numpy.py ]] && { BASE=$BASE_NP; t_np=$(net "$PY" "$HERE/peers/${w}_numpy.py"); }
  t_torch=-; have_py torch && [[ -f $HERE/peers/${w}_torch.py ]] && { BASE=$BASE_TORCH; t_torch=$(net "$PY" "$HERE/peers/${w}_torch.py"); }
  printf '%-18s %9s %9s %9s %9s %10s %10s %10s\n' "$name" "$t_tfs" "$t_cxx" "$t_np" "$t_torch" \
    "$(ratio "$t_tfs" "$t_cxx")" "$(ratio "$t_tfs" "$t_np")" "$(ratio "$t_tfs" "$t_torch")"
done
echo "(seconds, median of $RUNS whole-process runs minus start-up; '-' = peer not installed or failed)"
