#!/usr/bin/env bash
# libFuzzer campaign for tfs (tests/fuzz): builds the four fuzz targets with
# clang-14 (TFS_FUZZ=ON: ASan + UBSan + coverage) in build-fuzz/, then runs
# each in turn, one process at a time.
#
#   scripts/fuzz.sh [TARGET...]      FUZZ_SECONDS (300) per target, or
#                                    FUZZ_RUNS executions when set;
#                                    FUZZ_WORKERS (1) processes share one
#                                    corpus and split FUZZ_RUNS between them
#   scripts/fuzz.sh --smoke          every checked-in seed and reproducer
#                                    once, then 15 s per target (`make test`)
#
# Seeds are gathered at run time from the test folders (tests/golden,
# samples, tests/{differential,autograph,bad_input,programs}, the IR
# goldens); tests/fuzz/corpus/<target>/ holds only hand-made seeds and crash
# reproducers (regress-*). New inputs libFuzzer finds accumulate in
# build-fuzz/fuzz/corpus/<target>/ (not in smoke mode); crashes land in
# build-fuzz/fuzz/crashes/<target>/.
# Exit status: 0 clean, 1 a crash/leak/timeout was found, 77 clang-14 absent.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD=${FUZZ_BUILD:-$ROOT/build-fuzz}
JOBS=${FUZZ_JOBS:-$(nproc)}
WORKERS=${FUZZ_WORKERS:-1}
SMOKE=0
TARGETS=()
for a in "$@"; do
  case $a in
    --smoke) SMOKE=1 ;;
    -h|--help) sed -n '2,21p' "$0"; exit 0 ;;
    fuzz_*) TARGETS+=("$a") ;;
    *) echo "fuzz.sh: unknown argument '$a'" >&2; exit 2 ;;
  esac
done
[ ${#TARGETS[@]} -eq 0 ] && TARGETS=(fuzz_parser fuzz_ir_text fuzz_interpreter fuzz_saved_model)

if ! command -v clang-14 >/dev/null || ! command -v clang++-14 >/dev/null; then
  echo "fuzz.sh: clang-14 not found; skipping (scripts/install-deps.sh installs it)"
  exit 77
fi

# --- build (locked: `make fuzz` and the ctest smoke may share build-fuzz) ---
mkdir -p "$BUILD"
start=$(date +%s)
(
  flock 9
  if [ ! -f "$BUILD/build.ninja" ]; then
    launcher=()
    command -v ccache >/dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
    CC=clang-14 CXX=clang++-14 cmake -S "$ROOT" -B "$BUILD" -G Ninja \
      -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -gline-tables-only" \
      -DCMAKE_C_FLAGS_RELWITHDEBINFO="-O1 -gline-tables-only" \
      -DTFS_FUZZ=ON "${launcher[@]}" >/dev/null
  fi
  cmake --build "$BUILD" -j "$JOBS" --target "${TARGETS[@]}"
) 9>"$BUILD/.fuzz-build.lock"
echo "fuzz.sh: build took $(( $(date +%s) - start )) s"

# --- seeds and dictionaries ------------------------------------------------
OUT=$BUILD/fuzz
SEEDS=$OUT/seeds
rm -rf "$SEEDS"
mkdir -p "$SEEDS" "$OUT/work"
source "$ROOT/scripts/fuzz_seeds.sh"
for t in "${TARGETS[@]}"; do fuzz_seeds "$ROOT" "$t" "$SEEDS/$t"; done
# Dictionaries: the fixed words plus every op name of the op table (the IR
# names are also the tf.* function names).
for d in tfs ir; do
  { cat "$ROOT/tests/fuzz/$d.dict"
    sed -n 's/^TFS_OP([A-Za-z0-9_]*, *"\([a-z0-9_]*\)".*/"\1"/p' "$ROOT/ir/ops.def"
  } > "$OUT/$d.dict"
done
dict_for() {
  case $1 in
    fuzz_parser|fuzz_interpreter) echo "$OUT/tfs.dict" ;;
    fuzz_ir_text|fuzz_saved_model) echo "$OUT/ir.dict" ;;
  esac
}
max_len_for() {
  case $1 in
    fuzz_parser) echo 16384 ;;
    *) echo 8192 ;;
  esac
}

# libFuzzer's entropic scheduler updates a frequency for every feature an
# input hits; the interpreter hits ~90,000 (vs ~10,000 for the others) and
# that bookkeeping cost 3x its executions per second, so it uses the
# classic scheduler.
extra_flags_for() {
  case $1 in
    fuzz_interpreter) echo -entropic=0 ;;
  esac
}

