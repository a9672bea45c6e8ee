#!/usr/bin/env bash
# Runs NAME.tfs under tfs and its numpy twin NAME.py under Debian's python3
# (with numpy); stdout+stderr of tfs must equal the twin's stdout, on both
# backends and with --run-functions-eagerly. The twin computes every value
# with numpy and prints it the way TensorFlow prints it (tfprint.py).
# Skips (77) when numpy is absent.
set -u
TFS="$1"; FILE="$2"; base="${FILE%.tfs}"
PY=/usr/bin/python3
"$PY" -c "import numpy" 2>/dev/null || { echo "python3 with numpy not found: skipping"; exit 77; }
tmp="$(mktemp -d)"; trap 'rm -rf "$tmp"' EXIT
(cd "$(dirname "$FILE")" && PYTHONDONTWRITEBYTECODE=1 timeout 60 "$PY" -W ignore "$(basename "$base").py") >"$tmp/want" 2>"$tmp/py.err" </dev/null \
  || { echo "numpy twin failed:"; cat "$tmp/py.err"; exit 1; }
status=0
# A script whose first lines hold "# tfs-test: graph-only" checks graph
# semantics that running functions eagerly changes (op seeds in a
# tf.function), and skips that mode.
modes=(--backend=interp --backend=jit --run-functions-eagerly)
head -5 "$FILE" | grep -q '^# tfs-test: graph-only' && modes=(--backend=interp --backend=jit)
for mode in "${modes[@]}"; do
  (cd "$tmp" && timeout 60 "$TFS" run "$FILE" $mode) >"$tmp/got" 2>&1 </dev/null
  rc=$?
  if [ $rc -ne 0 ] || ! cmp -s "$tmp/want" "$tmp/got"; then
    echo "[$mode] output differs from numpy (exit $rc):"; diff "$tmp/want" "$tmp/got" | head -30
    status=1
  fi
done
exit $status
