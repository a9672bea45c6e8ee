#!/usr/bin/env bash
# Literal audit: every test program and sample, once per numeric literal
# replaced by an extreme value (2**63 - 1, -2**63, 10**12, 2**32, -1, 1e308,
# nan, -0.0, ...), run through the sanitized fuzz_interpreter target (ASan +
# UBSan, the fuzzer's step and memory budgets). Where libFuzzer's random
# mutations rarely reach the 64-bit edges, this walks each of them in turn:
# it found ~20 overflow, float-to-int and allocation bugs that a campaign had
# not. Every finding is listed (the run goes on past it); exit 1 if any.
#
#   scripts/literal_audit.sh            all variants (~40,000; ~15 min on 2 cores)
#   AUDIT_LIMIT=500 scripts/literal_audit.sh   the first 500 only
#
# Needs python3 (variant generation) and the fuzz build (scripts/fuzz.sh
# makes it). Variants land in build-fuzz/fuzz/literals/, logs beside them.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD=${FUZZ_BUILD:-$ROOT/build-fuzz}
BIN=$BUILD/tests/fuzz/fuzz_interpreter
WORKERS=${AUDIT_WORKERS:-$(nproc)}
OUT=$BUILD/fuzz/literals

command -v python3 >/dev/null || { echo "literal_audit.sh: python3 not found; skipping"; exit 77; }
[ -f "$BUILD/build.ninja" ] || { echo "literal_audit.sh: no fuzz build; run scripts/fuzz.sh once first"; exit 2; }
cmake --build "$BUILD" --target fuzz_interpreter >/dev/null

rm -rf "$OUT"
mkdir -p "$OUT"
python3 - "$ROOT" "$OUT" "$WORKERS" "${AUDIT_LIMIT:-0}" <<'EOF'
import glob, os, re, sys
root, out, workers, limit = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
ints = ["9223372036854775807", "(-9223372036854775807 - 1)", "1000000000000", "4294967296",
        "2147483648", "(-2147483648)", "65536", "0", "(-1)"]
floats = ["1e308", "(-0.0)", "float('nan')", "float('inf')", "1e-320"]
files = []
for d in ["samples", "tests/programs", "tests/differential", "tests/autograph", "tests/golden", "tests/bad_input"]:
    files += sorted(glob.glob(os.path.join(root, d, "**", "*.tfs"), recursive=True))
n = 0
for f in files:
    src = open(f, encoding="latin-1").read()
    if len(src) > 8000:
        continue
    sites = [(m, ints) for m in re.finditer(r"(?<![\w.])\d+(?![\w.])", src)]
    sites += [(m, floats) for m in re.finditer(r"(?<![\w.])\d+\.\d*(?:e-?\d+)?(?![\w.])", src)]
    for m, values in sites:
        for v in values:
            if v == m.group():
                continue
            if limit and n >= limit:
                break
            d = os.path.join(out, str(n % workers))
            os.makedirs(d, exist_ok=True)
            with open(os.path.join(d, f"v{n:06d}.tfs"), "w", encoding="latin-1") as o:
                o.write(f"# {os.path.relpath(f, root)}:{src.count(chr(10), 0, m.start()) + 1}: {m.group()} -> {v}\n")
                o.write(src[:m.start()] + v + src[m.end():])
            n += 1
print(f"literal_audit.sh: {n} variants of {len(files)} programs")
EOF

# One worker: runs its files in one process; after a finding, resumes with
# the file after the one that failed (libFuzzer stops at the first).
audit_worker() {
  local dir=$1 i=0 round=0 log rc last j
  local -a files
  mapfile -t files < <(find "$dir" -name '*.tfs' | sort)
  while [ $i -lt ${#files[@]} ]; do
    round=$((round + 1))
    log=$dir.$round.log
    rc=0
    ASAN_OPTIONS=abort_on_error=1:detect_stack_use_after_return=0:malloc_context_size=8 \
    UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
      "$BIN" -timeout=10 -rss_limit_mb=2048 "${files[@]:$i}" >"$log" 2>&1 || rc=$?
    [ $rc -eq 0 ] && break
    last=$(grep -a '^Running: ' "$log" | tail -n 1 | sed 's/^Running: //')
    echo "FINDING (exit $rc) $(head -n 1 "$last" | sed 's/^# //'): $(grep -aE 'runtime error|ERROR:|internal error' "$log" | head -n 1)"
    echo "  input: $last  log: $log"
    for ((j = i; j < ${#files[@]}; j++)); do [ "${files[$j]}" = "$last" ] && break; done
    i=$((j + 1))
  done
}

cd "$OUT"
start=$(date +%s)
pids=()
for d in "$OUT"/*/; do
  audit_worker "${d%/}" >"${d%/}.findings" 2>&1 &
  pids+=($!)
done
for p in "${pids[@]}"; do wait "$p"; done
cat "$OUT"/*.findings
count=$(cat "$OUT"/*.findings | grep -c '^FINDING' || true)
echo "literal_audit.sh: $count finding(s) in $(( $(date +%s) - start )) s"
[ "$count" -eq 0 ]
