#!/usr/bin/env bash
# Runs one numpy program under tfs and under Debian's python3 + numpy and
# compares stdout byte for byte. When python3 fails, tfs must fail with the
# same exception class (module prefix dropped: numpy.AxisError -> AxisError)
# on the same line of the script. Skips (77) without python3 + numpy.
set -u
TFS="$1"; FILE="$2"
PY=/usr/bin/python3
[ -x "$PY" ] && "$PY" -c "import numpy" 2>/dev/null || { echo "python3 with numpy not found: skipping"; exit 77; }
tmp="$(mktemp -d)"; trap 'rm -rf "$tmp"' EXIT
cp -r "$(dirname "$FILE")/data" "$tmp/data" 2>/dev/null || true
(cd "$tmp" && timeout 60 "$PY" "$FILE") >"$tmp/py.out" 2>"$tmp/py.err" </dev/null; pyrc=$?
(cd "$tmp" && timeout 60 "$TFS" run "$FILE") >"$tmp/tfs.out" 2>"$tmp/tfs.err" </dev/null; tfsrc=$?
status=0
if ! cmp -s "$tmp/py.out" "$tmp/tfs.out"; then
  echo "stdout differs (< python3, > tfs):"; diff "$tmp/py.out" "$tmp/tfs.out" | head -40; status=1
fi
if [ $pyrc -ne 0 ]; then
  exc="$(tail -1 "$tmp/py.err" | cut -d: -f1)"; exc="${exc##*.}"
  pyline="$(grep -o "File \"$FILE\", line [0-9]*" "$tmp/py.err" | tail -1 | grep -o '[0-9]*$')"
  [ $tfsrc -eq 1 ] || { echo "python3 failed ($pyrc) but tfs exited $tfsrc"; status=1; }
  grep -Fq "error: $exc" "$tmp/tfs.err" || { echo "tfs stderr lacks 'error: $exc'"; cat "$tmp/tfs.err"; status=1; }
  grep -Fq "$FILE:$pyline:" "$tmp/tfs.err" || { echo "tfs does not report line $pyline:"; head -3 "$tmp/tfs.err"; status=1; }
elif [ $tfsrc -ne 0 ]; then
  echo "tfs exited $tfsrc"; cat "$tmp/tfs.err"; status=1
fi
exit $status
