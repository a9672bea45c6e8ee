#!/usr/bin/env bash
# Replays, through each fuzz target of the regular build (BUILD/tests/fuzz/
# <target>_replay, see tests/fuzz/replay_main.cpp), the checked-in crash
# reproducers (tests/fuzz/corpus/<target>/) and every seed the fuzzing
# campaigns start from (scripts/fuzz_seeds.sh). Every input must end without
# a crash, an internal error or the 10 s time limit. The ctest `fuzz_replay`
# runs it; real fuzzing (coverage-guided, ASan + UBSan) is `make fuzz`.
#   scripts/fuzz_replay.sh BUILD_DIR
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD=$(cd "$1" && pwd)
source "$ROOT/scripts/fuzz_seeds.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
status=0
for t in fuzz_parser fuzz_ir_text fuzz_interpreter fuzz_saved_model; do
  fuzz_seeds "$ROOT" "$t" "$tmp/seeds/$t"
  mapfile -t files < <(find "$ROOT/tests/fuzz/corpus/$t" "$tmp/seeds/$t" -type f 2>/dev/null | sort)
  mkdir -p "$tmp/work/$t"
  # Scripts run from a scratch directory (relative paths they name land there).
  if ! (cd "$tmp/work/$t" && "$BUILD/tests/fuzz/${t}_replay" -timeout=10 "${files[@]}") 2>"$tmp/$t.log"; then
    echo "fuzz_replay: $t: FAILED on $(grep '^replay: ' "$tmp/$t.log" | tail -n 1 | cut -c9-)"
    tail -n 20 "$tmp/$t.log"
    status=1
  else
    echo "fuzz_replay: $t: $(tail -n 1 "$tmp/$t.log" | cut -c9-)"
  fi
done
exit $status
