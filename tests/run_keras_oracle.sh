#!/usr/bin/env bash
# One Keras numeric test: NAME.tfs (tfs, both backends) against NAME.py, the
# same computation in numpy run by Debian's CPython (the oracle). Lines must
# have the same words; numbers may differ by 1e-5 relative (float32 layers
# against float64 numpy) or 1e-7 absolute. The oracle and tfs run in the
# same scratch directory (an oracle may write the files the program reads);
# NAME.check.py, when present, runs there after each tfs run (it may read
# the files tfs wrote) and fails the test by exiting nonzero.
set -u
TFS="$1"; FILE="$2"; base="${FILE%.tfs}"
tmp="$(mktemp -d)"; trap 'rm -rf "$tmp"' EXIT
[ -x /usr/bin/python3 ] && /usr/bin/python3 -c 'import numpy' 2>/dev/null || { echo "no numpy oracle"; exit 77; }
(cd "$tmp" && /usr/bin/python3 "$base.py") >"$tmp/oracle" || { echo "oracle failed"; exit 1; }
status=0
for mode in --backend=interp --backend=jit; do
  (cd "$tmp" && timeout 120 "$TFS" run "$FILE" $mode) >"$tmp/out" 2>&1 </dev/null || {
    echo "[$mode] tfs failed:"; cat "$tmp/out"; status=1; continue; }
  /usr/bin/python3 - "$tmp/oracle" "$tmp/out" "$mode" <<'PY' || status=1
import sys
want, got = open(sys.argv[1]).read().split("\n"), open(sys.argv[2]).read().split("\n")
if len(want) != len(got):
    sys.exit("[%s] %d lines, the oracle has %d" % (sys.argv[3], len(got), len(want)))
def close(a, b):
    try:
        x, y = float(a), float(b)
    except ValueError:
        return a == b
    return abs(x - y) <= 1e-7 + 1e-5 * abs(y)
for n, (w, g) in enumerate(zip(want, got), 1):
    ws, gs = w.split(), g.split()
    if len(ws) != len(gs) or not all(close(a, b) for a, b in zip(gs, ws)):
        sys.exit("[%s] line %d differs:\n  tfs:    %s\n  oracle: %s" % (sys.argv[3], n, g[:300], w[:300]))
PY
  if [ -f "$base.check.py" ]; then
    (cd "$tmp" && /usr/bin/python3 "$base.check.py") || { echo "[$mode] $base.check.py failed"; status=1; }
  fi
done
exit $status