# --- run ---------------------------------------------------------------------
# Scripts run from a scratch directory (relative paths they name land there).
cd "$OUT/work"
# malloc_context_size=8: shorter allocation stacks in reports, but a much
# cheaper malloc (ASan unwinds 30 frames per allocation by default).
export ASAN_OPTIONS=${ASAN_OPTIONS:-abort_on_error=1:detect_stack_use_after_return=0:malloc_context_size=8}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
status=0
summary=()
for t in "${TARGETS[@]}"; do
  bin=$BUILD/tests/fuzz/$t
  checked_in=$ROOT/tests/fuzz/corpus/$t
  crashes=$OUT/crashes/$t
  mkdir -p "$crashes" "$checked_in"
  log=$OUT/$t.log
  common=(-max_len="$(max_len_for "$t")" -timeout=10 -rss_limit_mb=2048
          -dict="$(dict_for "$t")" -artifact_prefix="$crashes/" $(extra_flags_for "$t"))
  # 1. Every checked-in seed and crash reproducer once (a regression run).
  mapfile -t files < <(find "$checked_in" -type f | sort)
  if [ ${#files[@]} -gt 0 ] && ! "$bin" "${common[@]}" "${files[@]}" >"$log" 2>&1; then
    echo "fuzz.sh: $t: a checked-in input fails (log: $log)"
    tail -n 40 "$log"
    status=1
    summary+=("$t: regression FAILED")
    continue
  fi
  # 2. Fuzz.
  if [ $SMOKE = 1 ]; then
    corpus=$OUT/smoke-corpus/$t
    rm -rf "$corpus"
    budget=(-max_total_time=15 -seed=1)
  else
    corpus=$OUT/corpus/$t
    if [ -n "${FUZZ_RUNS:-}" ]; then budget=(-runs="$FUZZ_RUNS")
    else budget=(-max_total_time="${FUZZ_SECONDS:-300}"); fi
  fi
  mkdir -p "$corpus"
  # Workers are independent libFuzzer processes on the same main corpus
  # (the first directory): each reloads it every second (-reload), so what
  # one finds the others build on, as with libFuzzer's own -jobs.
  workers=1
  if [ $SMOKE = 0 ] && [ "$WORKERS" -gt 1 ]; then
    workers=$WORKERS
    [ -n "${FUZZ_RUNS:-}" ] && budget=(-runs=$(( (FUZZ_RUNS + workers - 1) / workers )))
  fi
  echo "fuzz.sh: $t: fuzzing (${budget[*]}, $workers worker(s))"
  t0=$(date +%s)
  pids=()
  logs=()
  for ((w = 0; w < workers; w++)); do
    wlog=$log
    [ $w -gt 0 ] && wlog=$OUT/$t.worker$w.log
    logs+=("$wlog")
    "$bin" "${common[@]}" "${budget[@]}" -print_final_stats=1 \
      "$corpus" "$SEEDS/$t" "$checked_in" >"$wlog" 2>&1 &
    pids+=($!)
  done
  rc=0
  # The first worker to fail stops the others (its input is the finding).
  while [ ${#pids[@]} -gt 0 ]; do
    sleep 1
    running=()
    for pid in "${pids[@]}"; do
      if kill -0 "$pid" 2>/dev/null; then running+=("$pid"); continue; fi
      r=0
      wait "$pid" || r=$?
      [ $r -eq 0 ] || [ $rc -ne 0 ] || rc=$r
    done
    pids=("${running[@]}")
    if [ $rc -ne 0 ] && [ ${#pids[@]} -gt 0 ]; then kill "${pids[@]}" 2>/dev/null || true; fi
  done
  secs=$(( $(date +%s) - t0 ))
  execs=0
  rate=0
  for wlog in "${logs[@]}"; do
    n=$(sed -n 's/^stat::number_of_executed_units: *//p' "$wlog" | tail -n 1)
    r=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$wlog" | tail -n 1)
    execs=$(( execs + ${n:-0} ))
    rate=$(( rate + ${r:-0} ))
  done
  line="$t: $execs executions in ${secs} s (${rate}/s"
  [ $workers -gt 1 ] && line+=" over $workers workers"
  line+="), corpus $(find "$corpus" -type f | wc -l) files"
  # libFuzzer stops checking each input for leaks after 1,000 runs that end
  # with more mallocs than frees: the target keeps state from run to run
  # (memory that grows with every script), a bug in itself.
  if grep -q "disabled leak detection" "${logs[@]}"; then
    [ "$rc" -ne 0 ] || rc=1
    line+=", per-input leak checks disabled: the target accumulates memory across runs"
  fi
  if [ $rc -ne 0 ]; then
    status=1
    line+=", FAILED (exit $rc; log: ${logs[*]})"
    grep -hE '^(==[0-9]+==ERROR|SUMMARY|.*runtime error:|artifact_prefix|Test unit written|tfs fuzz target)' "${logs[@]}" | head -n 20 || true
  fi
  summary+=("$line")
  echo "fuzz.sh: $line"
done
echo "fuzz.sh: summary"
printf '  %s\n' "${summary[@]}"
found=$(find "$OUT/crashes" -type f 2>/dev/null | sort)
if [ -n "$found" ]; then
  echo "fuzz.sh: crash/leak/timeout inputs (reproduce: build-fuzz/tests/fuzz/TARGET -close_fd_mask=0 FILE):"
  echo "$found" | sed 's/^/  /'
fi
exit $status
